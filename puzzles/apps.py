from django.apps import AppConfig


class PuzzlesConfig(AppConfig):
    """Puzzles mined from the stored games (docs/api/http.md, "Puzzles"): above games, players
    and the review, whose positions, rating calculator and exact solver it uses; told of
    each game's end (games.signals) to mine it in the background."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "puzzles"

    def ready(self) -> None:
        from games import signals
        from games.workers import engines
        from puzzles import mining, services

        # Every game's end: an Othello game is queued for mining (PUZZLE_MINING).
        signals.game_finished.connect(services.game_finished, dispatch_uid="puzzles.finished")
        # The engines mine the queued games when nothing more urgent waits.
        engines.register_idle_work(
            engines.IdleWork(
                name="puzzles",
                claim=services.claim_minings,
                compute=mining.mine_job,
                store=services.store_mined,
                release=services.release_mining,
            )
        )
