"""The game socket's and the lobby socket's routes, mounted by othello_site.asgi: the
games' and pairing's consumers with the tournaments' messages (``tournaments.consumers``)."""

from django.urls import path

from tournaments.consumers import GameConsumer, LobbyConsumer

websocket_urlpatterns = [
    path("ws/games/<str:game_id>/", GameConsumer.as_asgi()),
    path("ws/lobby/", LobbyConsumer.as_asgi()),
]
