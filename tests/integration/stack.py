"""Real, separate processes of either topology, for integration tests and benchmarks.

:class:`LiveStack` owns one site: its own database (a fresh PostgreSQL database
``cardroom_it_<random>``, or a temporary SQLite file for the embedded topology),
a copy of a template that a ``manage.py migrate`` subprocess migrated once per
test process (a database the caller names is migrated itself), then

* one or more ``daphne`` processes on free loopback ports,
* in the production topology a ``celery -A config worker`` and exactly one
  ``celery -A config beat`` against Redis,

each in its own process group with its output in a log file under ``workdir``.
Every wait is bounded; :meth:`LiveStack.close` stops everything (SIGTERM, then
SIGKILL) and drops the database.  Nothing here imports Django: the processes
are configured only through the environment, as in production::

    stack = LiveStack.production(tmp_path)   # or LiveStack.embedded(tmp_path)
    try:
        stack.start()
        ... stack.web_url, stack.ws_url("ws/rooms/1/"), stack.ops("seed_room", ...)
    finally:
        stack.close()
"""

from __future__ import annotations

import atexit
import json
import os
import secrets
import select
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

REPO = Path(__file__).resolve().parents[2]
#: Where CREATE/DROP DATABASE are issued (trust auth on the CI machine).
PG_ADMIN_URL = os.environ.get("PG_ADMIN_URL", "postgresql://postgres@127.0.0.1:5432/postgres")
PG_BASE_URL = os.environ.get("PG_BASE_URL", "postgres://postgres@127.0.0.1:5432")
DEFAULT_REDIS = "redis://127.0.0.1:6379/9"
#: Variables of the parent that must not leak into a stack's processes.
TOPOLOGY_VARS = ("DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL", "DJANGO_DEBUG",
                 "DJANGO_ALLOWED_HOSTS", "DJANGO_SECRET_KEY", "PYTEST_CURRENT_TEST",
                 "PYTEST_XDIST_WORKER", "PYTEST_ADDOPTS")


#: HTTP to the stack goes straight to loopback, whatever *_proxy variables say.
HTTP = urllib.request.build_opener(urllib.request.ProxyHandler({}))


class StackError(RuntimeError):
    """A process of the stack failed to start, become ready or stop in time."""


def free_port() -> int:
    """A TCP port free on 127.0.0.1 right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def stack_redis_url(parent: str | None) -> str:
    """The Redis URL for a stack started from a process using ``parent``:
    same server, database index + 8 (mod 16), so that tasks queued by the test
    process's own (in-process) tests never reach the stack's worker."""
    if not parent:
        return DEFAULT_REDIS
    parts = urlsplit(parent)
    try:
        index = int(parts.path.strip("/") or 0)
    except ValueError:
        index = 0
    return urlunsplit(parts._replace(path=f"/{(index + 8) % 16}"))


#: Where the stacks look for RabbitMQ (the production broker)
#: unless ``AMQP_URL`` says otherwise.
DEFAULT_AMQP_URL = "amqp://guest:guest@127.0.0.1:5672//"


def amqp_url() -> str:
    return os.environ.get("AMQP_URL", DEFAULT_AMQP_URL)


def amqp_answers(url: str, timeout: float = 3.0) -> bool:
    """True when RabbitMQ at ``url`` accepts a login within ``timeout`` s."""
    try:
        from kombu import Connection

        with Connection(url, connect_timeout=timeout) as conn:
            conn.ensure_connection(max_retries=1, timeout=timeout)
        return True
    except Exception:
        return False


def stack_broker_url() -> str | None:
    """The broker of a production stack: ``STACK_BROKER`` ``amqp`` (RabbitMQ at
    ``AMQP_URL``, required), ``redis`` (the stack's Redis), or ``auto`` (the
    default: RabbitMQ when it answers, else Redis, e.g. on a machine with
    throwaway servers only).  None means Redis."""
    choice = os.environ.get("STACK_BROKER", "auto")
    if choice == "redis":
        return None
    if choice == "amqp" or amqp_answers(amqp_url()):
        return amqp_url()
    return None


def purge_namespace(broker_url: str, namespace: str) -> None:
    """Delete a stack's queue from a shared RabbitMQ (best effort)."""
    try:
        from kombu import Connection

        with Connection(broker_url, connect_timeout=3) as conn:
            channel = conn.channel()
            channel.queue_delete(namespace)
            channel.exchange_delete(namespace)
    except Exception:
        pass


