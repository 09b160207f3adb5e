"""Games kept on disk: save files (every version) and the recovery file of
an interrupted game.

``savefile`` is the save files' API (``dumps``, ``loads``, ``save_session``,
``load_session``, ``SaveError``); it uses ``current`` (the format written,
version 3), ``legacy`` (versions 2 and 1, still read), ``checks`` (the
checks of every value read, and ``SaveError``) and ``atomic`` (writing a
file atomically).  ``recovery`` keeps and finds the interrupted games.

Imports the game, the players and the engine.
"""
