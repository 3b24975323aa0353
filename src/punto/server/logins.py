"""The login throttle: failed logins slow down the client that makes them, never the
account they aim at.

Failures are counted per client (its address) and per client and account. Past a number
of free failures each further one makes that caller wait, twice as long as the last time,
up to a longest cool-down; while it waits its logins are refused (429) without a password
check. An account's owner logging in from another client is never slowed by a flood
against their name, and the caller itself may try again, the right password included,
once its cool-down is over. No I/O: the time is passed in.

>>> throttle = LoginThrottle(per_account=2, per_address=10, delay=1.0, longest=60.0)
>>> throttle.attempt("ann", "10.0.0.1", now=0.0); throttle.attempt("ann", "10.0.0.1", now=1.0)
>>> throttle.wait("ann", "10.0.0.1", now=1.5)
0.5
>>> throttle.wait("ann", "10.0.0.2", now=1.5) is None  # the owner, elsewhere
True
>>> throttle.attempt("ann", "10.0.0.1", now=2.0)  # the next failure doubles the wait
>>> throttle.wait("ann", "10.0.0.1", now=2.0)
2.0
>>> throttle.succeeded("ann", "10.0.0.1", now=2.0)  # the right password, once it waited
>>> throttle.wait("ann", "10.0.0.1", now=2.0) is None
True
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass

__all__ = ["LoginThrottle", "client_key"]

_MAX_ENTRIES = 100_000
"""The most callers remembered at once (a flood of addresses cannot take all memory)."""


def client_key(address: str) -> str:
    """The client a login comes from: its IPv4 address, or the /64 network of an IPv6 one
    (one subscriber holds a whole /64, and would otherwise get a fresh count per address).

    >>> client_key("203.0.113.7"), client_key("2001:db8:1:2:aa:bb:cc:dd")
    ('203.0.113.7', '2001:db8:1:2::/64')
    >>> client_key("::ffff:203.0.113.7"), client_key("testclient")
    ('203.0.113.7', 'testclient')
    """
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


@dataclass(slots=True)
class _Strikes:
    """One caller's failures: how many, and when its cool-down ends (the last failure's
    time while it has none)."""

    count: int
    until: float


class LoginThrottle:
    """Failed logins counted per client (``per_address`` free failures, over all the
    accounts it tries) and per client and account (``per_account`` free failures). Each
    failure past the free ones makes that caller wait: ``delay`` seconds the first time,
    doubled each further time, never more than ``longest``. A caller's failures are
    forgotten ``longest`` seconds after its last cool-down ends; a good password clears
    the failures of that client and account (not the client's own, which a flood with
    one known password would otherwise reset)."""

    def __init__(self, *, per_account: int, per_address: int, delay: float, longest: float) -> None:
        self._free = {"account": per_account, "address": per_address}
        self._delay = delay
        self._longest = longest
        self._strikes: dict[tuple[str, ...], _Strikes] = {}

    @staticmethod
    def _keys(account: str, address: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
        return ("account", address, account), ("address", address)

    def _current(self, key: tuple[str, ...], now: float) -> _Strikes | None:
        strikes = self._strikes.get(key)
        if strikes is not None and now >= strikes.until + self._longest:
            del self._strikes[key]
            return None
        return strikes

    def wait(self, account: str, address: str, *, now: float) -> float | None:
        """Seconds the caller (``address`` trying ``account``) must still wait before it
        may try, or ``None`` when it may try now."""
        waits = [
            strikes.until - now
            for key in self._keys(account, address)
            if (strikes := self._current(key, now)) is not None and strikes.until > now
        ]
        return max(waits) if waits else None

    def attempt(self, account: str, address: str, *, now: float) -> None:
        """Count a login of ``account`` from ``address`` as failed, before its password is
        checked (concurrent attempts cannot all pass :meth:`wait` before the first fails):
        :meth:`succeeded` takes it back."""
        for key in self._keys(account, address):
            strikes = self._current(key, now) or _Strikes(0, now)
            strikes.count += 1
            beyond = strikes.count - self._free[key[0]]
            strikes.until = (
                now + min(self._delay * 2 ** min(beyond, 62), self._longest) if beyond >= 0 else now
            )
            self._strikes[key] = strikes
        if len(self._strikes) > _MAX_ENTRIES:
            self._forget(now)

    def succeeded(self, account: str, address: str, *, now: float) -> None:
        """A good password: the failures of this client for this account are cleared, and
        this attempt no longer counts against the client."""
        pair, client = self._keys(account, address)
        self._strikes.pop(pair, None)
        strikes = self._strikes.get(client)
        if strikes is not None:
            strikes.count = max(0, strikes.count - 1)
            if strikes.count < self._free["address"]:
                strikes.until = min(strikes.until, now)

    def _forget(self, now: float) -> None:
        for key in list(self._strikes):
            self._current(key, now)
        if len(self._strikes) > _MAX_ENTRIES // 2:  # still a flood: keep the latest half
            latest = sorted(self._strikes.items(), key=lambda item: item[1].until)
            self._strikes = dict(latest[-(_MAX_ENTRIES // 2) :])
