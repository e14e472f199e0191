"""HTTP routes of the bots (mounted at the site root, before games' and players')."""

from django.urls import path

from bots import views

app_name = "bots"

urlpatterns = [
    path("account/tokens/", views.tokens, name="tokens"),
    # Before players/<username>/ (the players app), which would take "bots" for a name.
    path("players/bots/", views.bots_online, name="online"),
]
