"""``python -m punto.cli``."""

from punto.cli import main

raise SystemExit(main())
