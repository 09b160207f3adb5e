"""A game in progress: the table, the seats' players, the dice and the log
(``session``).

Imports the engine and the players.
"""
