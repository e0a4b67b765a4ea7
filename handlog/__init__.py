"""handlog: a hand-history recorder and replayer for live No-Limit Texas Hold'em tournaments.

The design card's folders (engine/, schema/, replay/, recorder/, migrations/) stay at the
repository's top; this package links them under one import name, so handlog installs nothing
generic (`schema`, `engine`) on a user's path: `handlog.engine`, `handlog.schema`, ...
It imports nothing, so the tablet's offline engine can load it too."""
