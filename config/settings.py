"""Settings for both topologies, chosen by environment variables alone.

Embedded default (no variables): SQLite, in-memory channel layer, bot moves and
timeouts on in-process timers.  Production: ``DATABASE_URL`` (PostgreSQL),
``REDIS_URL`` (channels-redis and, unless ``CELERY_BROKER_URL`` says otherwise,
the Celery broker), with Celery worker and beat as separate processes.
"""

import os
import sys
from pathlib import Path

import dj_database_url
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


DEBUG = env_bool("DJANGO_DEBUG", default="DATABASE_URL" not in os.environ)
#: Production (a DATABASE_URL and DEBUG off) refuses to start without its own
#: secret key: the development key is public, in this file.
#: A pytest run (the production-topology half of ``make test`` included) is not
#: production: its processes get the development key unless one is given.
PRODUCTION = "DATABASE_URL" in os.environ and not DEBUG and "pytest" not in sys.modules
DEV_SECRET_KEY = "dev-only-insecure-key-change-me-in-production-0123456789"
SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "").strip()
if not SECRET_KEY:
    if PRODUCTION:
        from django.core.exceptions import ImproperlyConfigured

        raise ImproperlyConfigured(
            "DJANGO_SECRET_KEY is not set: production (DATABASE_URL set, DJANGO_DEBUG off) "
            "refuses to start with the public development key.  Set DJANGO_SECRET_KEY to a "
            "long random value (python -c 'import secrets; print(secrets.token_urlsafe(50))')."
        )
    SECRET_KEY = DEV_SECRET_KEY
ALLOWED_HOSTS = [h for h in os.environ.get("DJANGO_ALLOWED_HOSTS", "localhost,127.0.0.1,[::1],testserver").split(",") if h]
CSRF_TRUSTED_ORIGINS = [o for o in os.environ.get("DJANGO_CSRF_TRUSTED_ORIGINS", "").split(",") if o]
#: Addresses/networks of reverse proxies whose X-Forwarded-For is believed
#: (accounts.client_ip); empty: nobody's (daphne faces the clients directly).
TRUSTED_PROXIES = [p.strip() for p in os.environ.get("DJANGO_TRUSTED_PROXIES", "").split(",") if p.strip()]

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.humanize",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "channels",
    "django_htmx",
    "axes",
    "django_ratelimit",
    "accounts",
    "games",
    # one package per game (its GameSpec, templates, static files), found by
    # games.registry; this order is the site's (menus, lobby, profiles)
    "games.baohuang",
    "games.shengji",
    "ratings",
    "quickplay",
    "rules",
    "clubs",
    "notifications",
    "moderation",
]

MIDDLEWARE = [
    # a view's database outage error -> the 503 page (games/pages/outage.py)
    "games.pages.outage.DatabaseOutageMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "config.request_guard.InputGuardMiddleware",  # NUL or non-UTF-8 in a parameter: 400, not 500
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "axes.middleware.AxesMiddleware",
    "games.pages.throttle.PostRateLimitMiddleware",
]

ROOT_URLCONF = "config.urls"
TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
                "games.context_processors.game_links",
                "clubs.context_processors.my_event_tables",
            ],
        },
    },
    {
        # The live table fragment only (games/render/jinja.py): <app>/jinja2/ folders.
        "BACKEND": "django.template.backends.jinja2.Jinja2",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {"environment": "games.render.jinja.environment"},
    },
]
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

