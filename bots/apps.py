from django.apps import AppConfig


class BotsConfig(AppConfig):
    """Personal API tokens, bot accounts and their challenges (DESIGN.md, "Bots")."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "bots"

    def ready(self) -> None:
        from bots import accounts, services
        from games import selectors
        from games.workers import clockwatch

        # The challenge in G; a challenge not answered in time is aborted.
        selectors.register_state_part(accounts.challenge_part)
        clockwatch.every_second(services.expire_challenges)