def wait_until(predicate, timeout: float, what: str, interval: float = 0.2, check=None):
    """Call ``predicate()`` until it returns a truthy value (returned) or
    ``timeout`` seconds pass (:class:`StackError`).  ``check()`` runs before
    each try and may raise to fail fast (e.g. a process that died)."""
    deadline = time.monotonic() + timeout
    while True:
        if check is not None:
            check()
        value = predicate()
        if value:
            return value
        if time.monotonic() >= deadline:
            raise StackError(f"timed out after {timeout:.0f}s waiting for {what}")
        time.sleep(interval)


#: Debian's nginx (package nginx-light), for :meth:`LiveStack.add_proxy`.
NGINX = shutil.which("nginx") or ("/usr/sbin/nginx" if os.path.exists("/usr/sbin/nginx") else None)


def nginx_conf(run_dir: Path, listen: str, upstreams: list[str]) -> str:
    """``deploy/nginx.conf`` with its placeholders filled in: ``run_dir`` for
    its pid, log and temp files, ``listen`` (``host:port``), one ``server``
    line per daphne address of ``upstreams``."""
    servers = "\n".join(f"        server {u};" for u in upstreams)
    text = (REPO / "deploy" / "nginx.conf").read_text()
    for name, value in {"@RUN_DIR@": str(run_dir), "@LISTEN@": listen, "@SERVERS@": servers}.items():
        if name not in text:
            raise StackError(f"deploy/nginx.conf lost its {name} placeholder")
        text = text.replace(name, value)
    return text


