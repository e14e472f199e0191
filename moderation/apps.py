from django.apps import AppConfig


class ModerationConfig(AppConfig):
    """Reports, the staff desk, staff actions and their log: above every app whose
    accounts it watches (games, players, challenges, pairing, tournaments). Its actions
    set flags on the account's own row (accounts.standing), which those apps read: none
    of them imports this one."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "moderation"
