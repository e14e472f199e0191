from django.apps import AppConfig


class ManualConfig(AppConfig):
    """The help pages: the rules of both games with board pictures, the clocks, ratings,
    pairing, the review, bots and a FAQ, in the words of this server's code."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "manual"
