"""Pairing's websocket route (the lobby's), mounted by othello_site.asgi with the games'."""

from django.urls import path

from pairing.consumers import LobbyConsumer

websocket_urlpatterns = [
    path("ws/lobby/", LobbyConsumer.as_asgi()),
]
