from django.apps import AppConfig


class ChallengesConfig(AppConfig):
    """Challenges: a waiting game reserved for one account (a person or a bot), its
    answer, its expiry (docs/api/http.md#post-playersusernamechallenge)."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "challenges"

    def ready(self) -> None:
        from challenges import services
        from games.workers import clockwatch
        from notifications import texts
        from notifications.models import Kind

        # A challenge not answered in time is aborted.
        clockwatch.every_second(services.expire_challenges)
        # How its notifications read (made when read).
        texts.register(Kind.CHALLENGE, services.challenge_text)
        texts.register(Kind.CHALLENGE_DECLINED, services.declined_text)
