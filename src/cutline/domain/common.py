"""Identifiers and time: the small shared vocabulary of the domain."""

from __future__ import annotations

import secrets
from datetime import UTC, datetime, timedelta


def new_id(prefix: str) -> str:
    """A random URL-safe id such as ``prj_3kT9...``; the prefix names the resource."""
    return f"{prefix}_{secrets.token_urlsafe(12).replace('-', 'x').replace('_', 'z')}"


def utcnow() -> datetime:
    return datetime.now(UTC)


def as_utc(moment: datetime) -> datetime:
    # SQLite hands timestamps back naive; they were written in UTC.
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def rfc3339(moment: datetime) -> str:
    return as_utc(moment).astimezone(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def utc_day(moment: datetime) -> str:
    return as_utc(moment).strftime("%Y-%m-%d")


def next_utc_midnight(moment: datetime) -> datetime:
    start = as_utc(moment).replace(hour=0, minute=0, second=0, microsecond=0)
    return start + timedelta(days=1)
