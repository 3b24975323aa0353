"""``python -m punto``."""

from punto.cli import main

raise SystemExit(main())