DATABASES = {
    "default": dj_database_url.config(default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}", conn_max_age=0)
}
#: PostgreSQL connections per process: Django's native psycopg pool.
#: A process never holds more than ``DB_POOL_MAX_SIZE`` connections, whatever its
#: threads (daphne runs each request's sync code in a thread of its own; with
#: ``CONN_MAX_AGE`` each such thread kept its connection).  A thread takes a
#: connection for a request, a task or a socket's read and gives it back at its
#: end; a thread that finds none free waits up to ``DB_POOL_TIMEOUT`` seconds,
#: then the request gets the 503 page (games.pages.outage).  Idle connections above
#: ``DB_POOL_MIN_SIZE`` close after ``DB_POOL_MAX_IDLE`` seconds.  Every
#: connection is checked when taken (``CONN_HEALTH_CHECKS``), so those broken by
#: a database restart are replaced, not handed out.  The site's connections are
#: at most (daphnes + beats) x DB_POOL_MAX_SIZE + per worker (concurrency + 1) x
#: (2 + GAMES_RUNNER_THREADS) (below), plus one per running management
#: command; keep that below PostgreSQL's max_connections
#: minus its superuser_reserved_connections and your other clients (README,
#: "Database connections").  ``DB_POOL_MAX_SIZE=0``: no pool, a connection per
#: request closed at its end (CONN_MAX_AGE=0).
DB_POOL_MIN_SIZE = int(os.environ.get("DB_POOL_MIN_SIZE", "1"))
DB_POOL_MAX_SIZE = int(os.environ.get("DB_POOL_MAX_SIZE", "8"))
DB_POOL_TIMEOUT = float(os.environ.get("DB_POOL_TIMEOUT", "5"))
DB_POOL_MAX_IDLE = float(os.environ.get("DB_POOL_MAX_IDLE", "30"))
#: Seconds a new PostgreSQL connection may take (libpq connect_timeout).
DB_CONNECT_TIMEOUT = int(os.environ.get("DB_CONNECT_TIMEOUT", "3"))
#: Server-side binding with prepared statements after this many runs of a
#: statement on a connection (psycopg's ``prepare_threshold``); ``off``: client-side
#: binding, nothing prepared (Django's default; needed behind a pooler in transaction
#: mode such as PgBouncer's, which does not keep a prepared statement's connection).
_prepare = os.environ.get("DB_PREPARE_THRESHOLD", "5").strip().lower()
DB_PREPARE_THRESHOLD = None if _prepare in ("", "off", "none") else int(_prepare)
#: Retry-After of the 503 page shown while the database is unavailable (games.pages.outage).
OUTAGE_RETRY_AFTER_S = int(os.environ.get("OUTAGE_RETRY_AFTER_S", "5"))
#: Seconds `/healthz` and `manage.py health` wait for a database connection.
DB_HEALTH_TIMEOUT = float(os.environ.get("DB_HEALTH_TIMEOUT", "2"))
#: A Celery worker takes no pool: Celery's Django fix-up closes a prefork
#: child's whole pool after every task, under the feet of the turn runner's
#: threads (games.runtime.runner).  A task thread's connection is closed by
#: the fix-up after each task; the runner's claiming thread and each of its turn
#: threads keep their own (DB_WORKER_CONN_MAX_AGE, below); a runner runs in each
#: prefork child (or in the main process of a solo pool), so a worker holds at
#: most (concurrency + 1) x (2 + GAMES_RUNNER_THREADS) connections.
IN_CELERY_WORKER = "worker" in sys.argv[1:] and any(
    Path(arg).name == "celery" or arg.endswith(f"celery{os.sep}__main__.py") for arg in sys.argv[:1]
)
_argv0 = Path(sys.argv[0]).name if sys.argv else ""
#: Seconds a worker thread keeps its PostgreSQL connection between turns.  The
#: worker's turn runner threads (games.runtime.runner) commit most moves; with
#: a connection per turn (CONN_MAX_AGE 0) each move paid for a new backend:
#: PostgreSQL's fork and authentication plus Django's connection set-up, about
#: 30 ms of CPU per move across the worker and the cluster, which cut N = 100 of
#: ``make bench`` to 28 % served (docs/performance.md, "Connections per move").
#: Celery's Django fix-up still closes a task thread's connection after each task;
#: the bound (concurrency + 1) x (2 + GAMES_RUNNER_THREADS) is unchanged.
DB_WORKER_CONN_MAX_AGE = int(os.environ.get("DB_WORKER_CONN_MAX_AGE", "300"))
#: What this process is called in PostgreSQL's pg_stat_activity (application_name):
#: cardroom-web (daphne), cardroom-worker, cardroom-beat, cardroom-manage, cardroom.
DB_APPLICATION_NAME = os.environ.get("DB_APPLICATION_NAME") or (
    "cardroom-worker" if IN_CELERY_WORKER
    else "cardroom-web" if _argv0 == "daphne" or sys.argv[0].endswith(f"daphne{os.sep}__main__.py")
    else "cardroom-beat" if "beat" in sys.argv[1:] and "celery" in sys.argv[0]
    else "cardroom-manage" if _argv0 == "manage.py"
    else "cardroom"
)
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # A pooled process hands its connection back to the pool at the end of each
    # request (CONN_MAX_AGE 0).  A worker has no pool (below): its threads keep
    # their connection for DB_WORKER_CONN_MAX_AGE seconds, checked before reuse.
    DATABASES["default"]["CONN_MAX_AGE"] = DB_WORKER_CONN_MAX_AGE if IN_CELERY_WORKER else 0
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
    _pg_options = DATABASES["default"].setdefault("OPTIONS", {})
    _pg_options.setdefault("connect_timeout", DB_CONNECT_TIMEOUT)
    _pg_options.setdefault("application_name", DB_APPLICATION_NAME)
    if DB_PREPARE_THRESHOLD is not None:
        # psycopg binds the parameters on the server and, once a statement has
        # run DB_PREPARE_THRESHOLD times on a connection, prepares it there:
        # PostgreSQL then skips parsing and planning the move's statements.
        _pg_options.setdefault("server_side_binding", True)
        _pg_options.setdefault("prepare_threshold", DB_PREPARE_THRESHOLD)
    if DB_POOL_MAX_SIZE > 0 and not IN_CELERY_WORKER:
        from games.pages import pool_returns as _pool_returns

        _pg_options["pool"] = {
            "min_size": min(DB_POOL_MIN_SIZE, DB_POOL_MAX_SIZE),
            "max_size": DB_POOL_MAX_SIZE,
            "timeout": DB_POOL_TIMEOUT,
            "max_idle": DB_POOL_MAX_IDLE,
            "name": "cardroom",
            # counts the connections given back in working order: /healthz tells
            # a busy pool from a stuck one by it (games/pages/pool_returns.py)
            "reset": _pool_returns.returned,
        }
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Several threads (timers, websocket consumers) write: wait instead of
    # failing, take the write lock when a transaction starts (no lock-upgrade
    # deadlocks between two readers), and use the write-ahead log so readers
    # never block the writer.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "timeout": 20,
            "transaction_mode": "IMMEDIATE",
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        }
    )
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    # Tests use a database file too, not SQLite's shared-cache memory database:
    # there, a read from another thread (the live snapshot pool, timers) during
    # a write fails at once with "database table is locked" instead of waiting.
    # One file per test process (tmp/test-db-<pid>.sqlite3): two pytest runs in
    # one checkout (make test runs two at once) would otherwise delete and
    # recreate each other's database under them.  Django removes the file when
    # the run ends; conftest removes its -wal/-shm companions.
    DATABASES["default"]["TEST"] = {"NAME": str(BASE_DIR / "tmp" / f"test-db-{os.getpid()}.sqlite3")}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
    # per-object permissions (clubs: organiser of THIS club), see clubs/rules.py
    "rules.permissions.ObjectPermissionBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    # no MinimumLengthValidator: NonBlankLengthValidator (below) asks for 8
    # characters that are not blank, which includes 8 characters; with both,
    # sign-up stated the length rule twice
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
    {"NAME": "accounts.validators.NonBlankLengthValidator"},
]
# Mail (password reset): the console unless a real backend is configured.
EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "noreply@localhost")
#: The site's address in e-mails and calendar feeds (links must be absolute there).
SITE_URL = os.environ.get("SITE_URL", "http://localhost:8000")
#: Web Push of notifications (pywebpush): off unless both VAPID keys are
#: given (private: PEM or base64url; public: base64url, the browser's applicationServerKey).
WEBPUSH_VAPID_PRIVATE_KEY = os.environ.get("WEBPUSH_VAPID_PRIVATE_KEY", "")
WEBPUSH_VAPID_PUBLIC_KEY = os.environ.get("WEBPUSH_VAPID_PUBLIC_KEY", "")
WEBPUSH_VAPID_SUBJECT = os.environ.get("WEBPUSH_VAPID_SUBJECT", "mailto:admin@localhost")

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "lobby"
LOGOUT_REDIRECT_URL = "lobby"

