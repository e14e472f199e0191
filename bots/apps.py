from django.apps import AppConfig


class BotsConfig(AppConfig):
    """Personal API tokens, bot accounts and their challenges (DESIGN.md, "Bots")."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "bots"

    def ready(self) -> None:
        from bots import accounts, services
        from games import clockwatch, selectors
        from games import services as game_services

        # The seat a challenge keeps for its bot, the challenge in G; a challenge not
        # answered in time is aborted.
        game_services.register_seat_reservation(accounts.reserved_for_other)
        selectors.register_state_part(accounts.challenge_part)
        clockwatch.every_second(services.expire_challenges)
