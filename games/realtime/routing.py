"""Websocket routes, mounted by othello_site.asgi behind the origin and auth middleware."""

from django.urls import path

from games.realtime.consumers import GameConsumer

websocket_urlpatterns = [
    path("ws/games/<str:game_id>/", GameConsumer.as_asgi()),
]
