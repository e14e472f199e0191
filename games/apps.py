from django.apps import AppConfig


class GamesConfig(AppConfig):
    """Othello and Go games, their moves, and the services that change them."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "games"

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_in

        from games import guests

        # A guest who logs in or signs up keeps the seats taken as a guest.
        user_logged_in.connect(guests.claim_on_login, dispatch_uid="games.guests.claim_on_login")
