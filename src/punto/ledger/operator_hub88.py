"""A small reference operator for the hub88 dialect: the Hub88 Operator wallet API over
HTTP, balances in memory per player and currency (in Hub88 units, 1/100000 of the unit).

It implements ``POST /user/balance``, ``/transaction/bet``, ``/transaction/win``,
``/transaction/rollback`` and the look-up extension ``/transaction/info``
(``docs/operators.md``): every call must carry ``X-Hub88-Signature`` verified with Punto's
public key (``RS_ERROR_INVALID_SIGNATURE`` otherwise); a transaction is idempotent by
``transaction_uuid`` (the same call again answers as the first time, moving nothing; a
different call under it is ``RS_ERROR_DUPLICATE_TRANSACTION``); a rollback of a bet it never
saw answers ``RS_ERROR_TRANSACTION_DOES_NOT_EXIST`` and keeps a tombstone, so that bet is
refused (``RS_ERROR_TRANSACTION_DOES_NOT_EXIST``) if it arrives later; a call in a currency
that is not the player's wallet's is ``RS_ERROR_WRONG_CURRENCY``.
``python -m punto.ledger.operator_hub88 --public-key punto.pub --balance alice=100000``
serves it with uvicorn.

>>> operator = Hub88Operator({"alice": 1000})
>>> bet = {"user": "alice", "transaction_uuid": "t1", "currency": "EUR", "amount": 300_000}
>>> operator.bet(bet)["status"], operator.balances["alice"]
('RS_OK', 700)
>>> operator.bet(bet)["status"], operator.balances["alice"]
('RS_OK', 700)
>>> operator.bet({**bet, "currency": "USD"})["status"]
'RS_ERROR_WRONG_CURRENCY'
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, MutableMapping, Sequence
from dataclasses import dataclass
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from punto.errors import AuthError
from punto.ledger.dialects.hub88 import from_units, to_units
from punto.ledger.operator_ref import opening_balances, operator_parser
from punto.ledger.signing import HUB88_SIGNATURE_HEADER, rsa_verify

__all__ = ["Hub88Operator", "create_app", "main"]

Answer = dict[str, Any]

ACTIONS = {"bet": "debit", "win": "credit", "rollback": "rollback"}
"""The Hub88 calls by the names of the wallet's own (what :meth:`Hub88Operator.fail` takes)."""


@dataclass(slots=True)
class _Record:
    kind: str  # bet, win or tombstone
    user: str
    currency: str
    amount: int
    round: str
    rolled_back: bool = False


class _Balances(MutableMapping[str, int]):
    """The players' balances in minor units of their own currency (tests read and set them)."""

    def __init__(self, operator: Hub88Operator) -> None:
        self._operator = operator

    def __getitem__(self, player: str) -> int:
        currency = self._operator.currency_of(player)
        return from_units(self._operator.wallets[(player, currency)], currency, exact=False)

    def __setitem__(self, player: str, amount: int) -> None:
        currency = self._operator.currency_of(player)
        self._operator.wallets[(player, currency)] = to_units(amount, currency)

    def __delitem__(self, player: str) -> None:
        del self._operator.wallets[(player, self._operator.currency_of(player))]

    def __iter__(self) -> Iterator[str]:
        return iter(dict.fromkeys(player for player, _ in self._operator.wallets))

    def __len__(self) -> int:
        return len({player for player, _ in self._operator.wallets})


