"""The log-in, sign-up and password routes under /accounts/, without a namespace: the
site's templates name them as Django's own (``login``, ``password_reset`` ...), and
django-allauth reverses its own names (``account_login``, ``account_confirm_email``
...), so a route that both name is listed under each. Logging out and changing a
password are Django's own views."""

from django.contrib.auth import views as django_views
from django.urls import path, re_path

from accounts import views

login = views.LoginView.as_view()
signup = views.SignupView.as_view()
reset = views.PasswordResetView.as_view()
reset_done = views.PasswordResetDoneView.as_view()

urlpatterns = [
    path("login/", login, name="login"),
    path("login/", login, name="account_login"),
    path("signup/", signup, name="account_signup"),
    path("logout/", django_views.LogoutView.as_view(), name="logout"),
    path("password_change/", django_views.PasswordChangeView.as_view(), name="password_change"),
    path(
        "password_change/done/",
        django_views.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
    path("password_reset/", reset, name="password_reset"),
    path("password_reset/", reset, name="account_reset_password"),
    path("password_reset/done/", reset_done, name="password_reset_done"),
    path("password_reset/done/", reset_done, name="account_reset_password_done"),
    path(
        "password/reset/key/done/",
        views.PasswordResetFromKeyDoneView.as_view(),
        name="account_reset_password_from_key_done",
    ),
    re_path(
        r"^password/reset/key/(?P<uidb36>[0-9A-Za-z]+)-(?P<key>.+)/$",
        views.PasswordResetFromKeyView.as_view(),
        name="account_reset_password_from_key",
    ),
    re_path(
        r"^confirm-email/(?P<key>[-:\w]+)/$",
        views.ConfirmEmailView.as_view(),
        name="account_confirm_email",
    ),
]
