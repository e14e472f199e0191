from django.apps import AppConfig


class AccountsConfig(AppConfig):
    """Who a player is: the request's Player, guests and their names, sign-up and log-in
    (django-allauth), the session every visitor gets, and what every app above asks of an
    account (a bot or not, the address it may be mailed at)."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "accounts"

    def ready(self) -> None:
        from django.contrib.auth import get_user_model
        from django.contrib.auth.signals import user_logged_in
        from django.db.models.signals import post_save

        from accounts import guests, languages, services

        # A guest who logs in or signs up keeps what it did as a guest (accounts.signals);
        # an account's language follows it to the browser it logs in with.
        user_logged_in.connect(guests.logged_in, dispatch_uid="accounts.guests.logged_in")
        user_logged_in.connect(languages.logged_in, dispatch_uid="accounts.languages.logged_in")
        # What a username looks like, kept beside it: a guest's name or a new username is
        # compared with every account's in one indexed lookup (accounts.selectors).
        post_save.connect(
            services.keep_skeleton,
            sender=get_user_model(),
            dispatch_uid="accounts.services.keep_skeleton",
        )
