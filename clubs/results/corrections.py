"""The correction form of a finished table and the audit trail in words.

:class:`CorrectionForm` has one field per entry and figure of the game's
round result (level difference, game points, 头科 …), per duplicate board
and entry index the board score, per entry an "absent" box (the no-show
rule), labelled in the viewer's language and pre-filled with the current
result; :func:`clubs.running.events.correct_result` stores it (unchanged: nothing
is stored).  :func:`describe` turns a :class:`~clubs.models.Correction` into
sentences: who changed which figure of whom from what to what.  Rules:
docs/tournaments.md, "Corrections".
"""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from .. import formats
from ..models import Correction, EventTable
from .labels import TIEBREAK_LABELS

def figure_label(key: str) -> str:
    """The viewer's name of a round-result figure of the games'
    ``round_result`` (``"margin"`` → 级差; the key when unknown): the full
    labels of :data:`.labels.TIEBREAK_LABELS`, which name the same figures in
    the standings (a correction form and the CSV export have the room)."""
    return str(TIEBREAK_LABELS.get(key, key))


def _name(names: dict, entry) -> str:
    return names.get(entry, "?") if entry else _("机器人")


def result_keys(game: str) -> list[str]:
    """The figures an organiser corrects: the game's ``round_result`` keys
    without ``hands`` (which is counted, not scored)."""
    empty = formats.hooks(game).round_result([])
    return [k for k in (empty[0] if empty else {}) if k != "hands"]


class CorrectionForm(forms.Form):
    """A finished table's result as a form: field ``e{i}_{key}`` per entry
    index ``i`` and figure ``key`` (integers), ``e{i}_absent`` per entry
    (a checkbox), ``b{k}_{i}`` per duplicate board ``k`` (0-based) and entry
    index (blank: the board was not played there), and ``reason``.

    :meth:`correction` returns ``(result, boards or None, forfeit ids)`` for
    :func:`clubs.running.events.correct_result`."""

    reason = forms.CharField(label=gettext_lazy("理由"), max_length=500, required=False)

    def __init__(self, table: EventTable, names: dict, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.table = table
        result = table.result or {}
        event = table.round.event
        hooks = formats.hooks(event.game)
        self.keys = result_keys(event.game)
        self.match = hooks.SHAPE == "match"
        entries = result.get("entries") or [{} for _ in table.entries]
        absent = set(result.get("forfeit") or [])
        self.rows = []
        for i, entry in enumerate(table.entries):
            who = _name(names, entry)
            row = {"name": who, "fields": []}
            for key in self.keys:
                name = f"e{i}_{key}"
                value = (entries[i] if i < len(entries) else {}).get(key, 0)
                self.fields[name] = forms.IntegerField(label=f"{who} · {figure_label(key)}", initial=value)
                row["fields"].append(name)
            if entry:
                name = f"e{i}_absent"
                self.fields[name] = forms.BooleanField(
                    label=f"{who} · {_('缺席')}", required=False, initial=entry in absent
                )
                row["fields"].append(name)
            self.rows.append(row)
        self.boards = result.get("boards")
        self.board_rows = []
        if self.boards is not None:
            heading = _(getattr(hooks, "BOARD_SCORE", "成绩"))
            for k, scores in enumerate(self.boards):
                row = {"board": k + 1, "fields": []}
                for i, entry in enumerate(table.entries):
                    name = f"b{k}_{i}"
                    self.fields[name] = forms.IntegerField(
                        label=_("第 %(n)s 副牌 · %(who)s · %(what)s") % {
                            "n": k + 1, "who": _name(names, entry), "what": heading},
                        required=False, initial=None if scores is None else scores[i],
                    )
                    row["fields"].append(name)
                self.board_rows.append(row)

    def field_rows(self):
        """``[(heading, [bound fields])]``: a row per entry, then per board."""
        out = [(r["name"], [self[n] for n in r["fields"]]) for r in self.rows]
        out += [(_("第 %(n)s 副牌") % {"n": r["board"]}, [self[n] for n in r["fields"]]) for r in self.board_rows]
        return out

    def clean(self):
        data = super().clean()
        if self.match and "margin" in self.keys and len(self.table.entries) == 2:
            a, b = data.get("e0_margin"), data.get("e1_margin")
            if a is not None and b is not None and a != -b:
                raise forms.ValidationError(_("两方的级差须互为相反数"))
        for row in self.board_rows:
            values = [data.get(n) for n in row["fields"]]
            if any(v is None for v in values) and any(v is not None for v in values):
                raise forms.ValidationError(
                    _("第 %(n)s 副牌：请填写每一方的成绩，或全部留空（未打）") % {"n": row["board"]}
                )
        return data

    def correction(self) -> tuple[list[dict], list | None, list[int]]:
        """The cleaned form as ``(result per entry index, boards, absent entry ids)``."""
        data = self.cleaned_data
        result = [{key: data[f"e{i}_{key}"] for key in self.keys} for i in range(len(self.table.entries))]
        boards = None
        if self.boards is not None:
            boards = []
            for row in self.board_rows:
                values = [data.get(n) for n in row["fields"]]
                boards.append(None if all(v is None for v in values) else values)
        forfeit = [e for i, e in enumerate(self.table.entries) if e and data.get(f"e{i}_absent")]
        return result, boards, forfeit


def describe(correction: Correction, names: dict, game: str) -> list[str]:
    """What ``correction`` changed, one sentence per figure, in the viewer's
    language: "mike / pam：级差 2 → 0", "第 1 副牌 · 机器人3：游戏积分 2 → 4",
    "mike：缺席 → 出席"."""
    before, after = correction.before or {}, correction.after or {}
    entries = correction.table.entries
    out = []
    old_rows, new_rows = before.get("entries") or [], after.get("entries") or []
    for i, entry in enumerate(entries):
        old = old_rows[i] if i < len(old_rows) else {}
        new = new_rows[i] if i < len(new_rows) else {}
        for key in [k for k in new if k != "hands"]:
            if old.get(key) != new.get(key):
                out.append(_("%(who)s：%(what)s %(old)s → %(new)s") % {
                    "who": _name(names, entry), "what": figure_label(key),
                    "old": "—" if old.get(key) is None else old.get(key), "new": new.get(key)})
    was, now = set(before.get("forfeit") or []), set(after.get("forfeit") or [])
    for entry in entries:
        if entry and (entry in was) != (entry in now):
            present, gone = _("出席"), _("缺席")
            out.append(_("%(who)s：%(old)s → %(new)s") % {
                "who": _name(names, entry), "old": gone if entry in was else present,
                "new": gone if entry in now else present})
    old_boards, new_boards = before.get("boards") or [], after.get("boards") or []
    try:
        heading = _(getattr(formats.hooks(game), "BOARD_SCORE", "成绩"))
    except formats.NoTournament:
        heading = _("成绩")
    for k in range(max(len(old_boards), len(new_boards))):
        old = old_boards[k] if k < len(old_boards) else None
        new = new_boards[k] if k < len(new_boards) else None
        if old == new:
            continue
        for i, entry in enumerate(entries):
            a = None if old is None else old[i]
            b = None if new is None else new[i]
            if a != b:
                out.append(_("第 %(n)s 副牌 · %(who)s：%(what)s %(old)s → %(new)s") % {
                    "n": k + 1, "who": _name(names, entry), "what": heading,
                    "old": "—" if a is None else a, "new": "—" if b is None else b})
    return out