class Hub88Operator:
    """An operator's Hub88 wallet in memory: ``wallets`` (player, currency) → Hub88 units,
    and every transaction it saw. ``balances`` (minor units of ``currency``) opens
    each player's wallet; ``currencies`` gives some players another currency.
    Each method takes the JSON body of its endpoint and answers the JSON answer."""

    def __init__(
        self,
        balances: Mapping[str, int] | None = None,
        *,
        currency: str = "EUR",
        currencies: Mapping[str, str] | None = None,
    ) -> None:
        self.currency = currency
        self.currencies = dict(currencies or {})
        self.wallets: dict[tuple[str, str], int] = {}
        self.requests = 0
        self._records: dict[str, _Record] = {}
        self._faults: dict[str, tuple[int, bool]] = {}
        self.balances: MutableMapping[str, int] = _Balances(self)
        for player, amount in (balances or {}).items():
            self.balances[player] = amount

    def currency_of(self, player: str) -> str:
        """The currency of the player's wallet."""
        return self.currencies.get(player, self.currency)

    # -- faults, as the punto reference operator has them ---------------------------

    def fail(self, action: str, *, times: int = 1_000_000, applied: bool = False) -> None:
        """Answer the next ``times`` calls of ``action`` (``debit``, ``credit``,
        ``rollback``) with HTTP 500, after doing them when ``applied``."""
        self._faults[action] = (times, applied)

    def heal(self) -> None:
        """Stop failing."""
        self._faults.clear()

    def fault(self, action: str) -> bool | None:
        """Whether this call of ``action`` fails (``None``: no; else whether applied first)."""
        times, applied = self._faults.get(action, (0, False))
        if times <= 0:
            return None
        self._faults[action] = (times - 1, applied)
        return applied

    # -- the calls --------------------------------------------------------------------

    def _answer(self, body: Mapping[str, Any], status: str = "RS_OK", **more: Any) -> Answer:
        user = body.get("user")
        answer: Answer = {"status": status, "request_uuid": body.get("request_uuid")}
        if isinstance(user, str) and (user, self.currency_of(user)) in self.wallets:
            currency = self.currency_of(user)
            answer.update(user=user, currency=currency, balance=self.wallets[(user, currency)])
        answer.update(more)
        return answer

    def _player(self, body: Mapping[str, Any], *, currency: bool) -> Answer | tuple[str, str]:
        self.requests += 1
        user = body.get("user")
        if not isinstance(user, str) or not user:
            return self._answer(body, "RS_ERROR_WRONG_SYNTAX")
        held = self.currency_of(user)
        if (user, held) not in self.wallets:
            return self._answer(body, "RS_ERROR_INVALID_TOKEN")
        if currency and body.get("currency") != held:
            return self._answer(body, "RS_ERROR_WRONG_CURRENCY")
        return user, held

    def balance(self, body: Mapping[str, Any]) -> Answer:
        """``/user/balance``."""
        read = self._player(body, currency=False)
        return read if isinstance(read, dict) else self._answer(body)

    def _transaction(self, body: Mapping[str, Any], kind: str) -> Answer | tuple[str, _Record]:
        read = self._player(body, currency=True)
        if isinstance(read, dict):
            return read
        user, currency = read
        uid, amount = body.get("transaction_uuid"), body.get("amount")
        if not isinstance(uid, str) or not uid:
            return self._answer(body, "RS_ERROR_WRONG_SYNTAX")
        if isinstance(amount, bool) or not isinstance(amount, int) or amount < 0:
            return self._answer(body, "RS_ERROR_WRONG_TYPES")
        return uid, _Record(kind, user, currency, amount, str(body.get("round", "")))

    def _seen(self, uid: str, wanted: _Record, body: Mapping[str, Any]) -> Answer | None:
        record = self._records.get(uid)
        if record is None:
            return None
        if record.kind == "tombstone" or (record.kind == "bet" and record.rolled_back):
            return self._answer(body, "RS_ERROR_TRANSACTION_DOES_NOT_EXIST")
        if (record.kind, record.user, record.currency, record.amount) != (
            wanted.kind,
            wanted.user,
            wanted.currency,
            wanted.amount,
        ):
            return self._answer(body, "RS_ERROR_DUPLICATE_TRANSACTION")
        return self._answer(body)  # a replay: the same answer, nothing moved

    def bet(self, body: Mapping[str, Any]) -> Answer:
        """``/transaction/bet``: take ``amount``; ``RS_ERROR_NOT_ENOUGH_MONEY`` when short."""
        read = self._transaction(body, "bet")
        if isinstance(read, dict):
            return read
        uid, record = read
        seen = self._seen(uid, record, body)
        if seen is not None:
            return seen
        key = (record.user, record.currency)
        if self.wallets[key] < record.amount:
            return self._answer(body, "RS_ERROR_NOT_ENOUGH_MONEY")
        self.wallets[key] -= record.amount
        self._records[uid] = record
        return self._answer(body)

    def win(self, body: Mapping[str, Any]) -> Answer:
        """``/transaction/win``: give ``amount``."""
        read = self._transaction(body, "win")
        if isinstance(read, dict):
            return read
        uid, record = read
        seen = self._seen(uid, record, body)
        if seen is not None:
            return seen
        self.wallets[(record.user, record.currency)] += record.amount
        self._records[uid] = record
        return self._answer(body)

    def rollback(self, body: Mapping[str, Any]) -> Answer:
        """``/transaction/rollback`` of the bet ``reference_transaction_uuid``: refunded once;
        one never seen is tombstoned (``RS_ERROR_TRANSACTION_DOES_NOT_EXIST``)."""
        read = self._player(body, currency=False)
        if isinstance(read, dict):
            return read
        user, currency = read
        reference = body.get("reference_transaction_uuid")
        if not isinstance(reference, str) or not reference:
            return self._answer(body, "RS_ERROR_WRONG_SYNTAX")
        record = self._records.get(reference)
        if record is None or record.kind == "tombstone":
            self._records[reference] = _Record("tombstone", user, currency, 0, "")
            return self._answer(body, "RS_ERROR_TRANSACTION_DOES_NOT_EXIST")
        if record.kind != "bet" or record.user != user:
            return self._answer(body, "RS_ERROR_DUPLICATE_TRANSACTION")
        if not record.rolled_back:
            record.rolled_back = True
            self.wallets[(record.user, record.currency)] += record.amount
        return self._answer(body)

    def info(self, body: Mapping[str, Any]) -> Answer:
        """``/transaction/info`` (the look-up extension): what it holds of a transaction."""
        uid = body.get("transaction_uuid")
        record = self._records.get(uid) if isinstance(uid, str) else None
        if record is None:
            return {"status": "RS_ERROR_TRANSACTION_DOES_NOT_EXIST"}
        return {
            "status": "RS_OK",
            "request_uuid": body.get("request_uuid"),
            "transaction_uuid": uid,
            "kind": record.kind,
            "user": record.user,
            "currency": record.currency,
            "amount": record.amount,
            "round": record.round,
            "rolled_back": record.rolled_back,
        }


