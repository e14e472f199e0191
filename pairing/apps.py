from django.apps import AppConfig


class PairingConfig(AppConfig):
    """Seeks on the lobby's socket and the pools that pair strangers of a strength."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "pairing"

    def ready(self) -> None:
        from games import selectors
        from pairing import selectors as pairing_selectors

        # The lobby's message (games.selectors.lobby_json) gains the pools' counts; G
        # says how the pools made a game (``paired``).
        selectors.register_lobby_part(pairing_selectors.seeking_part)
        selectors.register_state_part(pairing_selectors.paired_part)
