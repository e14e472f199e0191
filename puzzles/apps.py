from django.apps import AppConfig


class PuzzlesConfig(AppConfig):
    """Puzzles mined from the stored games (docs/api/puzzles.md): above games, players
    and the review, whose positions, rating calculator and exact solver it uses; told of
    each game's end (games.signals) to mine it in the background."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "puzzles"
