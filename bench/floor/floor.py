"""The floor: a bare Channels relay, what the game server's move path is measured against.

Each websocket at ``/ws/relay/<name>/`` joins the group ``relay.<name>`` and sends the
group whatever JSON it receives; every socket of the group gets it. Nothing else: no
database, no session, no rules. Served by daphne, on the game server's own channel
layer (``othello_site.settings.CHANNEL_LAYERS``: Redis with ``REDIS_URL``; in memory,
Channels' own ``InMemoryChannelLayer`` as a bare relay has it, where the server sweeps
less often), so that the two differ only in what the server does with a move.

    cd bench/floor && daphne -p 8100 floor:application    (bench/speed.py does it)
"""

from __future__ import annotations

from typing import Any

import django
from django.conf import settings

from othello_site.settings import CHANNEL_LAYERS

if CHANNEL_LAYERS["default"]["BACKEND"].endswith("InMemoryChannelLayer"):
    # Channels' own layer, as a bare relay has it (the server's sweeps for
    # expired messages once a second instead of at every call: othello_site.memory_layer).
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
settings.configure(CHANNEL_LAYERS=CHANNEL_LAYERS, ALLOWED_HOSTS=["*"], INSTALLED_APPS=[])
django.setup()

from channels.generic.websocket import AsyncJsonWebsocketConsumer  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.urls import path  # noqa: E402


class Relay(AsyncJsonWebsocketConsumer):
    async def connect(self) -> None:
        self.group = f"relay.{self.scope['url_route']['kwargs']['name']}"
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        await self.channel_layer.group_send(self.group, {"type": "relay", "content": content})

    async def relay(self, event: dict[str, Any]) -> None:
        await self.send_json(event["content"])


async def ok(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """``GET /``: 200, so that the benchmark's launcher sees the server up."""
    await receive()
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": b"floor"})


application = ProtocolTypeRouter(
    {
        "http": ok,
        "websocket": URLRouter([path("ws/relay/<str:name>/", Relay.as_asgi())]),
    }
)
