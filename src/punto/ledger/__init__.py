"""Punto's money layer: a double-entry ledger, its store, and the operator wallets.

- :mod:`punto.ledger.model` — the pure core: accounts, entries, transactions and the
  postings of a round (stake, settlement, refund, correction). No I/O.
- :mod:`punto.ledger.store` — the SQLAlchemy (async) store: idempotent, atomic posting,
  round settlement, recovery and the books check; its parts are
  :mod:`~punto.ledger.engine`, :mod:`~punto.ledger.records`, :mod:`~punto.ledger.rows`,
  :mod:`~punto.ledger.posting`, :mod:`~punto.ledger.confirms`, :mod:`~punto.ledger.rounds`,
  :mod:`~punto.ledger.audit` and :mod:`~punto.ledger.driver`.
- :mod:`punto.ledger.migrate` — the Alembic migrations, run programmatically.
- :mod:`punto.ledger.wallet` — the internal (transfer) and seamless (operator HTTP) wallets.
- :mod:`punto.ledger.operator_ref` — a small reference operator for the seamless contract.

See ``docs/ledger.md``.
"""

from __future__ import annotations

from punto.ledger.model import (
    Account,
    AccountKind,
    Entry,
    Line,
    Transaction,
    TransactionKind,
)

__all__ = ["Account", "AccountKind", "Entry", "Line", "Transaction", "TransactionKind"]
