"""A game in progress: the table, the seats' players, the dice and the log
(``session``); the game every front end plays, declared (``protocol``),
and the quiet talk of a game at one keyboard (``talk``).

Imports the engine and the players.
"""
