from django.apps import AppConfig


class PairingConfig(AppConfig):
    """Seeks on the lobby's socket and the pools that pair strangers of a strength, and the
    lobby's message (``pairing.lobby``)."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "pairing"