# django-axes: lock an account+IP pair after 5 failures for 15 minutes.
AXES_FAILURE_LIMIT = int(os.environ.get("AXES_FAILURE_LIMIT", "5"))
AXES_COOLOFF_TIME = 0.25  # hours
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "accounts/lockout.html"  # friendly page, HTTP 429
# The IP half of the lockout key: X-Forwarded-For only from TRUSTED_PROXIES.
AXES_CLIENT_IP_CALLABLE = "accounts.client_ip.client_ip"
# The username half, cut to a username's length (a longer one overflowed axes' column).
AXES_USERNAME_CALLABLE = "accounts.lockout.axes_username"

# django-ratelimit (games.pages.throttle): POSTs per user (or per IP when anonymous)
# and rooms created per user; open rooms per owner are capped by the services.
RATE_POSTS = os.environ.get("GAMES_RATE_POSTS", "120/m")
RATE_ROOM_CREATE = os.environ.get("GAMES_RATE_ROOM_CREATE", "5/m")
GAMES_MAX_OPEN_ROOMS = int(os.environ.get("GAMES_MAX_OPEN_ROOMS", "5"))
RATELIMIT_FAIL_OPEN = True

LANGUAGE_CODE = "zh-hans"
LANGUAGES = [("zh-hans", _("简体中文")), ("zh-hant", _("繁體中文")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = os.environ.get("TIME_ZONE", "Asia/Shanghai")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"
        if not DEBUG
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}

REDIS_URL = os.environ.get("REDIS_URL")
#: Redis client settings shared by the channel layer and the cache.
#: redis-py >= 6 defaults to a 5 s socket timeout, the same as channels-redis'
#: blocking receive (BZPOPMIN with a 5 s timeout): an idle socket's receive
#: then timed out and daphne closed it with 1011 (django/channels_redis#422).
#: The read timeout here is longer than any blocking command we send; a dead
#: Redis is still noticed (connect timeout, TCP keepalive, health checks).
#: redis-py 8 also caps a pool at 100 connections and *raises* past it; 300
#: sockets connecting at once need more than that.
REDIS_CLIENT_OPTIONS = {
    "socket_timeout": float(os.environ.get("REDIS_SOCKET_TIMEOUT", "30")),
    "socket_connect_timeout": 5.0,
    "socket_keepalive": True,
    "health_check_interval": 15,
    "retry_on_timeout": True,
    "max_connections": int(os.environ.get("REDIS_MAX_CONNECTIONS", "2000")),
}
#: The channel layer over Redis: ``pubsub`` (default), channels-redis'
#: pub/sub layer: a group message is one PUBLISH, received by each process's one
#: subscription (about 0.4 ms of CPU per message sent and received, against 1.7
#: for ``core``, the sorted-set layer with its Lua scripts and BZPOPMIN).  Nothing
#: is queued for a process that is not listening; a table socket only ever needs
#: the newest version, which the next change or a reconnect brings.
CHANNEL_LAYER_KIND = os.environ.get("GAMES_CHANNEL_LAYER", "pubsub")
_LAYER_BACKENDS = {
    "pubsub": "channels_redis.pubsub.RedisPubSubChannelLayer",
    "core": "channels_redis.core.RedisChannelLayer",
}
if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": _LAYER_BACKENDS[CHANNEL_LAYER_KIND],
            "CONFIG": {"hosts": [{"address": REDIS_URL, **REDIS_CLIENT_OPTIONS}]},
        }
    }
    # Rate-limit counters (games.pages.throttle) shared by every process.
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "OPTIONS": {"socket_timeout": 2.0, "socket_connect_timeout": 2.0},
            # Sites (or test runs) sharing one Redis database keep their counters apart.
            "KEY_PREFIX": os.environ.get("CACHE_KEY_PREFIX", ""),
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    # One process in the embedded topology: its memory is the shared cache.
    SILENCED_SYSTEM_CHECKS = ["django_ratelimit.E003", "django_ratelimit.W001"]

