"""A small reference operator: the seamless wallet contract over HTTP, balances in memory.

It implements ``POST /wallet/debit``, ``POST /wallet/credit``, ``POST /wallet/rollback``,
``GET /wallet/balance/{player_id}`` and ``GET /wallet/transactions/{id}`` exactly as
``docs/ledger.md`` describes: idempotent by transaction id, and a rollback that arrives
before its debit leaves a tombstone so the late debit is refused. Each player's wallet is in
one currency (``currency``, else EUR): a call naming another is refused (409
``wrong_currency``). Tests drive it through
``httpx.ASGITransport`` (:meth:`ReferenceOperator.fail` makes it fail on cue);
``python -m punto.ledger.operator_ref --balance alice=100000`` serves it with uvicorn.

>>> operator = ReferenceOperator({"alice": 1000})
>>> operator.debit({"transaction_id": "t1", "player_id": "alice", "amount": 300})
(200, {'transaction_id': 't1', 'status': 'ok', 'balance': 700})
>>> operator.debit({"transaction_id": "t1", "player_id": "alice", "amount": 300})[1]["status"]
'replayed'
>>> operator.rollback({"transaction_id": "t2", "player_id": "alice", "amount": 50})[1]["status"]
'tombstoned'
>>> operator.debit({"transaction_id": "t2", "player_id": "alice", "amount": 50})
(409, {'error': 'rolled_back', 'message': 'transaction t2 was rolled back before it arrived'})
"""

from __future__ import annotations

import argparse
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from punto.errors import AuthError
from punto.ledger.signing import SIGNATURE_HEADER, verify

__all__ = ["ReferenceOperator", "create_app", "main", "opening_balances", "operator_parser"]

Answer = tuple[int, dict[str, Any]]


@dataclass(slots=True)
class _Record:
    kind: str
    player_id: str
    amount: int
    rolled_back: bool = False


def _error(status: int, error: str, message: str) -> Answer:
    return status, {"error": error, "message": message}


