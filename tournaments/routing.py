"""The game socket's route, mounted by othello_site.asgi: the games' consumer with the
tournaments' message (``tournaments.consumers``)."""

from django.urls import path

from tournaments.consumers import GameConsumer

websocket_urlpatterns = [
    path("ws/games/<str:game_id>/", GameConsumer.as_asgi()),
]
