"""Two ``pytest`` runs started together in one checkout both pass.

The SQLite test database used to be one fixed file (``db.sqlite3-test``):
the second run deleted and recreated it under the first, whose tests then
failed at random.  Each run now has its own file (config/settings.py).  This
starts two real pytest processes at once, each running a test that writes
rows, waits until the other run is surely inside its own tests, and counts
its rows again."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

PROBE = textwrap.dedent('''
    import os, time
    import pytest
    from django.contrib.auth import get_user_model

    @pytest.mark.django_db(transaction=True)
    def test_my_rows_stay_mine():
        User = get_user_model()
        for i in range(20):
            User.objects.create_user(f"p{os.getpid()}-{i}")
        time.sleep(8)  # the other run creates its database meanwhile
        assert User.objects.count() == 20
        assert all(u.username.startswith(f"p{os.getpid()}-") for u in User.objects.all())
''')


@pytest.mark.skipif(os.environ.get("DATABASE_URL", "").startswith("postgres"),
                    reason="the SQLite file is the embedded topology's; PostgreSQL names its test database per run")
def test_two_pytest_runs_in_one_checkout_both_pass(tmp_path):
    probe = ROOT / "tmp" / f"parallel_probe_{os.getpid()}"
    probe.mkdir(parents=True, exist_ok=True)
    (probe / "test_probe.py").write_text(PROBE)
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL")}
    cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--rootdir", str(ROOT),
           "-c", str(ROOT / "pyproject.toml"), str(probe / "test_probe.py")]
    try:
        runs = [subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
                for _ in range(2)]
        outputs = [run.communicate(timeout=300)[0] for run in runs]
    finally:
        for path in probe.iterdir():
            path.unlink()
        probe.rmdir()
    for run, out in zip(runs, outputs):
        assert run.returncode == 0, out[-3000:]
        assert "1 passed" in out
