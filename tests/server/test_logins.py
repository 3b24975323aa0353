"""The login throttle on its own: a caller's growing cool-downs, the account open to every
other client, the right password after the cool-down, and bounded memory."""

from __future__ import annotations

from punto.server.logins import LoginThrottle, client_key


def _throttle(**changes: float) -> LoginThrottle:
    settings = {"per_account": 3.0, "per_address": 10.0, "delay": 2.0, "longest": 60.0}
    settings.update(changes)
    return LoginThrottle(
        per_account=int(settings["per_account"]),
        per_address=int(settings["per_address"]),
        delay=settings["delay"],
        longest=settings["longest"],
    )


def test_free_failures_then_cool_downs_that_double_up_to_the_longest() -> None:
    throttle = _throttle()
    now = 0.0
    for _ in range(2):
        assert throttle.wait("ann", "10.0.0.1", now=now) is None
        throttle.attempt("ann", "10.0.0.1", now=now)
    assert throttle.wait("ann", "10.0.0.1", now=now) is None
    waits = []
    for _ in range(7):
        throttle.attempt("ann", "10.0.0.1", now=now)
        wait = throttle.wait("ann", "10.0.0.1", now=now)
        assert wait is not None
        waits.append(wait)
        now += wait
    assert waits == [2.0, 4.0, 8.0, 16.0, 32.0, 60.0, 60.0]


def test_a_flood_against_an_account_never_slows_its_owner_elsewhere() -> None:
    throttle = _throttle()
    for n in range(3):
        throttle.attempt("ann", "198.51.100.9", now=float(n))
    assert throttle.wait("ann", "198.51.100.9", now=3.0) is not None
    assert throttle.wait("ann", "203.0.113.5", now=3.0) is None
    assert throttle.wait("bob", "198.51.100.9", now=3.0) is None


def test_the_right_password_after_the_cool_down_clears_that_callers_failures() -> None:
    throttle = _throttle()
    for _ in range(3):
        throttle.attempt("ann", "10.0.0.1", now=0.0)
    assert throttle.wait("ann", "10.0.0.1", now=1.0) == 1.0
    throttle.attempt("ann", "10.0.0.1", now=2.0)  # the right password, checked
    throttle.succeeded("ann", "10.0.0.1", now=2.0)
    assert throttle.wait("ann", "10.0.0.1", now=2.0) is None
    throttle.attempt("ann", "10.0.0.1", now=2.0)  # the count starts again from nothing
    assert throttle.wait("ann", "10.0.0.1", now=2.0) is None


def test_a_client_failing_on_many_accounts_waits_for_any() -> None:
    throttle = _throttle(per_address=4)
    for name in ("a1", "a2", "a3", "a4"):
        throttle.attempt(name, "10.0.0.7", now=0.0)
    assert throttle.wait("someone", "10.0.0.7", now=0.0) == 2.0
    # A good login from the client does not reset its own count (it takes back only itself).
    throttle.attempt("ann", "10.0.0.7", now=2.0)
    throttle.succeeded("ann", "10.0.0.7", now=2.0)
    throttle.attempt("a5", "10.0.0.7", now=2.0)
    assert throttle.wait("someone", "10.0.0.7", now=2.0) == 4.0


def test_a_success_that_was_the_clients_last_free_attempt_starts_no_cool_down() -> None:
    throttle = _throttle(per_address=2)
    throttle.attempt("x", "10.0.0.8", now=0.0)
    throttle.attempt("ann", "10.0.0.8", now=0.0)
    assert throttle.wait("ann", "10.0.0.8", now=0.0) == 2.0  # while the password is checked
    throttle.succeeded("ann", "10.0.0.8", now=0.0)
    assert throttle.wait("bob", "10.0.0.8", now=0.0) is None


def test_failures_are_forgotten_a_longest_cool_down_after_the_last() -> None:
    throttle = _throttle()
    for _ in range(3):
        throttle.attempt("ann", "10.0.0.1", now=0.0)  # cool-down to 2 s
    throttle.attempt("ann", "10.0.0.1", now=61.5)  # still remembered: 4 s more
    assert throttle.wait("ann", "10.0.0.1", now=61.5) == 4.0
    throttle.attempt("ann", "10.0.0.1", now=65.5 + 60.0)  # forgotten: a first failure again
    assert throttle.wait("ann", "10.0.0.1", now=125.5) is None


def test_a_flood_of_addresses_keeps_memory_bounded() -> None:
    throttle = _throttle()
    for n in range(100_001):
        throttle.attempt("ann", f"client-{n}", now=float(n) / 1000)
    assert len(throttle._strikes) <= 100_000


def test_ipv6_clients_are_counted_by_their_64_network() -> None:
    assert client_key("2001:db8::1") == client_key("2001:db8::ffff:1") == "2001:db8::/64"
    assert client_key("2001:db8:0:1::1") != client_key("2001:db8::1")
    assert client_key("127.0.0.1") == "127.0.0.1"
