"""Admin screen of accounts' own facts (Django's user admin holds the rest)."""

from django.contrib import admin

from accounts.models import Account


@admin.register(Account)
class AccountAdmin(admin.ModelAdmin):
    list_display = ("user", "is_bot", "bot_since")
    list_filter = ("is_bot",)
    search_fields = ("user__username",)
    readonly_fields = ("user", "is_bot", "bot_since")
