from django.apps import AppConfig


class BotsConfig(AppConfig):
    """Personal API tokens, bot accounts, and the bots' side of their challenges
    (docs/bots.md)."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "bots"

    def ready(self) -> None:
        from bots import services
        from challenges.services import register_bot_desk

        # Challenges to bots: the bot online, its bridge told, 30 s to answer.
        register_bot_desk(services.DESK)
