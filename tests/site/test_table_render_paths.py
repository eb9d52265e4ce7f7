"""The table render's short paths (``games/render/regions.py``, ``games/render/jinja.py``)
give what the long ones gave.

``region.memo`` stands for a call region holding one memo block, ``region.rows``
for a loop of ``region.block`` calls; the environment's context calls its own
functions directly, its templates import blocks and find loaded templates
without Jinja2's general machinery.  Each must render the same bytes and record
the same regions (the whole fragment of every version, seat and language is
compared across commits by ``scripts/render_bench.py --dump``)."""

from __future__ import annotations

import functools
from types import SimpleNamespace

import pytest
from jinja2 import DictLoader, UndefinedError, pass_context

from games.render import jinja, memo
from games.render.regions import Regions

BLOCKS = (
    '{% macro box(index, pos, shown, room) %}<div id="box-{{ index }}" class="pos-{{ pos }}">'
    "{{ shown.name }}/{{ room }}</div>{% endmacro %}"
    '{% macro note(text) %}<p id="note" class="n">{{ text }}</p>{% endmacro %}'
)


@pytest.fixture(autouse=True)
def _cold():
    memo.forget()
    yield
    memo.forget()


@functools.lru_cache(maxsize=None)
def _env(page: str):
    """One environment per page (its macros are the same objects from render to render)."""
    return jinja.environment(loader=DictLoader({"blocks": BLOCKS, "page": page}), autoescape=True)


def _render(page: str, **context):
    env = _env(page)
    collector = Regions()
    html = env.get_template("page").render(region=collector, **context)
    return html, collector.parts


def _rows(*names):
    return [SimpleNamespace(index=i, pos=(i + 1) % len(names), shown={"name": n}) for i, n in enumerate(names)]


LOOP = ('{% import "blocks" as b %}<s>\n  {% for r in rows %}\n  {{ region.block("box-" ~ r.index, b.box, '
        'index=r.index, pos=r.pos, shown=r.shown, room=room) }}\n  {% endfor %}\n</s>')
ROWS = '{% import "blocks" as b %}<s>\n  {{ region.rows("box-", b.box, rows, "index pos shown", sep="\\n", room=room) }}\n</s>'


def test_rows_render_and_record_what_a_loop_of_blocks_does():
    from games.render.regions import squeeze

    rows = _rows("a", "<b>", "c")
    looped, looped_parts = _render(LOOP, rows=rows, room=7)
    memo.forget()
    joined, joined_parts = _render(ROWS, rows=rows, room=7)
    assert squeeze(joined) == squeeze(looped)
    assert joined_parts == looped_parts and list(joined_parts) == ["box-0", "box-1", "box-2"]
    assert "&lt;b&gt;" in joined


def test_rows_render_only_the_row_that_changed():
    _render(ROWS, rows=_rows("a", "b", "c"), room=1)
    before = dict(memo.stats)
    _render(ROWS, rows=_rows("a", "b", "c"), room=1)
    assert memo.stats["hits"] == before["hits"] + 3 and memo.stats["renders"] == before["renders"]
    html, _parts = _render(ROWS, rows=_rows("a", "x", "c"), room=1)
    assert memo.stats["renders"] == before["renders"] + 1
    assert ">x/1<" in html
    html, _parts = _render(ROWS, rows=_rows("a", "x", "c"), room=2)  # a common input is part of each key
    assert ">a/2<" in html


def test_rows_refuse_a_region_twice():
    with pytest.raises(ValueError, match="twice"):
        _render('{% import "blocks" as b %}{{ region.rows("box-", b.box, rows, "index pos shown", room=1) }}'
                '{{ region.block("box-0", b.box, index=0, pos=0, shown=rows[0].shown, room=1) }}', rows=_rows("a"))