#: Seconds between the end of a hand and the next deal (the result panel);
#: a shorter pause for bot-only demos and tests (``manage.py run_event``).
GAMES_HAND_PAUSE_S = float(os.environ.get("GAMES_HAND_PAUSE_S", "6"))
#: Thinking time of the search bot (高手) per decision, milliseconds; it answers
#: within about this plus 50 ms and uses fewer play-outs on a loaded machine.
GAMES_SEARCH_BUDGET_MS = float(os.environ.get("GAMES_SEARCH_BUDGET_MS", "300"))
# Hand review: a cap on the CPU ms of a hand's review (a runaway guard; the
# budget is GAMES_REVIEW_WORLDS); a hand with a human is reviewed when it ends.
GAMES_REVIEW_BUDGET_MS = float(os.environ.get("GAMES_REVIEW_BUDGET_MS", "60000"))
GAMES_REVIEW_AFTER_HAND = os.environ.get("GAMES_REVIEW_AFTER_HAND", "1") == "1"
#: Worlds per unforced decision of a review: its budget (docs/review.md; the
#: verdicts depend on it, not on the machine's speed; fewer than 4 never flag).
GAMES_REVIEW_WORLDS = int(os.environ.get("GAMES_REVIEW_WORLDS", "32"))
#: The review governor (games/runtime/governor.py): a review runs only while the
#: other processes use less than this share of all CPUs (0-1); "off" lets it run
#: whenever the review worker gets the CPU.
GAMES_REVIEW_IDLE_BELOW = os.environ.get("GAMES_REVIEW_IDLE_BELOW", "0.25")
#: Seconds a review may wait for an idle machine in all; then it goes to the back
#: of its queue (RabbitMQ drops a delivery unacknowledged for 30 min).
GAMES_REVIEW_MAX_PAUSE_S = float(os.environ.get("GAMES_REVIEW_MAX_PAUSE_S", "600"))
#: The bots' pace at quick-play tables (ms; the rooms' default; shorter for demos and tests).
QUICKPLAY_BOT_DELAY_MS = int(os.environ.get("QUICKPLAY_BOT_DELAY_MS", "800"))

