"""ASGI entry point: HTTP through Django, websockets through Channels (``daphne`` serves it)."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "othello_site.settings")

# Set up Django (apps, models) before anything imports a consumer.
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.conf import settings  # noqa: E402

from accounts.middleware import SocketLanguage  # noqa: E402
from bots.middleware import TokenAuthMiddleware  # noqa: E402
from bots.routing import websocket_urlpatterns as bot_websockets  # noqa: E402
from games.workers import clockwatch  # noqa: E402
from live.routing import websocket_urlpatterns as live_websockets  # noqa: E402
from notifications import loop as outbox_loop  # noqa: E402
from notifications import site  # noqa: E402
from othello_site import body_limit, websocket_flow  # noqa: E402
from othello_site.origins import SameOriginValidator  # noqa: E402
from pairing import loop as pairing_loop  # noqa: E402
from puzzles import services as puzzles  # noqa: E402
from tournaments import loop as tournament_loop  # noqa: E402

# Fail at start-up, not on the first request, when DEBUG is off and SECRET_KEY is unset:
# Django raises ImproperlyConfigured on reading an empty key.
settings.SECRET_KEY  # noqa: B018

# The message limit and back-pressure, where daphne reads the frames.
websocket_flow.install()
# And the limit of a request's body, where daphne reads it.
body_limit.install()
# Every process watches the clocks (and writes its heartbeat) as soon as daphne serves; its
# engines mine the finished games for puzzles when nothing more urgent waits.
clockwatch.start_when_serving(idle_work=[puzzles.MINING])
# And one of them at a time pairs the seeks (pairing.loop).
pairing_loop.start_when_serving()
# And one of them at a time starts, pairs and finishes the tournaments (tournaments.loop).
tournament_loop.start_when_serving()
# Every process sends the notifications' deliveries it claims (notifications.loop).
outbox_loop.start_when_serving()
# A server without SITE_URL says so once: e-mails link to the requests' own addresses.
site.warn_when_serving()

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        # Only the site's own pages may open its sockets: Origin is scheme, host and port.
        "websocket": SameOriginValidator(
            # The socket's Origin, for the links of the e-mails its moves cause.
            site.SocketSite(
                AuthMiddlewareStack(
                    # The visitor's language for the consumer's words (accounts.middleware).
                    SocketLanguage(
                        # A Bearer token on the handshake acts as its account (a bad one:
                        # refused).
                        TokenAuthMiddleware(URLRouter([*bot_websockets, *live_websockets]))
                    )
                )
            )
        ),
    }
)
