"""The live path of event pages: ``consumers`` and ``routing`` (the event page's
websocket), ``notify`` (``event.changed`` after the commit) and ``receivers``
(a completed hand of an event table pushes its event page)."""