def create_app(
    operator: Hub88Operator | None = None, *, public_key: str | None = None
) -> Starlette:
    """The operator as an ASGI app (``app.state.operator``); with ``public_key`` (PEM,
    Punto's), every call must be signed by its private key, else it is answered
    ``RS_ERROR_INVALID_SIGNATURE`` and changes nothing."""
    wallet = operator or Hub88Operator()

    def endpoint(name: str) -> Any:
        async def handle(request: Request) -> JSONResponse:
            raw = await request.body()
            if public_key is not None:
                try:
                    rsa_verify(public_key, raw, request.headers.get(HUB88_SIGNATURE_HEADER))
                except AuthError:
                    return JSONResponse({"status": "RS_ERROR_INVALID_SIGNATURE"})
            try:
                body = await request.json()
            except ValueError:
                body = None
            if not isinstance(body, dict):
                return JSONResponse({"status": "RS_ERROR_WRONG_SYNTAX"})
            action = ACTIONS.get(name)
            fault = wallet.fault(action) if action is not None else None
            if fault is not None:
                if fault:
                    getattr(wallet, name)(body)
                return JSONResponse({"error": "operator fault"}, 500)
            return JSONResponse(getattr(wallet, name)(body))

        return handle

    app = Starlette(
        routes=[
            Route("/user/balance", endpoint("balance"), methods=["POST"]),
            Route("/transaction/bet", endpoint("bet"), methods=["POST"]),
            Route("/transaction/win", endpoint("win"), methods=["POST"]),
            Route("/transaction/rollback", endpoint("rollback"), methods=["POST"]),
            Route("/transaction/info", endpoint("info"), methods=["POST"]),
        ]
    )
    app.state.operator = wallet
    return app


def main(argv: Sequence[str] | None = None) -> int:
    """Serve the reference hub88 operator with uvicorn (local testing only)."""
    import uvicorn

    parser = operator_parser("python -m punto.ledger.operator_hub88")
    parser.add_argument(
        "--public-key", metavar="FILE", help="Punto's PEM public key: require signed calls"
    )
    args = parser.parse_args(argv)
    balances = opening_balances(args.balance)
    public = None
    if args.public_key:
        with open(args.public_key, encoding="utf-8") as file:
            public = file.read()
    uvicorn.run(
        create_app(Hub88Operator(balances, currency=args.currency), public_key=public),
        host=args.host,
        port=args.port,
    )
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
