from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    """Arenas, Swiss and McMahon tournaments, round robins: above games, players and
    pairing (tournaments.systems does the pairing and the scores, without Django)."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"

    def ready(self) -> None:
        from games import selectors, signals
        from tournaments import selectors as tournament_selectors
        from tournaments import services

        # G's ``tournament``; the standings told when a tournament's game ends.
        selectors.register_state_part(tournament_selectors.state_part)
        signals.game_finished.connect(
            services.game_finished, dispatch_uid="tournaments.game_finished"
        )
