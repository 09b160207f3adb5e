"""The rules of the game as data and code: cards, rule sets, the table.

The bottom layer: no I/O, no curses, no globals; randomness comes in as a
``random.Random``.  Everything above imports from here, never the reverse.
"""
