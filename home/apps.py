from django.apps import AppConfig


class HomeConfig(AppConfig):
    """The pages that gather several apps: the home page (the pools, the create form, the
    lobby, the visitor's games) and a player's profile page (the players' profile, the
    challenges' button)."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "home"
