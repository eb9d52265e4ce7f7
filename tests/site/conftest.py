"""Site tests' hooks: the fuzz test's count of requests in the terminal summary;
the secret-guard table's fixtures (tests/site/secret_guard.py)."""

from __future__ import annotations

import pytest

from tests.site.secret_guard import _guard_seed, secret_guard  # noqa: F401 (fixtures for seated players)

#: ``config.stash`` key of the fuzz test's counts ({"HTTP requests": n, …}).
FUZZ_COUNTS = pytest.StashKey[dict]()


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    """Print what tests/site/test_fuzz_inputs.py sent, when it ran."""
    counts = config.stash.get(FUZZ_COUNTS, None)
    if counts:
        terminalreporter.write_sep("=", "fuzz inputs")
        terminalreporter.write_line(", ".join(f"{n} {what}" for what, n in counts.items()) + " sent")
