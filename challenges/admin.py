"""Admin screen of the challenges."""

from django.contrib import admin

from challenges.models import Challenge


@admin.register(Challenge)
class ChallengeAdmin(admin.ModelAdmin):
    list_display = ("game", "challenged", "challenger", "rated", "status", "created_at")
    list_filter = ("status", "rated")
    raw_id_fields = ("game", "challenged", "challenger_user")
