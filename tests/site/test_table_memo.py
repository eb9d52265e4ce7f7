"""``memo`` blocks of the table fragment (``games/render/memo.py``, ``games/render/jinja.py``).

The reference is a render without memo (``memo.CHECK``: every block
rendered afresh, nothing kept).  A warm render (outputs
shared across the five seats, the spectator and successive moves) must give
exactly the same HTML for every viewer at every step of real hands of both
games, and a
viewer-dependent input (保皇's guard, B10) only makes a different key, so
nothing of one seat's view reaches another's.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.template import engines
from django.utils import translation
from jinja2 import DictLoader, UndefinedError, meta

from games.live import snapshots as live
from games import services
from games.models import Room
from games.render import jinja, memo
from tests.conftest import drive
from tests.site.shengji_fixtures import sj_bot_room  # noqa: F401 (fixture)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _cold():
    memo.forget()
    yield
    memo.forget()


def _viewers(room: Room, extra):
    users = [s.user for s in room.seats.order_by("index") if s.user_id]
    return [*users, extra]


def _timeless(html: str) -> str:
    """Without the render's own clock (``data-server-now``)."""
    return re.sub(r'data-server-now="\d+"', "", html)


def _warm_equals_cold(room: Room, viewers, languages=("zh-hans", "en")) -> int:
    """Each viewer's fragment, memo warm, equals its render without memo."""
    live.forget(room.pk)
    snap = live.load_snapshot(room.pk)
    checked = 0
    for language in languages:
        with translation.override(language):
            warm = [_timeless(live.render_seat(snap, v, snap.version, 1)) for v in viewers]
            memo.CHECK = True
            try:
                for viewer, html in zip(viewers, warm):
                    assert _timeless(live.render_seat(snap, viewer, snap.version, 1)) == html, (
                        f"version {snap.version}, {language}, viewer {viewer}")
                    checked += 1
            finally:
                memo.CHECK = False
    return checked


def test_warm_and_cold_renders_are_the_same_through_baohuang_hands(five_humans, make_user):
    """Five human seats (each its own view: the guard's 'roles' line differs),
    a spectator, two languages, from the deal through the second hand."""
    room, users = five_humans
    watcher = make_user("watcher")
    start = room.version
    checked = 0
    hits = memo.stats["hits"]
    for step in range(0, 160, 3):
        drive(room, lambda r, s=step: r.version >= start + s)
        checked += _warm_equals_cold(room, [*users, watcher])
    assert checked > 300
    assert memo.stats["hits"] > hits, "blocks were shared"


def test_warm_and_cold_renders_are_the_same_through_a_bot_hand(bot_room, alice, make_user):
    """保皇 with heuristic bots playing sets: rounds, the round log, 上一轮, the score sheet."""
    watcher = make_user("watcher")
    start = bot_room.version
    for step in range(0, 2000, 9):
        drive(bot_room, lambda r, s=step: r.version >= start + s)
        _warm_equals_cold(bot_room, [alice, watcher], languages=("zh-hans",))
        if services.current_hand(bot_room).number >= 2:
            break
    html = live.render_seat(live.load_snapshot(bot_room.pk), alice, None, None)
    assert 'class="score-sheet"' in html, "reached the second hand"


def test_warm_and_cold_renders_are_the_same_in_shengji(sj_bot_room, alice, make_user):  # noqa: F811
    watcher = make_user("watcher")
    start = sj_bot_room.version
    for step in range(0, 150, 6):
        drive(sj_bot_room, lambda r, s=step: r.version >= start + s)
        _warm_equals_cold(sj_bot_room, [alice, watcher], languages=("zh-hans",))


def _env(**templates):
    """The site's Jinja2 environment (games.render.jinja) over ``templates``."""
    return jinja.environment(loader=DictLoader(templates))


