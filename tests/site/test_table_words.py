"""Every word of the table in the reader's language: a whole hand of each
game (alice and heuristic bots, every step's table and the replay at several
steps) rendered for an English and a 繁體 reader.

* English: no Han character and no Chinese punctuation (、：（），) outside the
  players' names (bots are "Bot3" in English: their stored name, written in
  the dealer's language, is not shown);
* 繁體: no character that only Simplified Chinese uses (the characters of the
  catalog's msgids that no 繁體 translation uses: 张, 级, 机, …).

The language chooser, which names each language in itself, is left out.
"""

from __future__ import annotations

import html as htmlmod
import re
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.test import Client

from games import services
from games.models import Hand, Seat
from games.runtime.tasks import play_turn
from tests.conftest import make_due

pytestmark = pytest.mark.django_db
HAN_OR_PUNCT = re.compile(r"[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]")


def simplified_only() -> set[str]:
    """Characters of the msgids that no 繁體 msgstr contains."""
    po = polib.pofile(str(Path(settings.BASE_DIR) / "locale" / "zh_Hant" / "LC_MESSAGES" / "django.po"))
    source, target = set(), set()
    for e in po:
        source |= set(e.msgid)
        target |= set(e.msgstr)
        for v in e.msgstr_plural.values():
            target |= set(v)
    return {c for c in source - target if "\u3400" <= c <= "\u9fff"}


def texts(page: str) -> list[str]:
    """Text lines and the aria-label/title/placeholder/alt values of ``page``
    (scripts, styles and the language chooser left out)."""
    page = re.sub(r"(?s)<script.*?</script>|<style.*?</style>", " ", page)
    page = re.sub(r'(?s)<form[^>]*action="/i18n/setlang/".*?</form>', " ", page)
    attrs = re.findall(r'(?:title|aria-label|alt|placeholder)="([^"]*)"', page)
    body = re.sub(r"<[^>]+>", "\n", page)
    return [htmlmod.unescape(t).strip() for t in attrs + body.split("\n") if t.strip()]


@pytest.mark.parametrize("game", ["shengji", "baohuang"])
def test_a_hand_and_its_replay_in_english_and_traditional(game, alice, multipliers):
    room = services.create_room(alice, game, "Room", turn_seconds=30, bot_delay_ms=0)
    services.fill_bots(room, alice, "heuristic")
    services.set_ready(room, alice, True)
    clients = {}
    for lang in ("en", "zh-hant"):
        clients[lang] = Client()
        clients[lang].force_login(alice)
        clients[lang].cookies["django_language"] = lang
    simp = simplified_only()
    bad = {"en": set(), "zh-hant": set()}

    def read(lang, url):
        for line in texts(clients[lang].get(url).content.decode()):
            line = line.replace("alice", "")
            if lang == "en" and HAN_OR_PUNCT.search(line):
                bad[lang].add((url.split("?")[0].rsplit("/", 2)[-2], line[:100]))
            if lang == "zh-hant" and set(line) & simp:
                bad[lang].add((url.split("?")[0].rsplit("/", 2)[-2], line[:100]))

    for step in range(700):
        room.refresh_from_db()
        for lang in clients:
            read(lang, f"/rooms/{room.pk}/table" if step % 25 else f"/rooms/{room.pk}/")
        make_due(room)
        if play_turn(room.pk, room.version) == "timeout":
            Seat.objects.filter(room=room, user__isnull=False).update(autoplay=False)
        if Hand.objects.filter(match__room=room, complete=True).count() >= 2:
            break
    hands = list(Hand.objects.filter(match__room=room, complete=True))
    assert hands
    for hand in hands:
        for lang in clients:
            for step in ("0", "15", "60", ""):
                read(lang, f"/hands/{hand.pk}/replay/?step={step}")
    assert bad == {"en": set(), "zh-hant": set()}


def test_no_chinese_in_the_english_catalog():
    """No English msgstr holds a Han character or Chinese punctuation (a
    "bid with 比牌" once reached the English home page).  The rules pages
    (message contexts "<game> rules", "<game> rules contents") are the one
    exception: they teach the game's own terms, which players meet at mixed
    tables and in other players' chat, so an English term is followed by its
    Chinese name ("Tribute (进贡)") there and nowhere else."""
    po = polib.pofile(str(Path(settings.BASE_DIR) / "locale" / "en" / "LC_MESSAGES" / "django.po"))
    glossary = ("rules", "rules contents")
    found = [
        (e.msgid, s) for e in po if not e.obsolete
        and not (e.msgctxt and e.msgctxt.split(" ", 1)[-1] in glossary)
        for s in [e.msgstr, *e.msgstr_plural.values()] if HAN_OR_PUNCT.search(s)
    ]
    assert found == []
