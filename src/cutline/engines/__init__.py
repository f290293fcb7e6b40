"""Pure engines: media in, typed result out. No HTTP, database, queue or settings here."""
