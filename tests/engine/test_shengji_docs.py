"""The docstring examples of the shengji trick-taking modules run and hold."""

import doctest

import pytest

from games.engine.shengji import follow, shapes, tricks, trumps


@pytest.mark.parametrize("module", [trumps, shapes, follow, tricks], ids=lambda m: m.__name__)
def test_docstring_examples(module):
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0
    assert result.failed == 0
