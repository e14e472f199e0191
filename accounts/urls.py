"""HTTP routes of accounts (mounted under /accounts/): the site's own, named in the
``accounts`` namespace; ``accounts.auth_urls`` holds the log-in and password routes
under the names Django and django-allauth reverse."""

from django.urls import path

from accounts import preference_views, views

app_name = "accounts"

urlpatterns = [
    path("signup/", views.SignupView.as_view(), name="signup"),
    path("email/verify/", views.send_verification, name="send_verification"),
    path("settings/", preference_views.game_settings, name="settings"),
]
