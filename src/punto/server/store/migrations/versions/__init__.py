"""The server's schema revisions."""
