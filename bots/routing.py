"""The bots' websocket route, mounted by othello_site.asgi with the games' routes."""

from django.urls import path

from bots.consumers import BotConsumer

websocket_urlpatterns = [path("ws/bot/", BotConsumer.as_asgi())]
