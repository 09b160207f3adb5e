"""Play over the network: the protocol (``wire``), what a seat is sent and
may do (``seats``, the one module that reads the session), the host's
server (``server``) and the client's connection (``client``).

Imports the engine, the players, the game and the storage; the front ends
(``frontends.remote``) draw what the client receives.  Standard library
only: asyncio, one JSON object a line (``docs/protocol.md``).
"""
