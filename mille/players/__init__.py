"""Who makes the moves: the ``Player`` protocol, the registry of computers
and the computers themselves, and the hint (which asks the expert).

Imports only the engine.
"""
