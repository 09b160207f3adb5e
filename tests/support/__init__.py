"""Helpers shared by the tests: tables built card by card (``builders``),
a fake curses window (``fakewindow``), the installed ``mille`` in a
pseudo-terminal (``screen``), the cards a seat cannot see dealt again
(``hidden``)."""
