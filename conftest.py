"""Pytest configuration shared by the doctests and the test suite."""

collect_ignore = ["src/punto/__main__.py", "src/punto/cli/__main__.py"]