def test_memo_region_is_the_call_region_around_a_memo_block():
    called, called_parts = _render('{% import "blocks" as b %}{% call region("note") %}{{ memo(b.note, text=t) }}'
                                   "{% endcall %}", t="<i>")
    memo.forget()
    direct, direct_parts = _render('{% import "blocks" as b %}{{ region.memo("note", b.note, text=t) }}', t="<i>")
    assert direct == called and direct_parts == called_parts
    assert 'data-h="' in direct and "&lt;i&gt;" in direct


def test_memo_region_refuses_an_undefined_input_as_memo_does():
    with pytest.raises(UndefinedError):
        _render('{% import "blocks" as b %}{{ region.memo("note", b.note, text=table.gone) }}', table={})
    with pytest.raises(UndefinedError):
        _render('{% import "blocks" as b %}{% call region("note") %}{{ memo(b.note, text=table.gone) }}'
                "{% endcall %}", table={})


def test_context_still_passes_itself_to_a_function_that_asks():
    @pass_context
    def who(context, suffix):
        return f"{context['name']}{suffix}"

    html, _parts = _render('{% for i in [1, 2] %}{{ who("!") }}{{ _("座位") }}{% endfor %}', who=who, name="n")
    assert html.count("n!") == 2
    # the environment's own function inside a loop (which Jinja2 hands the loop's variables)
    assert html.count("座位") == 2 or html.count("Seat") == 2


def test_blocks_module_is_imported_once_and_a_loaded_template_is_found_again():
    env = jinja.environment(loader=DictLoader({"blocks": BLOCKS, "page": '{% import "blocks" as b %}{{ b.note("x") }}'}))
    env.auto_reload = False  # production's (DEBUG off)
    page = env.get_template("page")
    assert env.get_template("page") is page
    assert page.render() == page.render() == '<p id="note" class="n">x</p>'
    blocks = env.get_template("blocks")
    module = blocks._get_default_module()
    page.render()
    assert blocks._module is module, "the import reused the module"
    # a render whose globals hold a name the imported template lacks gets a module of its own (Jinja2's rule)
    extra = env.get_template("page", globals={"extra": 1})
    assert extra.render() == '<p id="note" class="n">x</p>'
    # another loader: loaded again
    env.loader = DictLoader({"blocks": BLOCKS, "page": "other"})
    assert env.get_template("page").render() == "other"


def test_outside_a_table_render_the_short_paths_render_without_a_record():
    """A page's table (a replay) renders with the environment's global ``region``."""
    env = jinja.environment(loader=DictLoader({"blocks": BLOCKS}), autoescape=True)
    html = env.from_string('{% import "blocks" as b %}{{ region.rows("box-", b.box, rows, "index pos shown", room=1) }}'
                           '{{ region.memo("note", b.note, text="t") }}').render(rows=_rows("a", "b"))
    assert html.count('data-h="') == 3 and 'id="box-1"' in html and 'id="note"' in html


def test_rows_read_a_dicts_keys_as_the_template_did():
    rows = [{"index": 0, "pos": 1, "shown": {"name": "d"}}]
    looped, looped_parts = _render(LOOP, rows=rows, room=3)
    memo.forget()
    joined, joined_parts = _render(ROWS, rows=rows, room=3)
    assert joined_parts == looped_parts and ">d/3<" in joined


def test_the_inputs_check_refuses_what_freeze_refuses():
    """``memo.check`` (the check of a block's inputs when it renders) judges as ``freeze``."""
    from django.utils.safestring import mark_safe
    from django.utils.translation import gettext_lazy

    from games.render.memo import check, freeze
    from games.registry import Tag

    plain = [1, "x", None, True, 1.5, [1, [2, ("a", None)]], {"a": {"b": [mark_safe("<i>")]}},
             (gettext_lazy("机器人"),), [Tag("role", "x")], {"k": ()}]
    for value in plain:
        check(value)
        freeze(value)
    for value in [object(), [1, object()], {"a": (1, {"b": object()})}, [Tag("role", object())], {1, 2}]:
        with pytest.raises(TypeError):
            freeze(value)
        with pytest.raises(TypeError, match="plain data"):
            check(value)
