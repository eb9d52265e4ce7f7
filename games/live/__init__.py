"""The live path: websocket consumers and routing, the fan-out hub, the room snapshot and its prepared reads, notify, the socket's scope."""
