"""HTTP routes of the game pages (mounted at the site root)."""

from django.urls import path

from games import views

app_name = "games"

urlpatterns = [
    path("", views.home, name="home"),
    path("games/new/", views.new_game, name="new"),
    path("games/<str:game_id>/", views.game_page, name="game"),
    path("games/<str:game_id>/join/", views.join, name="join"),
    path("games/<str:game_id>/state.json", views.state_json, name="state"),
    path("accounts/signup/", views.signup, name="signup"),
    path("accounts/games/", views.my_games, name="my_games"),
]
