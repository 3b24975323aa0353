"""Money at a table: every stake and payout goes through here before a player sees it.

Owns the bank (stakes, settlements, refunds, voids and corrections through the ledger and
the wallet), the confirm pipeline (a table's confirms batched under its lock) and the
process's group commit, and the durable outbox of seamless-wallet calls. May import the
rules core, :mod:`punto.ledger`, :mod:`punto.server.store` and
:mod:`punto.server.services`; never the fan-out or the HTTP layer.
"""
