"""The Jinja2 templates' messages (the live table fragment) are extracted as
Jinja2 reads them, plurals and contexts included, and each one is a live,
translated entry of both catalogs.

Django's own ``makemessages`` reads these templates as Django templates and
misses their ``ngettext()`` and ``pgettext()`` calls, so a run marked those
entries obsolete and the table fell back to Chinese; the project's
``makemessages`` (``games/management/commands/makemessages.py``) reads them
with the Jinja2 environment.  The extraction here is the command's own.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.core.management.commands import makemessages as django_makemessages

from games.management.commands import makemessages
from games.management.commands.makemessages import Message, jinja_messages, jinja_template_dirs, python_stub

pytestmark = pytest.mark.pure  # no topology: files and the template engines only

ROOT = Path(settings.BASE_DIR)
LANGS = ("en", "zh_Hant")


def catalog(lang: str) -> polib.POFile:
    return polib.pofile(str(ROOT / "locale" / lang / "LC_MESSAGES" / "django.po"))


def template_messages() -> dict[tuple[str | None, str, str | None], str]:
    """``(context, msgid, plural)`` of every gettext call with literal strings
    in every Jinja2 template → where it is first called (``path:line``,
    relative to the project)."""
    found = {}
    for folder, env in makemessages.jinja_folders():
        for path in sorted(folder.rglob("*.html")):
            for message in jinja_messages(path.read_text("utf-8"), env):
                found.setdefault((message.context, message.msgid, message.plural), f"{path.relative_to(ROOT)}:{message.line}")
    return found


def not_live(po: polib.POFile, messages: dict[tuple[str | None, str, str | None], str]) -> list[str]:
    """The messages without a live entry in ``po``: none with their context,
    msgid and plural, or one that is obsolete, fuzzy or not translated (any
    plural form empty)."""
    live = {}
    for entry in po:
        if entry.obsolete or "fuzzy" in entry.flags:
            continue
        if entry.msgid_plural:
            translated = bool(entry.msgstr_plural) and all(v.strip() for v in entry.msgstr_plural.values())
        else:
            translated = bool(entry.msgstr.strip())
        if translated:
            live[(entry.msgctxt, entry.msgid, entry.msgid_plural or None)] = entry
    return [f"{where}: {key}" for key, where in messages.items() if key not in live]


def test_the_jinja_templates_are_found_and_read_with_plurals_and_contexts():
    dirs = jinja_template_dirs()
    assert ROOT / "games" / "jinja2" in dirs
    assert len(dirs) >= 3  # the generic folder and each game's
    messages = template_messages()
    assert len(messages) > 50
    assert any(plural for _, _, plural in messages), "no ngettext() call extracted"
    assert any(context for context, _, _ in messages), "no pgettext() call extracted"
    # one that Django's own makemessages missed (the table's card count)
    assert (None, "%(n)s 张", "%(n)s 张") in messages


@pytest.mark.parametrize("lang", LANGS)
def test_every_jinja_message_is_a_live_translated_entry(lang):
    assert not_live(catalog(lang), template_messages()) == []


def test_the_check_sees_an_obsolete_fuzzy_or_untranslated_plural_entry():
    """The check above can fail: a catalog in which one plural entry of a
    Jinja2 template is obsolete (what Django's makemessages did), fuzzy, or
    without one of its plural forms."""
    messages = template_messages()
    context, msgid, plural = key = next(k for k in messages if k[2])
    po = catalog("en")
    assert not_live(po, messages) == []
    for spoil in ("obsolete", "fuzzy", "empty"):
        spoilt = polib.pofile(str(po))
        entry = spoilt.find(msgid, msgctxt=context)
        assert entry is not None and entry.msgid_plural == plural
        if spoil == "obsolete":
            entry.obsolete = True
        elif spoil == "fuzzy":
            entry.flags.append("fuzzy")
        else:
            entry.msgstr_plural[1] = ""
        reread = polib.pofile(str(spoilt))
        assert [line.split(": ", 1)[1] for line in not_live(reread, messages)] == [str(key)], spoil


SOURCE = """<p>{{ _("一") }}</p>
{% if x %}{{ ngettext("%(n)s 张", "%(n)s 张", n)|fmt(n=n) }} {{ pgettext("tag", "二") }}{% endif %}
{{ _(variable) }}{{ npgettext("ctx", "%(n)s 个", "%(n)s 个", n) }}
{# a comment: _("不是消息") #}{{ gettext('it\\'s "三"') }}
"""


def test_a_template_becomes_python_calls_on_its_own_lines():
    env = makemessages.jinja_backends()[0].env
    assert jinja_messages(SOURCE, env) == [
        Message(1, "一"),
        Message(2, "%(n)s 张", "%(n)s 张"),
        Message(2, "二", context="tag"),
        Message(3, "%(n)s 个", "%(n)s 个", "ctx"),
        Message(4, "it's \"三\""),
    ]
    stub = python_stub(SOURCE, env)
    assert stub.split("\n")[:5] == [
        "gettext('一')",
        "ngettext('%(n)s 张', '%(n)s 张', 0); pgettext('tag', '二')",
        "npgettext('ctx', '%(n)s 个', '%(n)s 个', 0)",
        "gettext('it\\'s \"三\"')",
        "",
    ]
    compile(stub, "stub", "exec")


@pytest.mark.skipif(shutil.which("xgettext") is None, reason="needs GNU gettext's xgettext")
def test_xgettext_reads_the_calls_with_django_keywords_and_the_template_lines(tmp_path):
    """What Django's makemessages runs on the file written for a template."""
    stub = tmp_path / "t.html.py"
    stub.write_text(python_stub(SOURCE, makemessages.jinja_backends()[0].env), "utf-8")
    out = subprocess.run(
        ["xgettext", "--language=Python", "--from-code=UTF-8", "--keyword=pgettext:1c,2",
         "--keyword=npgettext:1c,2,3", "--output=-", stub.name],
        cwd=tmp_path, capture_output=True, text=True, check=True).stdout
    po = polib.pofile(out)
    got = {(e.msgctxt, e.msgid, e.msgid_plural or None): e.occurrences for e in po}
    assert got == {
        (None, "一", None): [("t.html.py", "1")],
        (None, "%(n)s 张", "%(n)s 张"): [("t.html.py", "2")],
        ("tag", "二", None): [("t.html.py", "2")],
        ("ctx", "%(n)s 个", "%(n)s 个"): [("t.html.py", "3")],
        (None, "it's \"三\"", None): [("t.html.py", "4")],
    }


def test_only_jinja_templates_are_read_as_jinja(monkeypatch):
    """A template under a Jinja2 backend's folder is read by its environment;
    a Django template and a Python module go Django's way."""
    command = makemessages.Command()

    def build(relative):
        path = Path(relative)
        translatable = django_makemessages.TranslatableFile("./" + str(path.parent), path.name, None)
        return makemessages.BuildFile(command, "django", translatable)

    monkeypatch.chdir(ROOT)  # makemessages works from the project's root
    jinja_file = next((ROOT / "games" / "jinja2").rglob("*.html")).relative_to(ROOT)
    django_file = next((ROOT / "templates").rglob("*.html")).relative_to(ROOT)
    assert build(jinja_file).jinja_env is not None
    assert build(django_file).jinja_env is None
    assert build("games/models.py").jinja_env is None
