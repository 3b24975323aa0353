"""The rooms around a table: chat, complaints, game recall, video and clips, the back
office, reports and lobby preferences.

Each module owns one feature's logic; its SQL is the store's. May import the rules core,
:mod:`punto.ledger`, :mod:`~punto.server.store`, :mod:`~punto.server.fanout` and
:mod:`~punto.server.services`; never the runner or the HTTP layer.
"""
