"""The read side: fold the log through the engine, verify, time travel, reports, formats."""
