"""``GET /healthz``: the web process's health for a load balancer.

200 ``{"ok": true, "checks": [...], "pool": {...} or null}`` when the database
(a connection from this process's pool within ``DB_HEALTH_TIMEOUT`` s) and, in
the production topology, Redis answer; 503 otherwise.  ``pool`` is
:func:`games.pages.health.pool_state`.  No login, no session, no
database write; see :mod:`games.pages.health`.
"""

from django.http import JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from games.pages import health


@never_cache
@require_GET
def healthz(request):
    results = health.check_web()
    ok = all(r[0] for r in results)
    body = {"ok": ok, "checks": [d for _, d in results], "pool": health.pool_state()}
    return JsonResponse(body, status=200 if ok else 503)