def test_a_memo_block_sees_only_its_inputs():
    """A name of the page that is not an input is undefined in the block:
    the render fails (strict undefined) instead of leaking it."""
    env = _env(blocks="{% macro t(a) %}[{{ a }}|{{ b }}]{% endmacro %}",
               page='{% import "blocks" as blocks %}{{ memo(blocks.t, a=a) }}')
    with pytest.raises(UndefinedError, match="'b' is undefined"):
        env.get_template("page").render(a=1, b="secret")
    env = _env(blocks="{% macro t(a) %}[{{ a }}]{% endmacro %}",
               page='{% import "blocks" as blocks %}{{ memo(blocks.t, a=a) }}')
    page = env.get_template("page")
    assert page.render(a=1, b="secret") == "[1]"
    assert page.render(a=2, b="other") == "[2]"
    before = dict(memo.stats)
    assert page.render(a=1, b="third") == "[1]"
    assert memo.stats["hits"] == before["hits"] + 1
    # another template's block with the same name and inputs is another block
    other = _env(blocks="{% macro t(a) %}<{{ a }}>{% endmacro %}",
                 page='{% import "blocks" as blocks %}{{ memo(blocks.t, a=a) }}')
    assert other.get_template("page").render(a=1) == "<1>"


def test_equal_looking_inputs_of_another_type_are_other_keys():
    page = _env(blocks="{% macro t(a) %}{{ a }}{% endmacro %}",
                page='{% import "blocks" as blocks %}{{ memo(blocks.t, a=a) }}').get_template("page")
    assert page.render(a=1) == "1"
    assert page.render(a=True) == "True"
    assert page.render(a=[1]) == "[1]"
    assert page.render(a=[True]) == "[True]"


def test_model_objects_are_refused_as_inputs(bot_room):
    page = _env(blocks="{% macro t(room) %}{{ room.name }}{% endmacro %}",
                page='{% import "blocks" as blocks %}{{ memo(blocks.t, room=room) }}').get_template("page")
    with pytest.raises(TypeError, match="plain data"):
        page.render(room=bot_room)


def test_a_block_takes_only_the_inputs_it_names():
    page = _env(blocks="{% macro t(a) %}{{ a }}{% endmacro %}",
                page='{% import "blocks" as blocks %}{{ memo(blocks.t, a=1, b=2) }}').get_template("page")
    with pytest.raises(TypeError, match="b"):
        page.render()


def _outside_names(env, source: str) -> set[str]:
    """Names a blocks template reads that are neither a macro's arguments
    nor the environment's globals (what a block would otherwise take from
    nowhere: it is imported without context, so they would render empty)."""
    return meta.find_undeclared_variables(env.parse(source)) - set(env.globals)


def test_every_table_block_reads_only_its_arguments_and_globals():
    """Each ``*_blocks.html`` of the table fragment (games/render/jinja.py): its macros
    read nothing but their arguments, so a forgotten input cannot make a block
    render another viewer's data or silently nothing."""
    env = engines["jinja2"].env
    found = sorted(Path(settings.BASE_DIR).glob("games/**/jinja2/**/*_blocks.html"))
    assert len(found) >= 2, found
    for path in found:
        assert _outside_names(env, path.read_text()) == set(), path
    # the check sees a forgotten input
    assert _outside_names(env, "{% macro t(a) %}[{{ a }}|{{ b }}]{% endmacro %}") == {"b"}


def test_memo_keys_keep_types_apart_and_refuse_objects(bot_room):
    """Equal keys must mean data that renders the same: numbers of different
    types, a str and a number, a safe and a plain string, None and "None" all
    get different keys; a model object (whose later state a key would not see)
    is refused; a lazy translation is keyed by its text in the active language."""
    from django.utils import translation
    from django.utils.safestring import mark_safe
    from django.utils.translation import gettext_lazy

    from games.render.memo import freeze, key_of

    distinct = [1, True, 1.0, "1", None, "None", mark_safe("<b>"), "<b>", [1], (1,), {"a": 1}]
    for make in (freeze, key_of):  # the check, and the key kept (its pickle)
        keys = [make(v) for v in distinct]
        assert len({repr(k) for k in keys}) == len(distinct), make
        assert all(keys[i] != keys[j] for i in range(len(keys)) for j in range(len(keys)) if i != j)
        assert make({"a": [1, {"b": None}]}) == make({"a": [1, {"b": None}]})
    with pytest.raises(TypeError):
        freeze({"seat": bot_room})
    with pytest.raises(TypeError, match="plain data"):
        key_of({"later": (x for x in ())})  # cannot be pickled: freeze names it
    label = gettext_lazy("机器人")
    with translation.override("en"):
        english = freeze(label)
    with translation.override("zh-hans"):
        assert freeze(label) != english and freeze(label) == freeze("机器人") != freeze(mark_safe("机器人"))
