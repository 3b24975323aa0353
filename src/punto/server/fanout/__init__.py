"""Messages out and in: the WebSocket layer, the hub and the bus between processes.

Owns the wire protocol (client messages parsed into typed commands, no I/O), the frames and
envelopes a table publishes, the hub that fans them out to this process's connections with
backpressure, the bus (local or Redis) between processes, the requests one process sends
the owner of a table, and the WebSocket endpoint. May import the rules core,
:mod:`punto.codec`, :mod:`punto.server.auth` and :mod:`punto.server.services`; it knows
nothing of money or SQL.
"""
