"""Games kept on disk: save files (every version) and the recovery file of
an interrupted game.

Imports the game, the players and the engine.
"""
