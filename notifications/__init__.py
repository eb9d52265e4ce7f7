"""Notifications to members: an in-site list with an unread count
pushed over a websocket, e-mail with one-click unsubscribe per kind."""
