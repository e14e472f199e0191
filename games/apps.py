from django.apps import AppConfig


class GamesConfig(AppConfig):
    """Othello and Go games, their moves, and the services that change them."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "games"
