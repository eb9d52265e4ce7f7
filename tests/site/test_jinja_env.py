"""The live table fragment's Jinja2 environment (``games/render/jinja.py``):
it must render what the Django template tags it replaced rendered."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from django.urls import reverse, set_script_prefix
from jinja2 import UndefinedError
from django.utils import translation

from games.render import jinja


def render(source: str, **context) -> str:
    return jinja.environment(autoescape=True).from_string(source).render(**context)


def test_fmt_escapes_the_values_not_the_translation():
    """``{% blocktranslate with name=x %}``: the value escaped, the msgid looked up."""
    source = '{{ _("%(name)s 出")|fmt(name=who) }}'
    with translation.override("zh-hans"):
        assert render(source, who="<b>") == "&lt;b&gt; 出"
    with translation.override("en"):
        english = render(source, who="<b>")
    assert "&lt;b&gt;" in english and "出" not in english


def test_a_literals_translation_is_not_escaped():
    """``{% translate "…" %}`` keeps a literal's translation safe (Django's own rule)."""
    with translation.override("en"):
        assert render('{{ _("上一局结果") }}') == "Previous hand's result"
    assert render("{{ x }}", x="it's") == "it&#39;s"  # a variable still is escaped


def test_a_literal_in_a_context_takes_its_contexts_word():
    """``pgettext``: 保皇 alone is the game's name; as a "seat tag" it is the
    emperor's guard (the 保皇 roles line and result table say Guard in
    English, not Baohuang), in every language the catalog has it."""
    with translation.override("en"):
        assert render('{{ _("保皇") }}') == "Baohuang"
        assert render('{{ pgettext("seat tag", "保皇") }}') == "Guard"
    with translation.override("zh-hant"):
        assert render('{{ pgettext("seat tag", "庄家") }}') == "莊家"
    with translation.override("zh-hans"):
        assert render('{{ pgettext("seat tag", "保皇") }}') == "保皇"


def test_none_and_default_if_none_behave_as_in_a_django_template():
    assert render("{% if x is none %}none{% endif %}", x=None) == "none"
    assert render("{% if x is not none %}set{% endif %}", x=0) == "set"
    assert render("{{ x|default_if_none('-') }}", x=None) == "-"
    assert render("{{ zero|default_if_none('-') }}", zero=0) == "0"
    assert render("{{ x|default(false) }}") == "False"  # an optional variable says so


@pytest.mark.parametrize("source", [
    "{{ missing }}", "[{{ table.gone }}]", "{% if table.gone %}x{% endif %}",
    "{% if table.gone is none %}x{% endif %}", "{{ table.gone|default_if_none('-') }}",
    "{{ _('%(n)s 张')|fmt(n=table.gone) }}", "{{ none_value.attribute }}",
])
def test_a_missing_name_or_field_fails_the_render(source):
    """Strict undefined: a renamed field of the table fails loudly instead of
    printing nothing (Django's templates would print nothing)."""
    with pytest.raises(UndefinedError):
        render(source, table=SimpleNamespace(seats=()), none_value=None)


def test_url_follows_the_script_prefix():
    assert render('{{ url("room", 5) }}') == reverse("room", args=[5])
    try:
        set_script_prefix("/cards/")
        assert render('{{ url("room", 5) }}') == "/cards/rooms/5/"
    finally:
        set_script_prefix("/")
    assert render('{{ url("room", 5) }}') == "/rooms/5/"


def test_a_dicts_key_reads_as_jinja2_reads_it():
    """``x.name`` on a dict reads the key first (no AttributeError raised and
    caught per read): the same values as Jinja2's own order for keys, dict
    methods still reachable when no key shadows them; a missing key is
    strict undefined: reading it fails the render."""
    row = {"index": 3, "name": "<b>", "nested": {"count": 2}}
    assert render("{{ row.index }} {{ row.name }} {{ row.nested.count }}", row=row) == "3 &lt;b&gt; 2"
    for missing in ("{{ row.missing }}", "{{ row.missing.deeper }}", "{{ row.missing is none }}"):
        with pytest.raises(UndefinedError):
            render(missing, row=row)
    assert render("{{ row.keys()|list|length }}", row=row) == "3"
    assert isinstance(jinja.environment(), jinja.TableEnvironment)
