"""ASGI entry point: HTTP through Django, websockets through Channels.

Websockets are wrapped in SameOriginValidator (config.ws_origin: a socket whose
Origin is not this host *and port*, or a trusted origin, is refused) and AuthMiddlewareStack (the session's user is known).
"""

import os

from config.gc_tuning import tune as tune_gc

# the collector's thresholds for a web process's many short-lived objects (config.gc_tuning)
tune_gc()

from django.core.asgi import get_asgi_application  # noqa: E402

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from clubs.live.routing import websocket_urlpatterns as club_sockets  # noqa: E402
from clubs.running.rounds import ensure_round_sweeper  # noqa: E402
from config.ws_deflate import install as install_ws_deflate  # noqa: E402
from config.ws_origin import SameOriginValidator  # noqa: E402
from games.live.routing import websocket_urlpatterns  # noqa: E402
from quickplay.routing import websocket_urlpatterns as quickplay_websockets  # noqa: E402
from games.runtime.runner import ensure_started as ensure_turn_runner  # noqa: E402
from notifications.routing import websocket_urlpatterns as notice_sockets  # noqa: E402

# Embedded topology: the turn runner runs inside this process; start it with
# the server so an overdue table resumes after a restart without a visitor.
# (In the production topology this returns at once: the Celery workers run it.)
ensure_turn_runner()
ensure_round_sweeper()
# permessage-deflate on the sockets daphne serves (GAMES_WS_DEFLATE=0: off)
install_ws_deflate()

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": SameOriginValidator(
            AuthMiddlewareStack(URLRouter(websocket_urlpatterns + club_sockets + quickplay_websockets + notice_sockets))
        ),
    }
)
