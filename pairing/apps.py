from django.apps import AppConfig


class PairingConfig(AppConfig):
    """Seeks on the lobby's socket and the pools that pair strangers of a strength."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "pairing"

    def ready(self) -> None:
        from games import pages, selectors
        from pairing import parts
        from pairing import selectors as pairing_selectors

        # The lobby's message (games.selectors.lobby_json) gains the pools' counts.
        selectors.register_lobby_part(pairing_selectors.seeking_part)
        # The pools on the home page; on a paired game's page, how it was paired.
        pages.register_part("home", parts.pools)
        pages.register_part("home-scripts", parts.pools_script)
        pages.register_part("game-head", parts.paired_note)
        pages.register_part("game-over", parts.seek_again)
