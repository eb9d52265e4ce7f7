"""四副牌升級 on the site: the game's :class:`~games.registry.GameSpec`
(``spec.py``), the table's extra context (``table.py``), its board templates
and static files.  The rules are the engine's (:mod:`games.engine.shengji`)."""
