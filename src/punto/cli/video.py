"""``punto video prune [--dir DIR] [--retention SECONDS] [--json]``.

Deletes the tables' video recordings older than the retention [L] ("video is kept 24
hours"), as the server's background task does: segments whose picture ended before
``now - retention``, then playlists with nothing left. The folder is ``--dir``, else
``$PUNTO_RECORDINGS_DIR``; the retention ``--retention``, else ``$PUNTO_VIDEO_RETENTION``,
else 86400 seconds. Hands whose video was deleted then answer "video gone".
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

from punto.cli.output import description_of, write_json
from punto.errors import ServerError

__all__ = ["register", "run_prune"]


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``video`` subcommand and its ``prune`` action."""
    parser = subparsers.add_parser(
        "video",
        help="the tables' video recordings",
        description="Manage the tables' video recordings (video by game number).",
    )
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    prune = actions.add_parser(
        "prune",
        help="delete the recordings older than the retention",
        description=description_of(__doc__),
    )
    prune.add_argument("--dir", metavar="DIR", help="the recordings folder ($PUNTO_RECORDINGS_DIR)")
    prune.add_argument(
        "--retention",
        metavar="SECONDS",
        type=float,
        help="keep this many seconds of video ($PUNTO_VIDEO_RETENTION, default 86400)",
    )
    prune.add_argument("--json", action="store_true", help="answer in JSON")
    prune.set_defaults(handler=run_prune)


def run_prune(args: argparse.Namespace) -> int:
    """Prune the recordings; print what was deleted."""
    from punto.server.features.recordings import Recordings

    folder = args.dir or os.environ.get("PUNTO_RECORDINGS_DIR")
    if not folder:
        raise ServerError("no recordings folder: pass --dir or set PUNTO_RECORDINGS_DIR")
    retention = args.retention
    if retention is None:
        try:
            retention = float(os.environ.get("PUNTO_VIDEO_RETENTION") or 24 * 3600)
        except ValueError:
            raise ServerError("PUNTO_VIDEO_RETENTION must be a number of seconds") from None
    if retention < 0:
        raise ServerError("the retention cannot be negative")
    root = Path(folder)
    if not root.is_dir():
        raise ServerError(f"no recordings folder {str(root)!r}")
    pruned = Recordings(root).prune(now=time.time(), retention=retention)
    if args.json:
        write_json(
            {
                "segments": pruned.segments,
                "playlists": pruned.playlists,
                "bytes": pruned.bytes,
                "horizon": pruned.horizon,
            }
        )
    else:
        print(
            f"deleted {pruned.segments} segments ({pruned.bytes} bytes) and "
            f"{pruned.playlists} playlists recorded before {time.ctime(pruned.horizon)}",
            file=sys.stdout,
        )
    return 0
