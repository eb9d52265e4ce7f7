"""Clubs and tournaments: clubs with organisers and members, and
Swiss / round-robin / duplicate events played on the site's live tables.

:mod:`clubs.tournament` is the pure rules core (no Django).
"""
