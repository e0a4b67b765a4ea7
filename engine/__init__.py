"""The rules of live No-Limit Hold'em tournament tables: pure; no I/O, clock or randomness."""

HANDLOG_VERSION = "0.1.0"
"""The release of handlog: each hand records the one that decided it (recorder/__init__.py
re-exports it as __version__)."""
