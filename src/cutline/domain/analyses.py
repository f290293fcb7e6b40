"""Analyses: starting (quota, price, charge), the worker's claim/lease/finish, and recovery.

The database is the truth; the queue only carries "run analysis X". Every write by a
worker names the dispatch (``attempt``) it was given, so a worker that lost its lease
cannot overwrite the work of the one that replaced it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from cutline.domain import ledger
from cutline.domain.common import new_id, utcnow
from cutline.domain.quotas import count_daily
from cutline.domain.states import AnalysisStatus, advance_analysis
from cutline.errors import NotFound, Unavailable
from cutline.store.tables import Analysis, Project


class AnalysisKind(StrEnum):
    TRANSCRIPT = "transcript"
    VISION = "vision"
    RETAKE_REMOVAL = "retake_removal"


@dataclass(frozen=True)
class Pricing:
    transcript_per_hour_cents: int
    diarization_per_hour_cents: int
    vision_per_minute_cents: int
    retake_removal_per_minute_cents: int

    def line_items(
        self, kind: AnalysisKind, params: dict[str, Any], duration_s: float
    ) -> list[ledger.LineItem]:
        hour, minute = ledger.SECONDS_PER_HOUR, ledger.SECONDS_PER_MINUTE
        if kind is AnalysisKind.TRANSCRIPT:
            items = [ledger.line_item("transcript", duration_s, self.transcript_per_hour_cents, hour)]
            if params.get("diarize"):
                items.append(
                    ledger.line_item("diarization", duration_s, self.diarization_per_hour_cents, hour)
                )
            return items
        if kind is AnalysisKind.VISION:
            return [ledger.line_item("vision", duration_s, self.vision_per_minute_cents, minute)]
        return [ledger.line_item("retake_removal", duration_s, self.retake_removal_per_minute_cents, minute)]


@dataclass(frozen=True)
class StartPolicy:
    pricing: Pricing
    billing_enabled: bool
    analysis_commands_per_day: int
    max_attempts: int


@dataclass(frozen=True)
class Started:
    analysis: Analysis
    dispatch: bool  # False for a replay that returns the existing analysis untouched


def start(
    session: Session, *, project: Project, kind: AnalysisKind, params: dict[str, Any], policy: StartPolicy
) -> Started:
    """Create (or re-dispatch a failed) analysis, counting the command and charging for it."""
    existing = _find(session, project.id, kind)
    if existing is None:
        now = utcnow()
        analysis = Analysis(
            id=new_id("anl"),
            project_id=project.id,
            workspace_id=project.workspace_id,
            kind=kind,
            status=AnalysisStatus.QUEUED,
            params=params,
            result=None,
            error=None,
            attempt=1,
            runs=0,
            progress=0.0,
            lease_expires_at=None,
            dispatched_at=None,
            created_at=now,
            updated_at=now,
        )
        try:
            with session.begin_nested():
                session.add(analysis)
        except IntegrityError:
            # A concurrent identical command inserted first: this request is its replay.
            existing = _find(session, project.id, kind)
            assert existing is not None
            return Started(existing, dispatch=False)
    elif existing.status != AnalysisStatus.FAILED:
        return Started(existing, dispatch=False)
    elif existing.attempt >= policy.max_attempts:
        raise Unavailable(
            f"The {kind} analysis failed {existing.attempt} times and is not retried again: {existing.error}",
            code="analysis_failed",
        )
    else:
        analysis = existing
        advance_analysis(analysis, AnalysisStatus.QUEUED)
        analysis.attempt += 1
        analysis.runs = 0
        analysis.params = params
        analysis.error = None
        analysis.progress = 0.0
        analysis.dispatched_at = None
        analysis.updated_at = utcnow()
        session.flush()

    count_daily(
        session,
        workspace_id=project.workspace_id,
        counter="analysis_commands",
        limit=policy.analysis_commands_per_day,
        now=utcnow(),
    )
    if policy.billing_enabled:
        assert project.duration_s is not None
        ledger.charge(
            session,
            workspace_id=project.workspace_id,
            analysis_id=analysis.id,
            attempt=analysis.attempt,
            items=policy.pricing.line_items(kind, params, project.duration_s),
        )
    return Started(analysis, dispatch=True)


def _find(session: Session, project_id: str, kind: AnalysisKind) -> Analysis | None:
    return session.scalars(
        select(Analysis).where(Analysis.project_id == project_id, Analysis.kind == kind).with_for_update()
    ).first()


def get(session: Session, *, project_id: str, kind: AnalysisKind) -> Analysis:
    analysis = session.scalars(
        select(Analysis).where(Analysis.project_id == project_id, Analysis.kind == kind)
    ).first()
    if analysis is None:
        raise NotFound(
            f"No {kind} analysis was started for project {project_id!r}.", code="analysis_not_started"
        )
    return analysis


def mark_dispatched(session: Session, analysis_id: str) -> None:
    session.execute(update(Analysis).where(Analysis.id == analysis_id).values(dispatched_at=utcnow()))


@dataclass(frozen=True)
class Job:
    """What a worker needs to run one dispatch of an analysis."""

    analysis_id: str
    attempt: int
    kind: AnalysisKind
    params: dict[str, Any]
    project_id: str
    duration_s: float


def claim(session: Session, analysis_id: str, *, lease_s: int) -> Job | None:
    """Move a queued analysis to processing under a lease; None if it is not queued (a replay)."""
    analysis = session.scalars(select(Analysis).where(Analysis.id == analysis_id).with_for_update()).first()
    if analysis is None or analysis.status != AnalysisStatus.QUEUED:
        return None
    project = session.get(Project, analysis.project_id)
    assert project is not None and project.duration_s is not None
    now = utcnow()
    advance_analysis(analysis, AnalysisStatus.PROCESSING)
    analysis.runs += 1
    analysis.progress = 0.0
    analysis.lease_expires_at = now + timedelta(seconds=lease_s)
    analysis.updated_at = now
    return Job(
        analysis_id=analysis.id,
        attempt=analysis.attempt,
        kind=AnalysisKind(analysis.kind),
        params=dict(analysis.params),
        project_id=project.id,
        duration_s=project.duration_s,
    )


def _held(session: Session, job: Job) -> Analysis | None:
    analysis = session.scalars(
        select(Analysis).where(Analysis.id == job.analysis_id).with_for_update()
    ).first()
    if analysis is None or analysis.status != AnalysisStatus.PROCESSING or analysis.attempt != job.attempt:
        return None
    return analysis


def renew_lease(session: Session, job: Job, *, lease_s: int, progress: float) -> bool:
    """Extend the lease; False when the analysis is no longer this worker's."""
    analysis = _held(session, job)
    if analysis is None:
        return False
    now = utcnow()
    analysis.lease_expires_at = now + timedelta(seconds=lease_s)
    analysis.progress = max(0.0, min(1.0, progress))
    analysis.updated_at = now
    return True


