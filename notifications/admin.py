"""Admin screens of notifications: what was told to whom, and how each delivery went."""

from django.contrib import admin

from notifications.models import Delivery, Notification, PushSubscription


@admin.register(Notification)
class NotificationAdmin(admin.ModelAdmin):
    list_display = ("user", "kind", "text", "created_at", "read_at")
    list_filter = ("kind",)
    search_fields = ("user__username", "params")
    raw_id_fields = ("user",)


@admin.register(Delivery)
class DeliveryAdmin(admin.ModelAdmin):
    list_display = ("notification", "channel", "status", "attempts", "next_try_at", "sent_at")
    list_filter = ("channel", "status")
    raw_id_fields = ("notification", "subscription")
    readonly_fields = ("last_error",)


@admin.register(PushSubscription)
class PushSubscriptionAdmin(admin.ModelAdmin):
    list_display = ("user", "endpoint", "created_at")
    raw_id_fields = ("user",)
