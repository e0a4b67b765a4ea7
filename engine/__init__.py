"""The rules of live No-Limit Texas Hold'em tournament tables: pure, no I/O, no clock, no randomness."""
