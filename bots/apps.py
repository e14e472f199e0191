from django.apps import AppConfig


class BotsConfig(AppConfig):
    """Personal API tokens, bot accounts and their challenges (DESIGN.md, "Bots")."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "bots"
