from django.apps import AppConfig


class LiveConfig(AppConfig):
    """The live game: the game page, the game socket and the lobby socket, G's assembly."""

    name = "live"

    def ready(self) -> None:
        from games import signals
        from live import events

        # A game changed (its commit done): G built and sent to its watchers, the lobby told.
        signals.game_changed.connect(events.game_changed, dispatch_uid="live.game_changed")
