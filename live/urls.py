"""HTTP routes of a live game, in the games' namespace (``games:game``, ``games:join``...):
othello_site.urls mounts them with the games' own, so that every app links a game by
its address without knowing which app serves it."""

from django.urls import path

from live import views

urlpatterns = [
    path("games/<str:game_id>/", views.game_page, name="game"),
    path("games/<str:game_id>/join/", views.join, name="join"),
    path("games/<str:game_id>/abort/", views.abort, name="abort"),
    path("games/<str:game_id>/state.json", views.state_json, name="state"),
]
