"""A test-only third game ("high card", code ``highcard``) registered through
the game registry, to show that a game needs no change to any site module."""
