"""The committed translation catalogs are complete and current ("the
live table in the player's language"), and the newer apps' pages (clubs and
events, leaderboards, quick play) render in English for an English user.

The catalogs are read with polib (a dev requirement), so a msgid spread over
several lines, a plural entry or a fuzzy flag is seen as gettext sees it.
"""

from __future__ import annotations

import re
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation

LANGS = ("en", "zh_Hant")
ROOT = Path(settings.BASE_DIR)
PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]|\{\{\s*(\w+)\s*\}\}")


def catalog(lang: str) -> polib.POFile:
    return polib.pofile(str(ROOT / "locale" / lang / "LC_MESSAGES" / "django.po"))


def untranslated(po: polib.POFile) -> list[str]:
    """msgids of live entries that are fuzzy or have an empty msgstr (any plural form)."""
    bad = []
    for entry in po:
        if entry.obsolete:
            continue
        if entry.msgid_plural:
            empty = not entry.msgstr_plural or not all(entry.msgstr_plural.values())
        else:
            empty = not entry.msgstr.strip()
        if empty or "fuzzy" in entry.flags:
            bad.append(entry.msgid)
    return bad


@pytest.mark.parametrize("lang", LANGS)
def test_every_msgid_has_a_translation(lang):
    po = catalog(lang)
    assert len(po) > 300, "catalog unexpectedly small"
    assert untranslated(po) == []


def test_the_completeness_check_sees_empty_fuzzy_and_multiline_entries():
    """The check above is real: it flags each way an entry can be missing."""
    po = polib.POFile()
    po.append(polib.POEntry(msgid="好", msgstr="Good"))
    po.append(polib.POEntry(msgid="空", msgstr=""))
    po.append(polib.POEntry(msgid="模糊", msgstr="Fuzzy", flags=["fuzzy"]))
    po.append(polib.POEntry(msgid="很长的一句话，" * 20, msgstr=""))  # wraps over several lines
    po.append(polib.POEntry(msgid="%(n)s 张", msgid_plural="%(n)s 张", msgstr_plural={0: "one", 1: ""}))
    po.append(polib.POEntry(msgid="旧", msgstr="", obsolete=True))
    reread = polib.pofile(str(po))
    assert untranslated(reread) == ["空", "模糊", "很长的一句话，" * 20, "%(n)s 张"]


