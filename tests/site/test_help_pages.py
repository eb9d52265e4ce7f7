"""Rules and help pages for both games in three languages, the
home page for a newcomer, and the links refusals point to."""

from __future__ import annotations

import json
import re
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.test import Client

from accounts.models import LevelTitle
from games import registry
from games.render.rulings import rule_url
from games.render.tables import RULE_MESSAGES

pytestmark = pytest.mark.django_db

ROOT = Path(settings.BASE_DIR)
#: The rules as the three per-language pages rendered them before the one
#: translated template: ``{game: {language: markup and text, normalised}}``.
BEFORE = json.loads((Path(__file__).resolve().parent / "data" / "rules_before.json").read_text("utf-8"))

LANGS = {"zh-hans": "管牌", "zh-hant": "管牌", "en": "Beating a set"}


@pytest.mark.parametrize("lang", ["zh-hans", "zh-hant", "en"])
@pytest.mark.parametrize("game", ["baohuang", "shengji"])
def test_rules_page_in_each_language_with_the_ladder(game, lang):
    html = Client(HTTP_ACCEPT_LANGUAGE=lang).get(f"/help/{game}/").content.decode()
    assert f'lang="{lang}"' in html
    titles = list(LevelTitle.objects.filter(game=game).order_by("threshold"))
    assert len(titles) == 18
    ladder = re.search(r'<section id="titles">.*?</section>', html, re.S).group(0)
    assert all(str(t.threshold) in ladder for t in titles)
    if lang == "en":
        assert "Rules" in html and "規則" not in html
    elif lang == "zh-hant":
        assert "規則" in html and "规则" not in html
    else:
        assert "规则" in html


def test_every_refusal_rule_has_an_anchor_on_its_page():
    """Each ruling a refusal may cite links to a section that exists."""
    for spec in registry.specs():
        for rule in {**RULE_MESSAGES, **spec.rule_messages}:
            game = spec.code
            url = rule_url(game, rule)
            page, anchor = url.split("#")
            html = Client().get(page).content.decode()
            assert f'id="{anchor}"' in html, url


def test_rules_page_edits_follow_the_admin_ladder():
    row = LevelTitle.objects.get(game="baohuang", level_no=18)
    row.threshold = 999999
    row.save()
    assert "999999" in Client().get("/help/baohuang/").content.decode()


def test_home_explains_the_site_and_links_rules():
    html = Client(HTTP_ACCEPT_LANGUAGE="en").get("/").content.decode()
    assert "play Shengji and Baohuang" in html
    assert 'href="/help/shengji/"' in html and 'href="/help/baohuang/"' in html
    assert 'href="/help/"' in html


def _translate_tool():
    import importlib.util

    pytest.importorskip("opencc")
    root = Path(__file__).resolve().parents[2]
    spec = importlib.util.spec_from_file_location("cardroom_translate", root / "locale" / "translate.py")
    translate = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(translate)
    return translate


def test_traditional_rules_are_the_conversion_of_the_simplified_ones():
    """One source per rules page: every Traditional entry of the rules
    templates (message contexts "<game> rules" and "<game> rules contents") is
    ``locale/translate.py``'s OpenCC conversion of its Simplified msgid, so the
    two cannot drift (a fix to the Traditional text goes into the tool's
    term list)."""
    translate = _translate_tool()
    po = polib.pofile(str(ROOT / "locale" / "zh_Hant" / "LC_MESSAGES" / "django.po"))
    rules = [e for e in po if e.msgctxt and e.msgctxt.split(" ", 1)[-1] in ("rules", "rules contents")]
    assert len(rules) > 80
    assert [e.msgid for e in rules if e.msgstr != translate.to_hant(e.msgid)] == []
    assert any(translate.to_hant(e.msgid) != e.msgid for e in rules)  # the conversion did change the text


def _normalised(html: str) -> str:
    """Markup and text with runs of white space made one space and the white
    space between two tags dropped (the old per-language files laid out their
    lines differently)."""
    html = re.sub(r"\s+", " ", html)
    return re.sub(r">\s+<", "><", html).strip()


@pytest.mark.parametrize("lang", ["zh-hans", "zh-hant", "en"])
@pytest.mark.parametrize("game", ["baohuang", "shengji"])
def test_one_rules_template_renders_each_language_as_before(game, lang):
    """The one translated template renders, in each language, the same rules
    (markup and text) as the per-language page it replaced (kept, normalised,
    in ``tests/site/data/rules_before.json``)."""
    html = Client(HTTP_ACCEPT_LANGUAGE=lang).get(f"/help/{game}/").content.decode()
    body = re.search(r'(<nav class="toc".*?)<section id="titles">', html, re.S).group(1)
    assert _normalised(body) == BEFORE[game][lang]


def test_rules_template_is_one_per_game():
    for game in ("baohuang", "shengji"):
        folder = ROOT / "games" / game / "templates" / "games" / game
        assert sorted(p.name for p in folder.glob("rules*.html")) == ["rules.html"]
