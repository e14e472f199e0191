"""Admin screen of accounts' own facts (Django's user admin holds the rest), and the
admin's login, limited as the site's (``accounts.adapter``): its failures count with the
site's login form's, for the same pair of address and username."""

from typing import Any

from allauth.account.adapter import get_adapter
from django.contrib import admin
from django.contrib.admin.forms import AdminAuthenticationForm

from accounts.models import Account


@admin.register(Account)
class AccountAdmin(admin.ModelAdmin):
    list_display = ("user", "is_bot", "bot_since", "engine", "muted_until", "muted_for_good")
    list_filter = ("is_bot", "engine", "muted_for_good")
    search_fields = ("user__username",)
    # Staff change an account's standing at the moderation desk, where it is logged.
    readonly_fields = ("user", "is_bot", "bot_since", "engine", "muted_until", "muted_for_good")


class LimitedAdminLoginForm(AdminAuthenticationForm):
    """The admin's login form, authenticating through django-allauth's adapter, which
    counts the failures and refuses a locked pair or address (the form says so)."""

    def clean(self) -> dict[str, Any]:
        username = self.cleaned_data.get("username")
        password = self.cleaned_data.get("password")
        if username is not None and password:
            self.user_cache = get_adapter(self.request).authenticate(
                self.request, username=username, password=password
            )
            if self.user_cache is None:
                raise self.get_invalid_login_error()
            self.confirm_login_allowed(self.user_cache)
        return self.cleaned_data


admin.site.login_form = LimitedAdminLoginForm
