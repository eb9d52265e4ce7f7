"""Ledger and ladder (ruling C4): credit, points, title_for, standings, the seeded ladder."""

import pytest
from django.contrib.auth import get_user_model
from django.db import IntegrityError

from accounts import ledger
from accounts.models import LevelTitle, PlayerStanding, PointsEntry

pytestmark = pytest.mark.django_db

#: The 18 rows of the shengji text's 遊戲等級 table, typed from the rule text.
EXPECTED_LADDER = [
    (1, "幼兒班", 0), (2, "學前班", 20), (3, "小學生", 40), (4, "國中生", 80),
    (5, "高中生", 160), (6, "大學生", 320), (7, "學士", 530), (8, "研究生", 776),
    (9, "碩士", 1040), (10, "博士生", 2080), (11, "助教", 4160), (12, "講師", 8320),
    (13, "副教授", 19704), (14, "教授", 35396), (15, "博導", 63716), (16, "院士", 114688),
    (17, "院長", 206440), (18, "校長", 371572),
]


@pytest.fixture
def alice():
    return get_user_model().objects.create_user("alice", password="x-Long-pass-42")


@pytest.fixture
def bob():
    return get_user_model().objects.create_user("bob", password="x-Long-pass-42")


@pytest.mark.parametrize("game", ["shengji", "baohuang"])
def test_data_migration_seeds_the_18_titles_for_each_game(game):
    rows = list(
        LevelTitle.objects.filter(game=game).order_by("threshold").values_list("level_no", "name", "threshold")
    )
    assert rows == EXPECTED_LADDER


def test_credit_creates_standing_and_entry(alice):
    entry = ledger.credit(alice, "shengji", 8)
    assert isinstance(entry, PointsEntry)
    assert (entry.user, entry.game, entry.delta, entry.reason, entry.hand_id) == (alice, "shengji", 8, "hand", None)
    assert ledger.points(alice, "shengji") == 8
    assert ledger.points(alice, "baohuang") == 0


def test_credit_accumulates_negative_and_per_game(alice, bob):
    ledger.credit(alice, "shengji", 8)
    ledger.credit(alice, "shengji", -2)
    ledger.credit(alice, "shengji", -5, reason="spade_ace")
    ledger.credit(alice, "baohuang", 12)
    ledger.credit(bob, "shengji", 5, reason="spade_ace")
    assert ledger.points(alice, "shengji") == 1
    assert ledger.points(alice, "baohuang") == 12
    assert ledger.points(bob, "shengji") == 5
    assert PlayerStanding.objects.filter(user=alice).count() == 2
    assert PointsEntry.objects.filter(user=alice, game="shengji").count() == 3
    # The standing equals the sum of the entries.
    assert sum(PointsEntry.objects.filter(user=alice, game="shengji").values_list("delta", flat=True)) == 1


def test_credit_is_atomic_entry_and_standing_roll_back_together(alice, monkeypatch):
    ledger.credit(alice, "shengji", 10)

    def boom(*args, **kwargs):
        raise IntegrityError("simulated failure while writing the entry")

    monkeypatch.setattr(PointsEntry.objects, "create", boom)
    with pytest.raises(IntegrityError):
        ledger.credit(alice, "shengji", 100)
    # The standing update made before the failing insert was rolled back.
    assert ledger.points(alice, "shengji") == 10
    assert PointsEntry.objects.filter(user=alice).count() == 1


def test_credit_rolls_back_with_the_callers_transaction(alice):
    from django.db import transaction

    with pytest.raises(RuntimeError):
        with transaction.atomic():
            ledger.credit(alice, "baohuang", 4)
            raise RuntimeError("the hand's settlement failed later on")
    assert ledger.points(alice, "baohuang") == 0
    assert not PointsEntry.objects.filter(user=alice).exists()


def test_credit_links_the_hand(alice):
    from games.models import Hand, Match, Room

    room = Room.objects.create(game="shengji", name="t", owner=alice, multiplier=2)
    match = Match.objects.create(room=room, number=1, start={})
    hand = Hand.objects.create(match=match, number=1, seed=1, deal={}, start={})
    entry = ledger.credit(alice, "shengji", 4, hand=hand)
    entry.refresh_from_db()
    assert entry.hand == hand
    assert list(hand.points_entries.all()) == [entry]
    assert ledger.credit(alice, "shengji", 2, hand=hand.pk).hand_id == hand.pk
    assert ledger.points(alice, "shengji") == 6


def test_credit_rejects_unknown_game_and_non_int(alice):
    with pytest.raises(ValueError):
        ledger.credit(alice, "poker", 1)
    with pytest.raises(TypeError):
        ledger.credit(alice, "shengji", 1.5)
    with pytest.raises(TypeError):
        ledger.credit(alice, "shengji", True)
    assert not PointsEntry.objects.exists()


def _boundary_cases():
    cases = [(-1_000_000, "幼兒班"), (-1, "幼兒班")]
    for i, (_no, name, threshold) in enumerate(EXPECTED_LADDER):
        below = EXPECTED_LADDER[i - 1][1] if i else "幼兒班"
        if threshold > 0:
            cases.append((threshold - 1, below))
        cases.append((threshold, name))
        cases.append((threshold + 1, name))
    cases.append((10**9, "校長"))
    return cases


@pytest.mark.parametrize("game", ["shengji", "baohuang"])
@pytest.mark.parametrize(("value", "expected"), _boundary_cases())
def test_title_for_every_boundary(game, value, expected):
    """C4: the highest row whose threshold ≤ points; negative points keep the first title."""
    assert ledger.title_for(game, value).name == expected


def test_title_for_follows_admin_edits_per_game():
    LevelTitle.objects.filter(game="baohuang", level_no=2).update(threshold=25)
    assert ledger.title_for("baohuang", 24).name == "幼兒班"
    assert ledger.title_for("shengji", 24).name == "學前班"


def test_title_for_unknown_game_and_empty_ladder():
    with pytest.raises(ValueError):
        ledger.title_for("poker", 0)
    LevelTitle.objects.filter(game="baohuang").delete()
    with pytest.raises(LevelTitle.DoesNotExist):
        ledger.title_for("baohuang", 0)


def test_standings_lists_both_games(alice):
    ledger.credit(alice, "shengji", 80)
    ledger.credit(alice, "baohuang", -3)
    result = ledger.standings(alice)
    # in the site's game order (games.registry)
    assert [(g, p, t.name) for g, p, t in result] == [("baohuang", -3, "幼兒班"), ("shengji", 80, "國中生")]


def test_standing_unique_per_user_and_game(alice):
    PlayerStanding.objects.create(user=alice, game="shengji")
    with pytest.raises(IntegrityError):
        PlayerStanding.objects.create(user=alice, game="shengji")


def test_reason_codes_are_shown_in_words(alice):
    from django.utils import translation

    with translation.override("zh-hans"):
        assert ledger.credit(alice, "baohuang", -3, reason="tribute-settlement").reason_display == "进贡折算"
        assert ledger.credit(alice, "shengji", 2).reason_display == "牌局结算"
        assert ledger.credit(alice, "shengji", 1, reason="something new").reason_display == "something new"
