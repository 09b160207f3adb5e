"""The talk of a game at one keyboard: nothing said, as a value.

:data:`QUIET` is what a local game's ``talk`` is
(:class:`mille.game.protocol.Talk`): started, nobody away, no marks, no
lines, every key offered.  A front end reads it as it reads a network
table's talk, and never asks which it has.

>>> QUIET.started, QUIET.mark(1), QUIET.status(1), QUIET.notes, QUIET.refused_keys
(True, '', '', (), ())
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Quiet:
    """The talk of a table that says nothing (see the module docstring)."""

    started: bool = True
    notes: tuple[tuple[int, str], ...] = ()
    refused_keys: tuple[str, ...] = ()

    def status(self, seat: int) -> str:
        """Nobody's presence is told: ""."""
        return ""

    def mark(self, seat: int) -> str:
        """No mark beside a name."""
        return ""


QUIET = Quiet()