class ReferenceOperator:
    """An operator's wallet in memory: player balances and every transaction it saw.

    Each method takes the JSON body of its endpoint and answers ``(status, body)``.
    ``requests`` counts the calls that reached it (tests look at it).
    """

    def __init__(
        self,
        balances: Mapping[str, int] | None = None,
        *,
        currency: str = "EUR",
        currencies: Mapping[str, str] | None = None,
    ) -> None:
        self.balances: dict[str, int] = dict(balances or {})
        self.currency = currency
        """The currency of every player's wallet not named in ``currencies``."""
        self.currencies: dict[str, str] = dict(currencies or {})
        self.requests = 0
        self._records: dict[str, _Record] = {}
        self._tombstones: dict[str, str] = {}
        self._faults: dict[str, tuple[int, bool]] = {}

    def fail(self, action: str, *, times: int = 1_000_000, applied: bool = False) -> None:
        """Answer the next ``times`` calls of ``action`` (``debit``, ``credit``,
        ``rollback``) with HTTP 500 — after doing them when ``applied`` (the operator
        took the money, then its answer broke). Tests make the operator fail with it."""
        self._faults[action] = (times, applied)

    def heal(self) -> None:
        """Stop failing."""
        self._faults.clear()

    def fault(self, action: str) -> bool | None:
        """Whether this call of ``action`` fails: ``None`` no, else whether it is applied
        first (one of the ``times`` used up)."""
        times, applied = self._faults.get(action, (0, False))
        if times <= 0:
            return None
        self._faults[action] = (times - 1, applied)
        return applied

    def transaction(self, tid: str) -> Answer:
        """What this operator holds of the call ``tid`` (reconciliation)."""
        record = self._records.get(tid)
        if record is not None:
            status = "rolled_back" if record.rolled_back else "ok"
            body = {"kind": record.kind, "player_id": record.player_id, "amount": record.amount}
            return 200, {"transaction_id": tid, **body, "status": status}
        if tid in self._tombstones:
            player = self._tombstones[tid]
            body = {"kind": "tombstone", "player_id": player, "amount": 0}
            return 200, {"transaction_id": tid, **body, "status": "tombstoned"}
        return _error(404, "unknown_transaction", f"no transaction {tid!r}")

    def _read(self, body: Mapping[str, Any], *, amount: bool = True) -> Answer | _Record:
        self.requests += 1
        tid, player, value = body.get("transaction_id"), body.get("player_id"), body.get("amount")
        if not isinstance(tid, str) or not tid or not isinstance(player, str) or not player:
            return _error(400, "bad_request", "transaction_id and player_id are required")
        if amount and (isinstance(value, bool) or not isinstance(value, int) or value <= 0):
            return _error(400, "bad_request", "amount must be a positive integer (minor units)")
        if player not in self.balances:
            return _error(404, "unknown_player", f"no player {player!r}")
        wrong = self.wrong_currency(player, body.get("currency"))
        if wrong is not None:
            return wrong
        return _Record("", player, value if isinstance(value, int) else 0)

    def wrong_currency(self, player: str, currency: object) -> Answer | None:
        """The refusal of a call naming a currency that is not the player's wallet's."""
        held = self.currencies.get(player, self.currency)
        if currency is None or currency == held:
            return None
        return _error(409, "wrong_currency", f"{player}'s wallet is in {held}, not {currency}")

    def _seen(self, tid: str, wanted: _Record) -> Answer | None:
        if tid in self._tombstones:
            return _error(
                409, "rolled_back", f"transaction {tid} was rolled back before it arrived"
            )
        record = self._records.get(tid)
        if record is None:
            return None
        if (record.kind, record.player_id, record.amount) != (
            wanted.kind,
            wanted.player_id,
            wanted.amount,
        ):
            return _error(409, "idempotency_conflict", f"transaction {tid} was a different call")
        if record.rolled_back:
            return _error(409, "rolled_back", f"transaction {tid} was rolled back")
        return 200, self._ok(tid, record.player_id, "replayed")

    def _ok(self, tid: str, player: str, status: str) -> dict[str, Any]:
        return {"transaction_id": tid, "status": status, "balance": self.balances[player]}

    def debit(self, body: Mapping[str, Any]) -> Answer:
        """Take ``amount`` from the player; 402 when the balance is short."""
        read = self._read(body)
        if not isinstance(read, _Record):
            return read
        read.kind = "debit"
        tid = str(body["transaction_id"])
        seen = self._seen(tid, read)
        if seen is not None:
            return seen
        if self.balances[read.player_id] < read.amount:
            return _error(402, "insufficient_funds", f"{read.player_id} cannot cover {read.amount}")
        self.balances[read.player_id] -= read.amount
        self._records[tid] = read
        return 200, self._ok(tid, read.player_id, "ok")

    def credit(self, body: Mapping[str, Any]) -> Answer:
        """Give ``amount`` to the player."""
        read = self._read(body)
        if not isinstance(read, _Record):
            return read
        read.kind = "credit"
        tid = str(body["transaction_id"])
        seen = self._seen(tid, read)
        if seen is not None:
            return seen
        self.balances[read.player_id] += read.amount
        self._records[tid] = read
        return 200, self._ok(tid, read.player_id, "ok")

    def rollback(self, body: Mapping[str, Any]) -> Answer:
        """Undo a debit; one not seen yet is tombstoned so it is refused if it arrives."""
        read = self._read(body, amount=False)
        if not isinstance(read, _Record):
            return read
        tid = str(body["transaction_id"])
        record = self._records.get(tid)
        if record is None:
            status = "replayed" if tid in self._tombstones else "tombstoned"
            self._tombstones[tid] = read.player_id
            return 200, self._ok(tid, read.player_id, status)
        if record.kind != "debit" or record.player_id != read.player_id:
            return _error(409, "idempotency_conflict", f"transaction {tid} is not this debit")
        if record.rolled_back:
            return 200, self._ok(tid, record.player_id, "replayed")
        record.rolled_back = True
        self.balances[record.player_id] += record.amount
        return 200, self._ok(tid, record.player_id, "rolled_back")


