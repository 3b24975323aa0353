"""Connecting the command line to a Ray cluster (``punto simulate --ray ADDRESS``).

Ray itself retries an unreachable ``HOST:PORT`` for many minutes; a person at a terminal
wants to hear at once that nothing answers there, so the command line knocks first (the
library, :func:`punto.simulation.simulate`, then joins the cluster).
"""

from __future__ import annotations

import socket

from punto.errors import SimulationError

__all__ = ["RAY_CONNECT_TIMEOUT", "check_ray_address", "ray_endpoint"]

RAY_CONNECT_TIMEOUT = 5.0
"""Seconds to wait for a Ray head's port to answer before giving up."""


def ray_endpoint(address: str) -> tuple[str, int] | None:
    """The host and port a ``HOST:PORT`` or ``ray://HOST:PORT`` address names, or ``None``
    for a symbolic address (``auto``, ``local``) that Ray resolves itself.

    >>> ray_endpoint("ray://head:10001"), ray_endpoint("[::1]:6379"), ray_endpoint("auto")
    (('head', 10001), ('::1', 6379), None)
    """
    _, _, rest = address.rpartition("://")
    host, sep, port = rest.rpartition(":")
    if not sep or not port.isdigit():
        return None
    return host.strip("[]"), int(port)


def check_ray_address(address: str) -> None:
    """Fail at once with a :class:`SimulationError` when nothing answers at a
    ``HOST:PORT`` ``address`` (a symbolic one is left to Ray)."""
    endpoint = ray_endpoint(address)
    if endpoint is None:
        return
    try:
        socket.create_connection(endpoint, timeout=RAY_CONNECT_TIMEOUT).close()
    except OSError as exc:
        raise SimulationError(
            f"no Ray cluster answers at {address!r} ({exc.strerror or exc}); "
            "start one (ray start --head) or give its address"
        ) from None