def _translate_tool():
    import importlib.util

    pytest.importorskip("opencc")
    spec = importlib.util.spec_from_file_location("cardroom_translate", ROOT / "locale" / "translate.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_translate_tool_lists_missing_english_and_writes_none(tmp_path):
    """English lives in the .po file: ``locale/translate.py`` carries no
    English dictionary; after makemessages it lists the entries still without
    English (empty or fuzzy) and leaves their msgstr alone."""
    translate = _translate_tool()
    assert not hasattr(translate, "EN")
    po = polib.POFile()
    po.append(polib.POEntry(msgid="好", msgstr="Good"))
    po.append(polib.POEntry(msgid="空", msgstr=""))
    po.append(polib.POEntry(msgid="模糊", msgstr="Fuzzy?", flags=["fuzzy"]))
    path = tmp_path / "django.po"
    po.save(str(path))
    assert translate.check_en(path) == ["空", "模糊"]
    kept = {e.msgid: (e.msgstr, e.flags) for e in polib.pofile(str(path))}
    assert kept == {"好": ("Good", []), "空": ("", []), "模糊": ("Fuzzy?", ["fuzzy"])}


@pytest.mark.parametrize("lang", LANGS)
def test_translations_keep_the_placeholders(lang):
    """A msgstr names the same %(x)s placeholders as its msgid (else rendering
    raises KeyError or drops a value)."""
    wrong = []
    for entry in catalog(lang):
        if entry.obsolete or entry.msgid_plural:
            continue
        if set(PLACEHOLDER.findall(entry.msgid)) != set(PLACEHOLDER.findall(entry.msgstr)):
            wrong.append((entry.msgid, entry.msgstr))
    assert wrong == []


@pytest.mark.parametrize("lang", LANGS)
def test_compiled_catalog_matches_the_po_file(lang):
    """The committed .mo was compiled from the committed .po (compilemessages was run)."""
    po = catalog(lang)
    mo = polib.mofile(str(ROOT / "locale" / lang / "LC_MESSAGES" / "django.mo"))
    # keyed by context too: a heading's "游戏" ("Games") is not a field's ("Game")
    want = {(e.msgctxt, e.msgid): e.msgstr for e in po if not e.obsolete and not e.msgid_plural}
    have = {(e.msgctxt, e.msgid): e.msgstr for e in mo if e.msgid and not e.msgid_plural}
    assert have == want


TEMPLATE_STRING = re.compile(r"""\{%\s*(?:translate|trans)\s+(?:"([^"]+)"|'([^']+)')""")
#: ``{{ _("…") }}`` in a template (the table fragment's Jinja2 templates, games/render/jinja.py)
TEMPLATE_CALL = re.compile(r"""\b_\(\s*(?:"([^"\\]+)"|'([^'\\]+)')\s*\)""")
PYTHON_STRING = re.compile(r"""\b(?:_|gettext|gettext_lazy|gettext_noop)\(\s*"([^"\\]+)"\s*[),%]""")
SOURCE_SKIP = {".venv", "venv", "tests", "tmp", "locale", "node_modules", "migrations", ".git"}


def source_strings() -> dict[str, str]:
    """Literal msgids of ``{% translate "…" %}`` and ``{{ _("…") }}`` in
    templates and ``_("…")`` in project Python files → where one was found."""
    found = {}
    for path in ROOT.rglob("*"):
        if not path.is_file() or SOURCE_SKIP & set(path.relative_to(ROOT).parts):
            continue
        if path.suffix == ".html":
            text = path.read_text("utf-8")
            for m in TEMPLATE_STRING.finditer(text):  # makemessages doubles a tag's % signs
                found.setdefault((m.group(1) or m.group(2)).replace("%", "%%"),
                                 str(path.relative_to(ROOT)))
            for m in TEMPLATE_CALL.finditer(text):
                found.setdefault(m.group(1) or m.group(2), str(path.relative_to(ROOT)))
        elif path.suffix == ".py":
            for m in PYTHON_STRING.finditer(path.read_text("utf-8")):
                found.setdefault(m.group(1), str(path.relative_to(ROOT)))
    return found


def test_catalog_holds_every_literal_string_of_the_sources():
    """makemessages was run after the last translatable string was added: each
    literal one in the templates and Python sources is a msgid of both catalogs."""
    strings = source_strings()
    assert len(strings) > 300
    for lang in LANGS:
        msgids = {e.msgid for e in catalog(lang) if not e.obsolete}
        missing = {s: where for s, where in strings.items() if s not in msgids}
        assert missing == {}, lang


HAN = re.compile(r"[\u3400-\u9fff]+")


def visible_text(html: str) -> str:
    """The page's text without scripts, styles and the footer's language
    chooser (whose options name each language in itself)."""
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    html = re.sub(r'<form[^>]*action="/i18n/setlang/".*?</form>', " ", html, flags=re.S)
    return re.sub(r"<[^>]+>", " ", html)


@pytest.mark.django_db
def test_event_leaderboard_and_quick_play_pages_render_in_english(client, make_user, multipliers):
    """An English user (language cookie) sees no Chinese on the club, event
    (preview and running round, standings with tie-break labels), leaderboard
    and quick-play pages.  The data itself is ASCII: club, event, user names, and
    bot entrants created in English."""
    from accounts.models import PlayerStanding
    from clubs import services
    from clubs.running import events
    from ratings import compute
    from ratings.models import PlayerRating

    olga = make_user("olga")
    club = services.create_club(olga, "East club", "Fridays")
    event = events.create_event(olga, club, name="Friday cup", game="baohuang", rounds=2,
                                hands_per_round=1, bot_delay_ms=0)
    events.register(olga, event)
    with translation.override("en"):
        events.add_bot_entries(olga, event, 4)
    round_ = events.pair_round(olga, event)
    PlayerRating.objects.create(user=olga, game="baohuang", mu=30.0, rating=compute.display(30.0), hands=12, wins=5)
    PlayerStanding.objects.create(user=olga, game="baohuang", points=25)
    client.force_login(olga)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    pages = [reverse("event", args=[event.pk]), reverse("club", args=[club.pk]), reverse("club_list"),
             reverse("leaderboard", args=["baohuang"]),
             reverse("leaderboard", args=["shengji"]), reverse("quickplay", args=["baohuang"]),
             reverse("quickplay", args=["shengji"])]
    for url in pages:
        response = client.get(url)
        assert response.status_code == 200, url
        html = response.content.decode()
        assert 'lang="en"' in html, url
        assert HAN.findall(visible_text(html)) == [], url
        if "/ratings/baohuang/" in url:
            assert 'data-user="olga"' in html  # the board has a row to read
    events.start_round(olga, round_)
    html = client.get(reverse("event", args=[event.pk])).content.decode()
    assert "Start the round" not in html and "Go to your table" in html and "Standings" in html
    assert HAN.findall(visible_text(html)) == []
    # The same page for a zh-Hans reader is still Chinese (the check can fail).
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "zh-hans"
    html = client.get(reverse("event", args=[event.pk])).content.decode()
    assert "排名" in HAN.findall(visible_text(html))
