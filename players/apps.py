from django.apps import AppConfig


class PlayersConfig(AppConfig):
    """The players' world: ratings per category, their history, profiles, leaderboards."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "players"
