"""The rules of live No-Limit Hold'em tournament tables: pure; no I/O, clock or randomness."""
