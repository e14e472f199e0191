"""URLs: the game pages at the root, the players' pages, the admin, and Django's account
views."""

from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/", include("django.contrib.auth.urls")),
    # Before games' routes: bots.urls holds /games/<id>/decline/ and /players/bots/
    # (before the players' /players/<username>/).
    path("", include("bots.urls")),
    path("players/", include("players.urls")),
    path("", include("games.urls")),
]
