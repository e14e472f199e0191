from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    """Arenas, Swiss and McMahon tournaments, round robins: above games, players and
    pairing (tournaments.systems does the pairing and the scores, without Django)."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"

    def ready(self) -> None:
        from games import signals
        from notifications import texts
        from notifications.models import Kind
        from tournaments import services

        # The standings told when a tournament's game ends.
        signals.game_finished.connect(
            services.game_finished, dispatch_uid="tournaments.game_finished"
        )
        # How its notifications read (made when read).
        texts.register(Kind.TOURNAMENT_STARTING, services.starting_text)
        texts.register(Kind.ROUND_PAIRED, services.paired_text)
        texts.register(Kind.TOURNAMENT_FORFEIT, services.dropped_text)
