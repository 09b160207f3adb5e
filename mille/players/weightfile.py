"""Reading a file of weights, the learned computer's or the value's: JSON
read once a process and built into a model, or one line saying why not."""

from __future__ import annotations

import json
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
