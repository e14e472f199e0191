from django.apps import AppConfig


class ModerationConfig(AppConfig):
    """Reports, the staff desk, staff actions and their log: above every app whose
    accounts it watches (games, players, challenges, pairing, tournaments). Its actions
    set flags on the account's own row (accounts.standing), which those apps read: none
    of them imports this one."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "moderation"

    def ready(self) -> None:
        from moderation.services import actions
        from notifications import texts
        from notifications.models import Kind

        # How its notification reads (made when read).
        texts.register(Kind.REPORT_CLOSED, actions.report_closed_text)
