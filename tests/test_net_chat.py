"""Chat lines (``game.limits.say_text``, ``presence.said_line``): the
host's cut of a line the joiner cut leaves it as it is, and an emoji
joined with a zero-width joiner is shown, not escaped."""

from __future__ import annotations

import pytest

from mille.engine.text import escape
from mille.frontends.remote.presence import said_line
from mille.game.limits import SAY_CHARACTERS, check_say, say_text
from mille.net.client import say_message

FAMILY = "\U0001f468\u200d\U0001f469\u200d\U0001f467"  # one picture: man, woman, girl
THUMBS = "\U0001f44d\U0001f3fd\u200d\u2642\ufe0f"  # a skin tone, then a joined sign


@pytest.mark.parametrize(
    "typed",
    [
        "a\u200e\u0301",  # an escape ending in e, an acute accent after it
        "\x0c\u0327ok",  # an escape ending in c, a cedilla after it
        "x" * (SAY_CHARACTERS - 4) + FAMILY,  # cut inside the emoji
        "x" * (SAY_CHARACTERS - 6) + FAMILY,
        "a\x07b " * 80,
        FAMILY * 100,
    ],
)
def test_the_hosts_cut_of_a_cut_line_leaves_it_as_it_is(typed: str) -> None:
    message = say_message(typed)
    assert message is not None
    line = message["text"]
    assert say_text(line) == line and check_say(line) is None


@pytest.mark.parametrize("emoji", [FAMILY, THUMBS])
def test_an_emoji_joined_is_shown_as_it_is(emoji: str) -> None:
    line = say_text(f"hi {emoji}!")
    assert line == f"hi {emoji}!" and check_say(line) is None
    said = said_line({"type": "said", "seat": 0, "name": "Ann", "text": line}, 1)
    assert said == f"Ann says: hi {emoji}!"


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("a\u200db", "a\\u200db"),  # a joiner between letters
        ("\u200d\U0001f469", "\\u200d\U0001f469"),  # nothing before it
        ("\U0001f468\u200d", "\U0001f468\\u200d"),  # nothing after it
        ("\U0001f468\u202e\U0001f469", "\U0001f468\\u202e\U0001f469"),  # another format character
    ],
)
def test_every_other_format_character_stays_escaped(text: str, shown: str) -> None:
    assert escape(text) == shown
