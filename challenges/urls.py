"""HTTP routes of the challenges (mounted at the site root, before games' and players')."""

from django.urls import path

from challenges import views

app_name = "challenges"

urlpatterns = [
    path("players/<str:username>/challenge/", views.challenge, name="challenge"),
    path("games/<str:game_id>/decline/", views.decline, name="decline"),
    path("challenges.json", views.challenges_json, name="json"),
]
