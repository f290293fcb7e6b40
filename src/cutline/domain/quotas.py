"""Daily quotas (database counters per workspace) and the per-key rate limit."""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from sqlalchemy import select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import Session

from cutline.domain.common import next_utc_midnight, utc_day
from cutline.errors import TooManyRequests
from cutline.store.tables import DailyUsage

DailyCounter = Literal["projects_created", "analysis_commands"]


@dataclass(frozen=True)
class UsageToday:
    projects_created: int
    analysis_commands: int
    resets_at: datetime


def count_daily(
    session: Session, *, workspace_id: str, counter: DailyCounter, limit: int, now: datetime
) -> None:
    """Add one to today's counter, or raise TooManyRequests when it already reached ``limit``."""
    day = utc_day(now)
    insert = pg_insert if session.get_bind().dialect.name == "postgresql" else sqlite_insert
    session.execute(
        insert(DailyUsage)
        .values(workspace_id=workspace_id, day=day, projects_created=0, analysis_commands=0)
        .on_conflict_do_nothing()
    )
    column = getattr(DailyUsage, counter)
    # The limit check and the increment are one statement, so concurrent requests cannot overshoot.
    counted = session.execute(
        update(DailyUsage)
        .where(DailyUsage.workspace_id == workspace_id, DailyUsage.day == day, column < limit)
        .values({counter: column + 1})
    )
    if counted.rowcount != 1:  # type: ignore[attr-defined]
        resets_at = next_utc_midnight(now)
        what = "projects created" if counter == "projects_created" else "analysis commands"
        raise TooManyRequests(
            f"The daily limit of {limit} {what} is reached; it resets at midnight UTC.",
            code="daily_quota_exceeded",
            retry_after_s=max(1, math.ceil((resets_at - now).total_seconds())),
            limit=limit,
            reset_epoch_s=int(resets_at.timestamp()),
        )


def usage_today(session: Session, *, workspace_id: str, now: datetime) -> UsageToday:
    row = session.scalars(
        select(DailyUsage).where(DailyUsage.workspace_id == workspace_id, DailyUsage.day == utc_day(now))
    ).first()
    return UsageToday(
        projects_created=row.projects_created if row else 0,
        analysis_commands=row.analysis_commands if row else 0,
        resets_at=next_utc_midnight(now),
    )


@dataclass(frozen=True)
class RateWindow:
    limit: int
    remaining: int
    reset_epoch_s: int


class RateLimiter:
    """Fixed one-minute windows per key, in this process's memory.

    Each API process enforces the limit on its own requests; with N processes behind a
    balancer a key gets at most N times the limit (see docs/contract.md).
    """

    def __init__(self, clock: Callable[[], float] | None = None) -> None:
        self._clock = clock or time.time
        self._lock = threading.Lock()
        self._windows: dict[str, tuple[int, int]] = {}  # key id -> (window start, requests)

    def hit(self, key_id: str, limit: int) -> RateWindow:
        now = self._clock()
        window_start = int(now // 60 * 60)
        with self._lock:
            start, used = self._windows.get(key_id, (window_start, 0))
            if start != window_start:
                start, used = window_start, 0
            reset = start + 60
            if used >= limit:
                raise TooManyRequests(
                    f"More than {limit} requests in a minute with this API key.",
                    code="rate_limited",
                    retry_after_s=max(1, math.ceil(reset - now)),
                    limit=limit,
                    reset_epoch_s=reset,
                )
            self._windows[key_id] = (start, used + 1)
        return RateWindow(limit=limit, remaining=limit - used - 1, reset_epoch_s=reset)
