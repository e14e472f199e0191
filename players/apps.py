from django.apps import AppConfig


class PlayersConfig(AppConfig):
    """The players' world: ratings per category, their history, profiles, leaderboards."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "players"

    def ready(self) -> None:
        from games import signals
        from players import ratings

        # A game's end moves its ratings in the transaction that ends it.
        signals.game_finished.connect(
            ratings.rate_on_finish, dispatch_uid="players.ratings.rate_on_finish"
        )
