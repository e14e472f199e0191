from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    """Telling accounts what happened: on the site, by e-mail, by Web Push."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "notifications"
