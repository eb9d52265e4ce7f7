"""Running ``manage.py replay`` as a user would, in a subprocess.

The command reads only the record file (the engine replays it), so it runs
with the embedded defaults: the production half's DATABASE_URL / REDIS_URL
are not passed on.  With them and no DJANGO_SECRET_KEY the settings refuse to
start, as production must, which is not what these tests are about.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
_SERVER_VARS = {"DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL"}


def run_replay(path: Path) -> subprocess.CompletedProcess:
    """``python manage.py replay PATH`` from the repository root; stdout/stderr as text."""
    env = {k: v for k, v in os.environ.items() if k not in _SERVER_VARS}
    return subprocess.run([sys.executable, "manage.py", "replay", str(path)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