def complete(session: Session, job: Job, result: dict[str, Any]) -> bool:
    analysis = _held(session, job)
    if analysis is None:
        return False
    advance_analysis(analysis, AnalysisStatus.COMPLETED)
    analysis.result = result
    analysis.progress = 1.0
    analysis.lease_expires_at = None
    analysis.updated_at = utcnow()
    return True


def fail(session: Session, job: Job, error: str) -> bool:
    analysis = _held(session, job)
    if analysis is None:
        return False
    _fail(session, analysis, error)
    return True


def _fail(session: Session, analysis: Analysis, error: str) -> None:
    advance_analysis(analysis, AnalysisStatus.FAILED)
    analysis.error = error
    analysis.lease_expires_at = None
    analysis.updated_at = utcnow()
    ledger.refund(session, analysis_id=analysis.id, attempt=analysis.attempt)


def recover(
    session: Session, *, max_runs: int, undispatched_after_s: float, now: datetime | None = None
) -> list[str]:
    """Repair what dead workers and lost messages left behind; returns the ids to dispatch again.

    A processing analysis whose lease lapsed goes back to queued (or fails, refunded, once
    it has been started ``max_runs`` times); a queued analysis that never reached the
    broker is dispatched again.
    """
    now = now or utcnow()
    to_dispatch: list[str] = []
    lapsed = session.scalars(
        select(Analysis)
        .where(Analysis.status == AnalysisStatus.PROCESSING, Analysis.lease_expires_at < now)
        .with_for_update()
    ).all()
    for analysis in lapsed:
        if analysis.runs >= max_runs:
            _fail(session, analysis, f"The worker stopped while running this analysis {analysis.runs} times.")
            continue
        advance_analysis(analysis, AnalysisStatus.QUEUED)
        analysis.lease_expires_at = None
        analysis.dispatched_at = None
        analysis.updated_at = now
        to_dispatch.append(analysis.id)
    undispatched = session.scalars(
        select(Analysis.id).where(
            Analysis.status == AnalysisStatus.QUEUED,
            Analysis.dispatched_at.is_(None),
            Analysis.updated_at < now - timedelta(seconds=undispatched_after_s),
        )
    ).all()
    to_dispatch.extend(i for i in undispatched if i not in to_dispatch)
    return to_dispatch
