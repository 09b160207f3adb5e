"""What a person sees and types: the ``mille`` command, the curses boards
and the line mode.

The top layer; only modules here import curses.
"""
