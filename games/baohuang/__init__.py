"""保皇 on the site: the game's :class:`~games.registry.GameSpec` (``spec.py``),
its board templates (``templates/games/baohuang/``) and wording.  The rules
are the engine's (:mod:`games.engine.baohuang`)."""
