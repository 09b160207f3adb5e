"""``mille --replay [N|FILE]`` run: the game found (``replaying.find``,
its refusals) shown on its board, or in lines with ``--plain``."""

from __future__ import annotations

from ..i18n import N_, _

NO_TERMINAL = N_(
    "standard input and output must be a terminal (for plain lines on pipes: mille --replay --plain)"
)


def run(what: str, plain: bool = False, color: bool = True) -> int:
    """Show the game ``what`` names ("" the last recorded, digits a game's
    number, else a game file); the exit status (1 after a refusal, in one
    line: no such game, a board on standard input or output that is no
    terminal)."""
    from .replaying import find

    game = find(what)
    if game is None:
        return 1
    if plain:
        from .replay_lines import play

        return play(game)
    from .process import complain, is_terminal

    if not is_terminal():
        complain(None, _(NO_TERMINAL))
        return 1
    from .replay_ui import play as play_board

    return play_board(game, color)
