"""What handlog remembers: event types, the canonical codec, database tables and the event store."""
