"""Issue #11: rules and help pages for both games in three languages, the
home page for a newcomer, and the links refusals point to."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from accounts.models import LevelTitle
from games import registry
from games.pages.rulings import rule_url
from games.render.tables import RULE_MESSAGES

pytestmark = pytest.mark.django_db

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


@pytest.mark.parametrize("game", ["baohuang", "shengji"])
def test_traditional_rules_page_is_the_conversion_of_the_simplified_one(game):
    """One source per rules page: ``rules.zh-hant.html`` must equal
    ``locale/translate.py``'s OpenCC conversion of ``rules.zh-hans.html``, so an
    edit of the Simplified page that was not regenerated fails here (run
    ``python locale/translate.py``)."""
    import importlib.util
    from pathlib import Path

    pytest.importorskip("opencc")
    root = Path(__file__).resolve().parents[2]
    spec = importlib.util.spec_from_file_location("cardroom_translate", root / "locale" / "translate.py")
    translate = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(translate)
    folder = root / "games" / game / "templates" / "games" / game
    source = (folder / "rules.zh-hans.html").read_text(encoding="utf-8")
    assert (folder / "rules.zh-hant.html").read_text(encoding="utf-8") == translate.to_hant(source)
    assert translate.to_hant(source) != source  # the conversion did change the text
