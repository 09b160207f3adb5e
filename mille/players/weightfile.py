"""Reading a file of weights, the learned computer's or the value's: JSON
read once a process and built into a model, or one line saying why not."""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from typing import Any, TypeVar

Model = TypeVar("Model")


def read(
    path: str,
    what: str,
    error: type[ValueError],
    build: Callable[[Any], Model],
    cache: dict[str, Model],
) -> Model:
    """The model that ``build`` makes of the JSON at ``path``, kept in
    ``cache`` (a file is read once a process); ``error`` (``what: ...``)
    when the file cannot be read or holds no JSON.

    >>> read("/nonexistent/w.json", "weights", ValueError, dict, {})
    Traceback (most recent call last):
    ...
    ValueError: weights: cannot read /nonexistent/w.json: No such file or directory
    """
    if path in cache:
        return cache[path]
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except OSError as exc:
        raise error(f"{what}: cannot read {path}: {exc.strerror}") from None
    except ValueError as exc:
        raise error(f"{what}: not JSON ({exc})") from None
    model = build(data)
    cache[path] = model
    return model


def header(
    data: Any, what: str, error: type[ValueError], form: str, version: int, body: str
) -> dict[str, Any]:
    """``data`` as a file of this ``form`` and ``version`` holds it: an
    object with ``format``, ``version``, ``features``, ``body`` and perhaps
    ``trained``; ``error`` (``what: ...``) says what is wrong."""
    if not isinstance(data, dict):
        raise error(f"{what}: expected an object")
    keys = ("format", "version", "features", body)
    for key in keys:
        if key not in data:
            raise error(f"{what}: missing key {key!r}")
    for key in data:
        if key not in (*keys, "trained"):
            raise error(f"{what}: unknown key {str(key)[:40]!r}")
    if data["format"] != form:
        raise error(f"{what}: format must be {form!r}")
    found = data["version"]
    if isinstance(found, bool) or found != version:
        raise error(f"{what}: version {str(found)[:20]} is not {version}")
    return data


def number(value: Any, what: str, error: type[ValueError], where: str) -> float:
    """``value``, a finite number; ``error`` (``what: where holds a
    non-number``) if it is not."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise error(f"{what}: {where} holds a non-number")
    return float(value)


def trained(data: dict[str, Any], what: str, error: type[ValueError]) -> dict[str, Any]:
    """What the training reported (an object; none if not said)."""
    found = data.get("trained", {})
    if not isinstance(found, dict):
        raise error(f"{what}: trained must be an object")
    return found