#: The Celery broker: RabbitMQ in production
#: (``CELERY_BROKER_URL=amqp://user:pass@host:5672/vhost``), the transport Celery
#: documents as production grade: the worker rides out a Redis outage (Redis is
#: then only the channel layer and the cache) and reconnects to RabbitMQ by
#: itself.  Without it the broker is Redis (``REDIS_URL``), whose transport
#: with the pinned kombu 5.7.0 + redis 8.1.0 makes the worker exit when Redis
#: drops (kombu's restore_unacked_once); supervisord then restarts it.
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL") or REDIS_URL
#: Sites (or test stacks) sharing one RabbitMQ virtual host keep their tasks and
#: their control messages (worker pings) apart: the queue, control and event
#: exchanges take this name (default: Celery's own, ``celery``).
CELERY_NAMESPACE = os.environ.get("CELERY_NAMESPACE", "").strip()
if CELERY_NAMESPACE:
    CELERY_TASK_DEFAULT_QUEUE = CELERY_NAMESPACE
    CELERY_CONTROL_EXCHANGE = CELERY_NAMESPACE
    CELERY_EVENT_EXCHANGE = f"{CELERY_NAMESPACE}.ev"
#: The queue of hand reviews, under the namespace like every other name, so two
#: sites on one virtual host never take each other's reviews.  Only the review
#: worker (``CARDROOM_WORKER_ROLE=reviews``, config/celery.py) consumes it.
GAMES_REVIEW_QUEUE = f"{CELERY_NAMESPACE}.reviews" if CELERY_NAMESPACE else "reviews"
CELERY_TASK_ROUTES = {"games.tasks.review_hand": {"queue": GAMES_REVIEW_QUEUE}}
BROKER_IS_REDIS = bool(CELERY_BROKER_URL) and CELERY_BROKER_URL.split(":", 1)[0] in {"redis", "rediss"}
#: True when no broker is configured: bot turns and timeouts then run on
#: in-process timers (games.runtime.scheduling) inside the web process.
GAMES_INPROCESS_TASKS = not CELERY_BROKER_URL
CELERY_TASK_ALWAYS_EAGER = GAMES_INPROCESS_TASKS
# acks_late + reject on worker loss: a task whose worker died is delivered
# again (turns are no tasks: games.runtime.runner claims them in the database).
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TIMEZONE = TIME_ZONE
# Reconnect to the broker for ever, at start-up too (the worker died
# for good when Redis dropped).  A supervisor restarts it if it exits anyway.
CELERY_BROKER_CONNECTION_RETRY = True
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS = True
# An unacknowledged task (its worker was killed) is redelivered after this
# long.  No table depends on a task: deadlines live in the database and the
# turn runners (games.runtime.runner) claim them there.
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": int(os.environ.get("CELERY_VISIBILITY_TIMEOUT", "60")),
    "socket_timeout": 10.0,
    "socket_connect_timeout": 5.0,
    "socket_keepalive": True,
    "health_check_interval": 15,
    "retry_on_timeout": True,
} if BROKER_IS_REDIS else {}
#: RabbitMQ redelivers a dead worker's unacknowledged task as soon as its
#: connection closes (no visibility timeout); a publisher confirms each send.
if CELERY_BROKER_URL and not BROKER_IS_REDIS:
    CELERY_BROKER_TRANSPORT_OPTIONS = {"confirm_publish": True}
