"""The live game's sockets, mounted by othello_site.asgi:

- ``ws/games/<id>/``: the game socket (``consumers.GameConsumer``);
- ``ws/lobby/``: the lobby socket (``consumers.LobbyConsumer``: pairing's, with the
  tournaments' chat and ``game_ready``).
"""

from django.urls import path

from live.consumers import GameConsumer, LobbyConsumer

websocket_urlpatterns = [
    path("ws/games/<str:game_id>/", GameConsumer.as_asgi()),
    path("ws/lobby/", LobbyConsumer.as_asgi()),
]
