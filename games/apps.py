from django.apps import AppConfig


class GamesConfig(AppConfig):
    """Othello and Go games, their moves, and the services that change them."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "games"

    def ready(self) -> None:
        from django.contrib.auth import get_user_model
        from django.db.models.signals import post_save

        from accounts.signals import guest_logged_in
        from games.services import lobby, tell

        # A guest who logs in or signs up keeps the seats taken as a guest; an account's
        # seats follow its username.
        guest_logged_in.connect(lobby.guest_logged_in, dispatch_uid="games.guest_logged_in")
        post_save.connect(
            lobby.rename_account_seats,
            sender=get_user_model(),
            dispatch_uid="games.rename_account_seats",
        )
        # How your_move, game_over and follow_playing read (made when read).
        tell.register_words()
