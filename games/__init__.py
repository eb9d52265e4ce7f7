"""The games app: rooms, tables, hands, actions, live updates and bots.

``games.engine`` is the pure-Python rules core and imports nothing from Django.
"""