CELERY_BROKER_HEARTBEAT = 10
CELERY_TASK_PUBLISH_RETRY = True
CELERY_TASK_PUBLISH_RETRY_POLICY = {"max_retries": 2, "interval_start": 0, "interval_step": 0.5}
CELERY_BEAT_SCHEDULE = {
    "sweep-deadlines": {"task": "games.tasks.sweep_deadlines", "schedule": 2.0},
    "sweep-rounds": {"task": "clubs.tasks.sweep_rounds", "schedule": 2.0},
    "quickplay-pass": {"task": "quickplay.tasks.matchmake_all", "schedule": 1.0},
}
#: The turn runner (games.runtime.runner): turn threads per process (each
#: prefork child of a Celery worker, or its main process with a solo pool, or
#: the embedded web process), the longest
#: sleep between two claims (a deadline set in another process, e.g. a
#: player's move committed by daphne, waits at most this long; the process's
#: own deadlines are exact, and in the embedded topology every deadline is the
#: process's own, so it polls rarely), and the lease of a claim (a killed
#: runner's tables resume after it).
GAMES_RUNNER_THREADS = int(os.environ.get("GAMES_RUNNER_THREADS", "4"))
GAMES_RUNNER_POLL_S = float(os.environ.get("GAMES_RUNNER_POLL_S", "2" if GAMES_INPROCESS_TASKS else "0.2"))
GAMES_RUNNER_LEASE_S = float(os.environ.get("GAMES_RUNNER_LEASE_S", "15"))
#: Longest window of a hidden decision (games.services.hidden): every holder, human or
#: bot, gets min(time limit, this) seconds and it takes effect at the deadline.
GAMES_HIDDEN_DECISION_S = float(os.environ.get("GAMES_HIDDEN_DECISION_S", "10"))

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
    # Django's own default gives the "django" logger a console handler of its own
    # (when DEBUG) *and* lets its records propagate to the root's: every line of
    # `make run` (requests, "Not Found: …") was printed twice.  One handler, the
    # root's; no ADMINS are configured, so Django's mail_admins had nothing to do.
    "loggers": {"django": {"handlers": [], "level": "INFO", "propagate": True}},
}
