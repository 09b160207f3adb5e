"""The table's former name: ``Host`` is :class:`mille.net.table.Table`
(the server and the tests import it so).  "The host" means the person
who opened the table, and their seat; the table is a ``Table``."""

from __future__ import annotations

from .seating import clean_name
from .table import HANDLERS, HOST_ONLY, Table, new_code

Host = Table

__all__ = ["HANDLERS", "HOST_ONLY", "Host", "clean_name", "new_code"]
