"""Persistence: SQLAlchemy tables, the database handle, queries and blob stores."""
