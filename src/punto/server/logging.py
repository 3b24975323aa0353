"""Structured logs: one JSON object per line (time, level, logger, message and the
``extra`` fields a call passes, such as ``table`` and ``game``).

>>> import logging
>>> record = logging.LogRecord("punto.server", logging.INFO, "x", 1, "hand settled",
...                            None, None)
>>> record.table = "macau-1"
>>> '"table": "macau-1"' in JsonFormatter().format(record)
True
"""

from __future__ import annotations

import json
import logging
import re
import sys
from datetime import UTC, datetime
from typing import Any

__all__ = ["JsonFormatter", "configure_logging", "mask_tokens"]

_STANDARD = set(logging.LogRecord("", 0, "", 0, "", None, None).__dict__) | {
    "message",
    "asctime",
    "taskName",
}


_TOKEN = re.compile(r"(token=)[^&\s\"']+")


def mask_tokens(text: str) -> str:
    """Hide session tokens (``?token=…`` in WebSocket URLs) from the logs.

    >>> mask_tokens('"WebSocket /ws/tables/t1?token=abc.def" [accepted]')
    '"WebSocket /ws/tables/t1?token=***" [accepted]'
    """
    return _TOKEN.sub(r"\1***", text)


class JsonFormatter(logging.Formatter):
    """Formats a record as one JSON line."""

    def format(self, record: logging.LogRecord) -> str:
        """The record as JSON."""
        data: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": mask_tokens(record.getMessage()),
        }
        for key, value in record.__dict__.items():
            if key not in _STANDARD and not key.startswith("_"):
                text = value if isinstance(value, str | int | float | bool) else str(value)
                data[key] = mask_tokens(text) if isinstance(text, str) else text
        if record.exc_info:
            data["exception"] = self.formatException(record.exc_info)
        return json.dumps(data)


def configure_logging(level: str = "INFO") -> None:
    """Send the ``punto`` and ``uvicorn`` logs to stderr as JSON lines."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter())
    for name in ("punto", "uvicorn", "uvicorn.error", "uvicorn.access"):
        logger = logging.getLogger(name)
        logger.handlers[:] = [handler]
        logger.setLevel(level.upper())
        logger.propagate = False
