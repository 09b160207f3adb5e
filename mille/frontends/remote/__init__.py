"""The remote seat: ``mille --join``, and the host's own seat of
``mille --host``, in one package (nothing is imported here, so the line
mode loads no board).

- ``link``: the join as one value (``Join``) and the connection to the
  host (``Link``), whose own states are return values, not messages;
- ``presence``: who is at the table, in words (both front ends');
- ``seat``: the seat's game (``RemoteSeat``) with its reconnection, the
  loop before the seat is taken, the host's end and the exit statuses,
  for the boards and the line mode alike;
- ``board_ui``: the seat on the boards (curses); ``lines``: in lines (no
  curses);
- ``tls``, ``joining`` (``mille --join``) and ``hosting`` (``mille --host``):
  the runners.
"""
