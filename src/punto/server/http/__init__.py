"""The HTTP surface: the REST routes and the ASGI middleware that guards them.

Owns the routes of ``docs/protocol.md`` §2 and the guard (input limits before parsing,
security headers). May import any part of the server; nothing in the server imports it but
:mod:`punto.server.app`.
"""
