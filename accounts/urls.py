"""HTTP routes of accounts (mounted under /accounts/, beside Django's auth views)."""

from django.urls import path

from accounts import preference_views, views

app_name = "accounts"

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("settings/", preference_views.game_settings, name="settings"),
]
