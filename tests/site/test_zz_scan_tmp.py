import re, html as htmlmod, collections
import polib, pytest
from django.test import Client
from games import services
from games.models import Room, Seat
from games.runtime.tasks import play_turn
from tests.conftest import make_due

pytestmark = pytest.mark.django_db
HAN = re.compile(r"[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]+")

def texts(page):
    page = re.sub(r"(?s)<script.*?</script>|<style.*?</style>", " ", page)
    attrs = re.findall(r'(?:title|aria-label|alt|placeholder|data-label)="([^"]*)"', page)
    body = re.sub(r"<[^>]+>", "\n", page)
    return [htmlmod.unescape(t) for t in attrs] + [htmlmod.unescape(t) for t in body.split("\n")]

@pytest.mark.parametrize("game", ["shengji", "baohuang"])
def test_scan(game, alice, multipliers):
    room = services.create_room(alice, game, "Room", turn_seconds=30, bot_delay_ms=0)
    services.fill_bots(room, alice, "heuristic")
    services.set_ready(room, alice, True)
    found = {"en": collections.Counter(), "zh-hant": collections.Counter()}
    clients = {}
    for lang in found:
        c = Client(); c.force_login(alice); c.cookies["django_language"] = lang; clients[lang] = c
    hands = set()
    for step in range(900):
        room.refresh_from_db()
        for lang, c in clients.items():
            page = c.get(f"/rooms/{room.pk}/").content.decode() if step % 50 == 0 else c.get(f"/rooms/{room.pk}/table").content.decode()
            for t in texts(page):
                for m in HAN.findall(t):
                    found[lang][(m, t.strip()[:80])] += 1
        h = services.current_hand(room)
        if h and h.status == "completed" if hasattr(h, "status") else False:
            hands.add(h.pk)
        make_due(room)
        if play_turn(room.pk, room.version) == "timeout":
            Seat.objects.filter(room=room, user__isnull=False).update(autoplay=False)
    from games.models import Hand
    for h in Hand.objects.filter(match__room=room):
        for lang, c in clients.items():
            for url in (f"/hands/{h.pk}/replay/", f"/hands/{h.pk}/replay/?step=0", f"/hands/{h.pk}/replay/?step=30"):
                page = c.get(url).content.decode()
                for t in texts(page):
                    for m in HAN.findall(t):
                        found[lang][("R:" + m, t.strip()[:80])] += 1
    with open(f"tmp/scan-{game}.txt", "w") as f:
        for lang, cnt in found.items():
            f.write(f"== {lang}\n")
            for (m, t), n in sorted(cnt.items()):
                f.write(f"{n:5} {m!r} in {t!r}\n")
