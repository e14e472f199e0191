from django.apps import AppConfig


class ModerationConfig(AppConfig):
    """Reports, the staff desk, staff actions and their log: above every app whose
    accounts it watches (games, players, challenges, pairing, tournaments). Its actions
    and its playbans (told of every game's end: games.signals) set flags on the account's
    own row (accounts.standing), which those apps read: none of them imports this one."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "moderation"

    def ready(self) -> None:
        from games import signals
        from moderation.services import actions, playbans
        from notifications import texts
        from notifications.models import Kind

        # How its notification reads (made when read).
        texts.register(Kind.REPORT_CLOSED, actions.report_closed_text)
        # Every game's end, for the offences that earn a playban.
        signals.game_finished.connect(playbans.game_ended, dispatch_uid="moderation.finished")
        signals.game_aborted.connect(playbans.game_ended, dispatch_uid="moderation.aborted")
