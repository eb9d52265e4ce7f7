"""The one object this app registers with the generic modules
(:class:`moderation.apps.ModerationConfig`): :mod:`games.seating` (seats,
event entry), :mod:`games.services.chat` (who may talk, whose lines a reader
never gets) and :mod:`quickplay.rules` (who queues, who sits with whom)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from . import reputation, services


def _suspended_text(action) -> str:
    return _("你被禁赛了（%(until)s），不能入座、排队或报名比赛") % {"until": services.until_text(action)}


class Rules:
    """Suspensions, bans, chat mutes, blocks and reputation, as the generic
    modules ask about them; every answer is a query or two, by time (a
    sanction ends by itself)."""

    # games.seating
    def seat_refusal(self, room, user, index: int) -> str | None:
        """A suspended player takes no seat; a player blocked by the room's
        owner, who sits at it, neither (the sentence does not say why; an
        organiser's event tables, where he does not sit, seat whom the
        pairing says); a player below the room's minimum reputation neither."""
        if refusal := self.play_refusal(user):
            return refusal
        if room.owner_id and room.owner_id != user.pk and services.Block.objects.filter(
                user_id=room.owner_id, blocked=user).exists() and room.seats.filter(user_id=room.owner_id).exists():
            return _("这个房间现在不能入座")
        need = services.minimum(room)
        have = reputation.reputation(user) if need else None
        if need and have < need:
            return _("这个房间要求信誉至少 %(need)d（你的信誉：%(have)d）") % {"need": need, "have": have}
        return None

    def seat_annotations(self) -> dict:
        """The seated player's reputation, in the seats' own query."""
        from django.db.models import OuterRef, Subquery

        from .models import Standing

        return {"moderation_reputation": Subquery(
            Standing.objects.filter(user_id=OuterRef("user_id")).values("reputation")[:1])}

    def seat_note(self, seat) -> str | None:
        """"信誉 63" beside a seated name (a newcomer: the start value); its
        figure alone, "63", where a phone's seat is narrow."""
        from games.seating import Note

        from .models import START

        if not hasattr(seat, "moderation_reputation"):
            return None
        value = START if seat.moderation_reputation is None else seat.moderation_reputation
        return Note(_("信誉 %(n)d") % {"n": value}, str(value))

    def play_refusal(self, user) -> str | None:
        action = services.suspension(user)
        return _suspended_text(action) if action is not None else None

    # games.services.chat
    def chat_refusal(self, user) -> str | None:
        action = services.sanction(user, services.SANCTIONS)
        if action is None:
            return None
        return _("你被禁言了（%(until)s）") % {"until": services.until_text(action)}

    def hidden_authors(self, viewer):
        """The ids of the players ``viewer`` blocked, as a lazy query (the
        chat folds it into its own read of a line: no query of its own)."""
        return services.Block.objects.filter(user=viewer).values_list("blocked_id", flat=True)

    def line_report_url(self) -> str:
        from django.urls import reverse

        return reverse("moderation_report") + "?line="

    # quickplay.rules
    def queue_refusal(self, user) -> str | None:
        return self.play_refusal(user)

    def queue_excluded(self, user_ids) -> set[int]:
        return services.suspended_ids(user_ids)

    def queue_apart(self, user_ids):
        return services.blocks_between(user_ids)

    def queue_tier(self, user_ids) -> dict[int, int]:
        """Tier 1 for players below :data:`moderation.reputation.LOW`."""
        return {u: 1 for u, r in reputation.reputations(user_ids).items() if r < reputation.LOW}


RULE = Rules()
