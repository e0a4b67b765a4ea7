"""Migration scripts, oldest first; each is frozen once released (never edited, only added to)."""
