"""The docstring examples of the shengji trick-taking modules (and the fast play-out, and 還牌) run and hold."""

import doctest

import pytest

from games.engine.shengji import fast, follow, give, shapes, tricks, trumps


@pytest.mark.parametrize("module", [trumps, shapes, follow, tricks, fast, give], ids=lambda m: m.__name__)
def test_docstring_examples(module):
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0
    assert result.failed == 0
