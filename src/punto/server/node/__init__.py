"""One server process: its stores, its bank, the tables it owns, and the way to the others.

A :class:`Node` owns the tables whose lease it holds (``server_table_leases``), runs one
:class:`~punto.server.tables.runner.TableRunner` for each, and routes every request about a table
to its owner: straight to the runner when the table is here, through the bus (Redis) when
another process owns it. On start it migrates the database, creates the demo tables and
accounts (``make run``), recovers each table's ledger rounds and starts dealing. On stop it
finishes or safely stops each table's hand, then gives its leases up.

One module a concern, each an object handed what it needs: :mod:`.process` (the
:class:`Node`, its life cycle), :mod:`.accounts` (logins and sessions), :mod:`.roster`
(dealers' names), :mod:`.leases` (the tables owned here), :mod:`.routing` (owners and the
way to them), :mod:`.play` (clients' requests at a table), :mod:`.jurisdiction` (a launched player's
jurisdiction switches at the tables owned here), :mod:`.lobby`, :mod:`.admin`
(table changes), :mod:`.corrections` [O], :mod:`.mirror` (table balances following
wallets), :mod:`.answers` (requests from other processes), :mod:`.upkeep` (the outbox and
video pruning) and :mod:`.demo`. It may import every other part of :mod:`punto.server`
but :mod:`~punto.server.app`, :mod:`~punto.server.http` and :mod:`~punto.server.fanout.ws`,
which import it.
"""

from punto.server.node.demo import DEMO_USERS
from punto.server.node.process import Node

__all__ = ["DEMO_USERS", "Node"]
