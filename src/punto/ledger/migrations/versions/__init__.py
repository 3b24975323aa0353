"""The ledger's migration revisions, oldest first."""