def create_app(
    operator: ReferenceOperator | None = None,
    *,
    api_key: str | None = None,
    secret: str | None = None,
) -> Starlette:
    """The operator as an ASGI app (``app.state.operator`` is the :class:`ReferenceOperator`);
    with ``api_key``, every call needs ``Authorization: Bearer <api_key>``; with ``secret``,
    every call must be signed (``X-Punto-Signature`` of its body, or of its path when it has
    none), and an unsigned or badly signed one is refused with 401."""
    wallet = operator or ReferenceOperator()

    async def authorized(request: Request) -> bool:
        if api_key is not None:
            given = request.headers.get("authorization", "")
            if not secrets.compare_digest(given.encode(), f"Bearer {api_key}".encode()):
                return False
        if secret is not None:
            body = await request.body()
            raw_path = request.scope.get("raw_path") or request.url.path.encode()
            signed = body if body else bytes(raw_path).split(b"?")[0]
            try:
                verify(secret, signed, request.headers.get(SIGNATURE_HEADER))
            except AuthError:
                return False
        return True

    def endpoint(action: str) -> Any:
        async def handle(request: Request) -> JSONResponse:
            if not await authorized(request):
                return JSONResponse({"error": "unauthorized", "message": "bad credentials"}, 401)
            try:
                body = await request.json()
            except ValueError:
                body = None
            if not isinstance(body, dict):
                return JSONResponse({"error": "bad_request", "message": "a JSON object"}, 400)
            key = request.headers.get("idempotency-key")
            expected = body.get("transaction_id")
            if action == "rollback":
                expected = f"rollback:{expected}"
            if key is not None and key != expected:
                return JSONResponse(
                    {"error": "bad_request", "message": "Idempotency-Key does not match"}, 400
                )
            fault = wallet.fault(action)
            if fault is not None:
                if fault:
                    getattr(wallet, action)(body)
                return JSONResponse({"error": "internal", "message": "operator fault"}, 500)
            status, answer = getattr(wallet, action)(body)
            return JSONResponse(answer, status)

        return handle

    async def balance(request: Request) -> JSONResponse:
        if not await authorized(request):
            return JSONResponse({"error": "unauthorized", "message": "bad credentials"}, 401)
        player = request.path_params["player_id"]
        if player not in wallet.balances:
            return JSONResponse({"error": "unknown_player", "message": player}, 404)
        wrong = wallet.wrong_currency(player, request.query_params.get("currency"))
        if wrong is not None:
            return JSONResponse(wrong[1], wrong[0])
        return JSONResponse({"player_id": player, "balance": wallet.balances[player]})

    async def transaction(request: Request) -> JSONResponse:
        if not await authorized(request):
            return JSONResponse({"error": "unauthorized", "message": "bad credentials"}, 401)
        status, answer = wallet.transaction(request.path_params["transaction_id"])
        return JSONResponse(answer, status)

    app = Starlette(
        routes=[
            Route("/wallet/transactions/{transaction_id:path}", transaction, methods=["GET"]),
            Route("/wallet/debit", endpoint("debit"), methods=["POST"]),
            Route("/wallet/credit", endpoint("credit"), methods=["POST"]),
            Route("/wallet/rollback", endpoint("rollback"), methods=["POST"]),
            Route("/wallet/balance/{player_id}", balance, methods=["GET"]),
        ]
    )
    app.state.operator = wallet
    return app


def operator_parser(prog: str) -> argparse.ArgumentParser:
    """The command line of a reference operator served for local testing: where it
    listens, and its players' wallets (``--currency``, ``--balance``)."""
    parser = argparse.ArgumentParser(prog=prog)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8100)
    parser.add_argument("--currency", default="EUR", help="the players' wallets' currency")
    parser.add_argument(
        "--balance",
        action="append",
        default=[],
        metavar="PLAYER=MINOR_UNITS",
        help="a player's opening balance in minor units (repeatable)",
    )
    return parser


def opening_balances(items: Sequence[str]) -> dict[str, int]:
    """The ``--balance PLAYER=MINOR_UNITS`` items, by player."""
    balances = {}
    for item in items:
        player, _, amount = item.partition("=")
        balances[player] = int(amount)
    return balances


def main(argv: Sequence[str] | None = None) -> int:
    """Serve the reference operator with uvicorn (local testing only)."""
    import uvicorn

    parser = operator_parser("python -m punto.ledger.operator_ref")
    parser.add_argument("--api-key", help="require Authorization: Bearer KEY")
    parser.add_argument("--secret", help="require every call signed with SECRET")
    args = parser.parse_args(argv)
    balances = opening_balances(args.balance)
    uvicorn.run(
        create_app(
            ReferenceOperator(balances, currency=args.currency),
            api_key=args.api_key,
            secret=args.secret,
        ),
        host=args.host,
        port=args.port,
    )
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
