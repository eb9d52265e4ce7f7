"""The site's one way for a module to *ask* the apps built on it.

A generic module cannot import the apps above it (the layer contracts in
``pyproject.toml``): ``games`` knows nothing of clubs or moderation, ``accounts``
nothing of the games.  When such a module needs an answer only those apps can
give (may this user sit here? is this hand hidden from that viewer? which deal
comes next at this table?), it offers a :class:`Hooks`.  Each app adds its
*rule* — any object — in its ``AppConfig.ready()``; the module asks every rule
that has the method it needs, in the order they were added.

To *tell* the apps something after the fact (a hand was completed, a room was
committed) a module sends a Django signal instead (``games/signals.py``):
asking wants an answer, telling does not.  Those are the only two mechanisms;
``docs/architecture.md`` lists every hook and signal.

    >>> seating = Hooks("seating")
    >>> class Members:
    ...     def seat_refusal(self, user):
    ...         return None if user == "ann" else "members only"
    >>> rule = seating.add(Members())
    >>> seating.first("seat_refusal", "bob"), seating.first("seat_refusal", "ann")
    ('members only', None)
    >>> seating.first("unknown_method", "bob") is None   # a rule may leave a method out
    True

Nothing here imports Django or any app: this package sits below every app
(and below ``config``, which imports the apps), so any of them may use it.
"""

from __future__ import annotations

from typing import Any, Iterator


class Hooks:
    """An extension point named ``name``: rules added by the apps above, asked in order.

    A rule is any object; a method it lacks is simply not asked.  Adding the
    same rule twice keeps one (``ready()`` may run twice in tests)."""

    def __init__(self, name: str):
        self.name = name
        self._rules: list[Any] = []

    def add(self, rule):
        """Add ``rule`` (once) and return it (usable as a class decorator)."""
        if rule not in self._rules:
            self._rules.append(rule)
        return rule

    def remove(self, rule) -> None:
        """Take ``rule`` out again (tests that add a rule of their own)."""
        if rule in self._rules:
            self._rules.remove(rule)

    def __iter__(self) -> Iterator[Any]:
        return iter(list(self._rules))

    def __len__(self) -> int:
        return len(self._rules)

    def having(self, method: str) -> list:
        """The bound ``method`` of every rule that has it, in order."""
        return [getattr(rule, method) for rule in self._rules if callable(getattr(rule, method, None))]

    def answers(self, method: str, *args, **kwargs) -> list:
        """Every rule's answer to ``method(*args, **kwargs)`` that is not None, in order."""
        out = []
        for ask in self.having(method):
            answer = ask(*args, **kwargs)
            if answer is not None:
                out.append(answer)
        return out

    def first(self, method: str, *args, **kwargs):
        """The first answer to ``method(*args, **kwargs)`` that is not None
        (rules after it are not asked), or None."""
        for ask in self.having(method):
            answer = ask(*args, **kwargs)
            if answer is not None:
                return answer
        return None

    def reason(self, method: str, *args, **kwargs) -> str | None:
        """The first non-empty answer to ``method(*args, **kwargs)`` (a
        refusal's sentence: the first rule that refuses says why), or None."""
        for ask in self.having(method):
            answer = ask(*args, **kwargs)
            if answer:
                return answer
        return None

    def __repr__(self) -> str:
        return f"Hooks({self.name!r}, {len(self._rules)} rules)"