@dataclass
class Proc:
    """One long-running child process with its log file."""

    name: str
    args: list[str]
    env: dict
    log_path: Path
    popen: subprocess.Popen | None = None
    starts: int = 0

    def start(self) -> None:
        self.starts += 1
        with open(self.log_path, "ab") as log:
            log.write(f"\n===== start #{self.starts}: {' '.join(self.args)}\n".encode())
            log.flush()
            self.popen = subprocess.Popen(
                self.args, cwd=REPO, env=self.env, stdin=subprocess.DEVNULL,
                stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
            )

    @property
    def alive(self) -> bool:
        return self.popen is not None and self.popen.poll() is None

    def ensure_alive(self) -> None:
        if self.popen is not None and self.popen.poll() is not None:
            raise StackError(
                f"{self.name} exited with status {self.popen.returncode}:\n{self.tail(60)}"
            )

    def send(self, sig: int) -> None:
        if self.alive:
            try:
                os.killpg(self.popen.pid, sig)
            except ProcessLookupError:
                pass

    def stop(self, sig: int = signal.SIGTERM, timeout: float = 20.0) -> int | None:
        """Send ``sig`` to the process group, wait up to ``timeout`` s, then SIGKILL."""
        if self.popen is None:
            return None
        self.send(sig)
        try:
            self.popen.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.send(signal.SIGKILL)
            self.popen.wait(timeout=10)
        return self.popen.returncode

    def log_text(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")
        except FileNotFoundError:
            return ""

    def tail(self, lines: int = 80) -> str:
        return "\n".join(self.log_text().splitlines()[-lines:])


#: This process's migrated templates: "postgres" → a database name, "sqlite" → a file.
_TEMPLATES: dict = {}


def _pg_admin(statement: str) -> None:
    """Run one statement (CREATE/DROP DATABASE) at ``PG_ADMIN_URL``."""
    import psycopg

    with psycopg.connect(PG_ADMIN_URL, autocommit=True, connect_timeout=10) as conn:
        conn.execute(statement)


def _drop_template(name: str) -> None:
    """At exit: drop a template database (best effort)."""
    try:
        _pg_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    except Exception:
        pass


class OpsServer:
    """One ``python -m tests.integration.ops --serve`` process with a stack's
    environment: :meth:`call` sends it an op and waits for the answer.  A
    process per op set Django up each time (about 1.4 s of CPU; the browser and
    integration tests run a few hundred ops a CI run).  The server keeps what
    the one-shot process gave: a separate process, no database connection or
    local cache between ops, the op's notifications sent before its answer
    (:func:`tests.integration.ops.serve`).  Calls from several threads wait
    their turn."""

    def __init__(self, env: dict, log_path: Path):
        self.env = env
        self.log_path = log_path
        self.lock = threading.Lock()
        self.popen: subprocess.Popen | None = None

    def _start(self) -> subprocess.Popen:
        with open(self.log_path, "ab") as log:
            return subprocess.Popen(
                [sys.executable, "-m", "tests.integration.ops", "--serve"], cwd=REPO, env=self.env,
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log, text=True, bufsize=1)

    def _log_tail(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")[-5000:]
        except FileNotFoundError:
            return ""

    def call(self, op: str, params: dict, timeout: float) -> dict:
        """The answer of ``op`` (its JSON result); :class:`StackError` when the
        op raised (its traceback) or the server died, ``subprocess.TimeoutExpired``
        after ``timeout`` s (the server is killed: the next call starts another)."""
        with self.lock:
            if self.popen is None or self.popen.poll() is not None:
                self.popen = self._start()
            proc = self.popen
            try:
                proc.stdin.write(json.dumps({"op": op, "params": params}) + "\n")
                proc.stdin.flush()
            except OSError as exc:
                self.close()
                raise StackError(f"ops server gone before {op}: {exc}\n{self._log_tail()}") from exc
            ready, _, _ = select.select([proc.stdout], [], [], timeout)
            line = proc.stdout.readline() if ready else None
            if line is None:
                self.close()
                raise subprocess.TimeoutExpired(["ops", op], timeout)
            if not line:
                self.close()
                raise StackError(f"ops server exited during {op}:\n{self._log_tail()}")
        reply = json.loads(line)
        if "error" in reply:
            raise StackError(f"ops {op} failed:\n{reply['error'][-5000:]}")
        return reply["result"]

    def close(self) -> None:
        """End the server (its input closed, then SIGKILL after 10 s)."""
        proc, self.popen = self.popen, None
        if proc is None:
            return
        try:
            proc.stdin.close()
        except OSError:
            pass
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)
        proc.stdout.close()


@dataclass
class LiveStack:
    """A whole site in separate processes; see the module docstring.

    ``database_url`` None means "create a fresh PostgreSQL database";
    ``redis_url`` None means the embedded topology (no worker, no beat: the
    web process runs bot turns and deadlines on in-process timers).
    """

    workdir: Path
    database_url: str | None = None
    redis_url: str | None = None
    webs: int = 1
    worker_args: tuple[str, ...] = ("--pool=solo",)
    extra_env: dict = field(default_factory=dict)
    #: a directory put before the repository on the processes' PYTHONPATH
    #: (``scripts/bench.py --sample``: scripts/sampler's sitecustomize)
    pythonpath_first: str | None = None
    debug: bool = False
    procs: dict[str, Proc] = field(default_factory=dict)
    ports: list[int] = field(default_factory=list)
    created_db: str | None = None
    #: nginx's port once :meth:`add_proxy` started it
    proxy_port: int | None = None
    #: the ops process (:meth:`ops`), started at the first op
    _ops: OpsServer | None = field(default=None, repr=False)
    #: One secret for every process of the stack (sessions must verify everywhere).
    secret_key: str = field(default_factory=lambda: "integration-" + secrets.token_hex(16))
    #: The Celery broker (production topology): None is the stack's Redis;
    #: an ``amqp://`` URL is RabbitMQ, with this stack's own queue and control
    #: exchange (``CELERY_NAMESPACE``) on a possibly shared server.
    broker_url: str | None = None
    namespace: str = field(default_factory=lambda: "it-" + secrets.token_hex(5))

    # --- construction -------------------------------------------------
    @classmethod
    def production(cls, workdir: Path, **kw) -> "LiveStack":
        """PostgreSQL (fresh database) + Redis + daphne + Celery worker + beat."""
        kw.setdefault("redis_url", stack_redis_url(os.environ.get("REDIS_URL")))
        kw.setdefault("broker_url", stack_broker_url())
        return cls(Path(workdir), **kw)

    @classmethod
    def embedded(cls, workdir: Path, **kw) -> "LiveStack":
        """A temporary SQLite file, in-memory channel layer, in-process timers:
        one daphne and nothing else (several web processes cannot share an
        in-memory channel layer)."""
        workdir = Path(workdir)
        kw.setdefault("database_url", f"sqlite:///{workdir / 'site.sqlite3'}")
        kw.setdefault("debug", True)  # static files from the app folders, as runserver
        return cls(workdir, redis_url=None, webs=1, **kw)

    @property
    def production_topology(self) -> bool:
        return self.redis_url is not None

    @property
    def env(self) -> dict:
        """The environment of every process of this stack."""
        env = {k: v for k, v in os.environ.items() if k not in TOPOLOGY_VARS}
        env.update(
            DJANGO_SETTINGS_MODULE="config.settings",
            DATABASE_URL=self.database_url or "",
            DJANGO_SECRET_KEY=self.secret_key,
            DJANGO_ALLOWED_HOSTS="127.0.0.1,localhost",
            DJANGO_DEBUG="1" if self.debug else "0",
            PYTHONUNBUFFERED="1",
            PYTHONPATH=os.pathsep.join(filter(None, [self.pythonpath_first, str(REPO)])),
        )
        if self.production_topology:
            env["REDIS_URL"] = self.redis_url
            if self.broker_url:
                env["CELERY_BROKER_URL"] = self.broker_url
                env["CELERY_NAMESPACE"] = self.namespace
        # search bots (the default filling level) think 30 ms, not 300, in tests
        env.setdefault("GAMES_SEARCH_BUDGET_MS", "30")
        env.update(self.extra_env)
        return env

    # --- database -----------------------------------------------------
    def create_database(self, template: str | None = None) -> None:
        """CREATE DATABASE cardroom_it_<random> on the local PostgreSQL (a copy
        of ``template`` when given)."""
        name = f"cardroom_it_{secrets.token_hex(5)}"
        _pg_admin(f'CREATE DATABASE "{name}"' + (f' TEMPLATE "{template}"' if template else ""))
        self.created_db = name
        self.database_url = f"{PG_BASE_URL}/{name}"

    def _migrated_template(self, timeout: float) -> str:
        """The name of this process's migrated PostgreSQL template database
        (``cardroom_it_tpl_<random>``), created and migrated by a ``manage.py
        migrate`` subprocess at its first use, dropped when the process exits.
        A stack's database is a copy of it (``CREATE DATABASE … TEMPLATE``):
        one migrate a test process, not one a stack (5 s of CPU each, 34 in
        session 33's CI)."""
        if "postgres" not in _TEMPLATES:
            name = f"cardroom_it_tpl_{secrets.token_hex(5)}"
            _pg_admin(f'CREATE DATABASE "{name}"')
            atexit.register(_drop_template, name)
            self.manage("migrate", "--noinput", timeout=max(timeout, 300),
                        env={"DATABASE_URL": f"{PG_BASE_URL}/{name}"})
            _TEMPLATES["postgres"] = name
        return _TEMPLATES["postgres"]

    def _migrated_sqlite(self, path: Path, timeout: float) -> None:
        """Write a migrated SQLite database at ``path``: a copy of this
        process's template file, migrated by ``manage.py migrate`` at its first
        use (as :meth:`_migrated_template` for PostgreSQL)."""
        if "sqlite" not in _TEMPLATES:
            import tempfile

            folder = Path(tempfile.mkdtemp(prefix="cardroom-sqlite-template-"))
            atexit.register(shutil.rmtree, folder, True)
            template = folder / "template.sqlite3"
            self.manage("migrate", "--noinput", timeout=max(timeout, 300),
                        env={"DATABASE_URL": f"sqlite:///{template}"})
            _TEMPLATES["sqlite"] = template
        template = _TEMPLATES["sqlite"]
        for suffix in ("", "-wal"):
            if Path(f"{template}{suffix}").exists():
                shutil.copyfile(f"{template}{suffix}", f"{path}{suffix}")

    def _fresh_sqlite_path(self) -> Path | None:
        """The SQLite file of ``database_url`` when it does not exist yet."""
        url = self.database_url or ""
        if not url.startswith("sqlite:///"):
            return None
        path = Path(url[len("sqlite:///"):])
        return None if path.exists() else path

    def drop_database(self) -> None:
        if not self.created_db:
            return
        _pg_admin(f'DROP DATABASE IF EXISTS "{self.created_db}" WITH (FORCE)')
        self.created_db = None

    def manage(self, *args: str, timeout: float = 300, input: str | None = None,
               env: dict | None = None) -> subprocess.CompletedProcess:
        """``manage.py ARGS`` with this stack's environment; raises on failure."""
        result = subprocess.run(
            [sys.executable, "manage.py", *args], cwd=REPO, env={**self.env, **(env or {})},
            capture_output=True, text=True, timeout=timeout, input=input,
        )
        if result.returncode != 0:
            raise StackError(
                f"manage.py {' '.join(args)} exited {result.returncode}:\n"
                f"{result.stdout[-3000:]}\n{result.stderr[-5000:]}"
            )
        return result

    def ops(self, op: str, timeout: float = 120, **params) -> dict:
        """Run ``tests.integration.ops`` operation ``op`` in a process of its own
        against this stack's database (as another machine of the site would)
        and return its JSON answer: the stack's :class:`OpsServer`, started at
        the first op and again whenever the stack's environment changed."""
        env = self.env
        if self._ops is None or self._ops.env != env:
            if self._ops is not None:
                self._ops.close()
            self.workdir.mkdir(parents=True, exist_ok=True)
            self._ops = OpsServer(env, self.workdir / "ops.log")
        return self._ops.call(op, params, timeout)

    # --- processes ----------------------------------------------------
    def _proc(self, name: str, args: list[str]) -> Proc:
        proc = Proc(name, args, self.env, self.workdir / f"{name}.log")
        self.procs[name] = proc
        return proc

    def add_processes(self) -> None:
        py = sys.executable
        self.ports = [free_port() for _ in range(self.webs)]
        for i, port in enumerate(self.ports):
            self._proc(f"web{i}", [py, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
                                   "config.asgi:application"])
        if self.production_topology:
            self._add_worker("worker")
            self._proc("beat", [py, "-m", "celery", "-A", "config", "beat", "--loglevel=INFO",
                                "-s", str(self.workdir / "beat-schedule")])

    def _add_worker(self, name: str) -> Proc:
        return self._proc(name, [sys.executable, "-m", "celery", "-A", "config", "worker",
                                 "--loglevel=INFO", "--without-gossip", "--without-mingle",
                                 "-n", f"it-{secrets.token_hex(3)}@%h", *self.worker_args])

    def add_worker(self, timeout: float = 120) -> str:
        """Start one more Celery worker (same arguments) on the running stack,
        wait until it is ready; returns its name (``worker2``, ``worker3`` …)."""
        count = sum(1 for name in self.procs if name.startswith("worker"))
        name = f"worker{count + 1}"
        self._add_worker(name).start()
        self.wait_ready(name, timeout)
        return name

    def start(self, timeout: float = 120) -> "LiveStack":
        """Create and migrate the database, start every process, wait until ready."""
        self.workdir.mkdir(parents=True, exist_ok=True)
        sqlite = self._fresh_sqlite_path()
        if self.database_url is None:
            self.create_database(template=self._migrated_template(timeout))
        elif sqlite is not None:
            self._migrated_sqlite(sqlite, timeout)
        else:
            # a database the caller gave: its own migrate (on a loaded 2-core
            # machine, CI's parts side by side, a fresh schema's passed 120 s)
            self.manage("migrate", "--noinput", timeout=max(timeout, 300))
        if not self.debug:
            self.manage("collectstatic", "--noinput", "-v", "0", timeout=timeout)
        if not self.procs:
            self.add_processes()
        for name in self.procs:
            self.procs[name].start()
        for name in self.procs:
            self.wait_ready(name, timeout)
        return self

    def wait_ready(self, name: str, timeout: float = 120) -> None:
        """Bounded wait until process ``name`` serves (web), or logs that it is
        ready (worker: ``ready.``; beat: ``beat: Starting``)."""
        proc = self.procs[name]
        if name.startswith("web"):
            url = self.web_url_of(int(name[3:])) + "/"

            def answers():
                try:
                    with HTTP.open(url, timeout=5) as resp:
                        return resp.status < 500
                except urllib.error.HTTPError as exc:
                    return exc.code < 500
                except OSError:
                    return False

            wait_until(answers, timeout, f"{name} to answer {url}", check=proc.ensure_alive)
        else:
            marker = " ready." if name.startswith("worker") else "beat: Starting"
            start_line = f"===== start #{proc.starts}:"

            def logged():
                text = proc.log_text()
                return marker in text[text.rfind(start_line):]

            wait_until(logged, timeout, f"{name} to log {marker!r}", check=proc.ensure_alive)

    def restart(self, name: str, sig: int = signal.SIGTERM, timeout: float = 120) -> None:
        """Stop ``name`` with ``sig`` and start it again, waiting until ready."""
        self.procs[name].stop(sig)
        self.procs[name].start()
        self.wait_ready(name, timeout)

    def add_proxy(self, timeout: float = 30) -> int:
        """Start nginx with ``deploy/nginx.conf`` in front of this stack's
        daphnes (process ``proxy``, stopped with the others); returns its port.
        Raises :class:`StackError` when nginx is not installed or does not start."""
        if NGINX is None:
            raise StackError("nginx is not installed (Debian: apt-get install nginx-light)")
        run_dir = self.workdir / "nginx"
        run_dir.mkdir(exist_ok=True)
        run_dir.chmod(0o777)  # nginx's workers (not root) keep their temp files here
        port = free_port()
        conf = run_dir / "nginx.conf"
        conf.write_text(nginx_conf(run_dir, f"127.0.0.1:{port}", [f"127.0.0.1:{p}" for p in self.ports]))
        args = [NGINX, "-c", str(conf), "-e", str(run_dir / "startup.log")]
        check = subprocess.run([*args, "-t"], capture_output=True, text=True, timeout=30)
        if check.returncode != 0:
            raise StackError(f"nginx -t refused deploy/nginx.conf:\n{check.stderr}")
        proc = self._proc("proxy", args)
        proc.start()

        def answers() -> bool:
            proc.ensure_alive()
            with socket.socket() as s:
                s.settimeout(1)
                return s.connect_ex(("127.0.0.1", port)) == 0

        wait_until(answers, timeout, "nginx answering")
        self.proxy_port = port
        return port

    def close(self) -> None:
        """Stop every process (TERM then KILL) and drop the created database."""
        if self._ops is not None:
            self._ops.close()
            self._ops = None
        for proc in self.procs.values():
            try:
                proc.stop(signal.SIGTERM, timeout=15)
            except Exception:  # keep stopping the others
                pass
        self.drop_database()
        if self.broker_url:
            purge_namespace(self.broker_url, self.namespace)

    # --- addresses ----------------------------------------------------
    def web_url_of(self, index: int = 0) -> str:
        return f"http://127.0.0.1:{self.ports[index]}"

    @property
    def web_url(self) -> str:
        return self.web_url_of(0)

    def ws_url(self, path: str, index: int = 0) -> str:
        return f"ws://127.0.0.1:{self.ports[index]}/{path.lstrip('/')}"

    @property
    def origin(self) -> str:
        return self.web_url

    def logs(self, lines: int = 120) -> str:
        """The last ``lines`` lines of every log, for a failure report."""
        return "\n".join(
            f"----- {name} ({proc.log_path}) -----\n{proc.tail(lines)}"
            for name, proc in self.procs.items()
        )


@contextmanager
def running(stack: "LiveStack"):
    """Start ``stack``, yield it and close it afterwards; if it fails to start,
    print its logs (the test report shows them) before closing it."""
    try:
        stack.start()
    except Exception:
        print(stack.logs())
        stack.close()
        raise
    try:
        yield stack
    finally:
        stack.close()
