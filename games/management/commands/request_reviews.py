"""``python manage.py request_reviews [--last K] [--again]``: ask for the
reviews of the last ``K`` completed hands, as the site does after a
hand with a human.  ``--again`` first deletes their stored reviews, so that
the review worker has work to do (to measure live tables while reviews run:
docs/review.md).  Prints how many were asked for."""

from django.core.management.base import BaseCommand
from games.models import Hand, HandReview
from games.services.reviews import request_review


class Command(BaseCommand):
    help = "Queue the reviews of the last completed hands."

    def add_arguments(self, parser):
        parser.add_argument("--last", type=int, default=100)
        parser.add_argument("--again", action="store_true",
                            help="delete their stored reviews first (benchmarks only)")

    def handle(self, *args, **opts):
        hands = list(Hand.objects.filter(complete=True).select_related("match__room")
                     .order_by("-id")[:max(0, opts["last"])])
        if opts["again"]:
            HandReview.objects.filter(hand__in=hands).delete()
        asked = 0
        for hand in hands:
            if (hand.summary or {}).get("voided"):
                continue
            review = request_review(hand)
            asked += review.status == HandReview.Status.PENDING
        self.stdout.write(f"reviews asked for: {asked} of {len(hands)} hands")
