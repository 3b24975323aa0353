"""End-to-end tests of the web client: Debian's Chromium driven by Playwright against a real
``punto serve`` (see ``docs/web.md``)."""
