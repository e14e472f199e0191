from django.apps import AppConfig


class PuzzlesConfig(AppConfig):
    """Puzzles mined from the stored games (docs/api/http.md, "Puzzles"): above games, players
    and the review, whose positions, rating calculator and exact solver it uses; told of
    each game's end (games.signals) to mine it in the background."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "puzzles"

    def ready(self) -> None:
        from games import signals
        from puzzles import services

        # Every game's end: an Othello game is queued for mining (PUZZLE_MINING); the
        # engines mine the queue when nothing more urgent waits (puzzles.services.MINING,
        # handed to every process's pool by othello_site.asgi).
        signals.game_finished.connect(services.game_finished, dispatch_uid="puzzles.finished")
        # A Go game's review by KataGo done: it is queued for mining with KataGo.
        signals.review_done.connect(services.review_done, dispatch_uid="puzzles.reviewed")
