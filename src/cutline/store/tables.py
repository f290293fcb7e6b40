"""SQLAlchemy tables. Rules about them live in ``cutline.domain``."""

from __future__ import annotations

from datetime import datetime
from typing import Any, ClassVar

from sqlalchemy import JSON, BigInteger, DateTime, Float, ForeignKey, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    type_annotation_map: ClassVar = {datetime: DateTime(timezone=True), dict[str, Any]: JSON, list[str]: JSON}


class Workspace(Base):
    __tablename__ = "workspaces"

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    name: Mapped[str | None] = mapped_column(String(255))
    # Integer cents; every change goes through a ledger row in the same transaction.
    credit_balance_cents: Mapped[int] = mapped_column(BigInteger, default=0)
    created_at: Mapped[datetime]


class ApiKey(Base):
    __tablename__ = "api_keys"

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    workspace_id: Mapped[str] = mapped_column(ForeignKey("workspaces.id"), index=True)
    prefix: Mapped[str] = mapped_column(String(32), unique=True)
    secret_sha256: Mapped[str] = mapped_column(String(64))
    name: Mapped[str | None] = mapped_column(String(255))
    scopes: Mapped[list[str]]
    created_at: Mapped[datetime]
    revoked_at: Mapped[datetime | None]


class Project(Base):
    __tablename__ = "projects"

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    workspace_id: Mapped[str] = mapped_column(ForeignKey("workspaces.id"), index=True)
    status: Mapped[str] = mapped_column(String(16))
    filename: Mapped[str] = mapped_column(String(255))
    content_type: Mapped[str] = mapped_column(String(255))
    declared_size_bytes: Mapped[int | None] = mapped_column(BigInteger)
    size_bytes: Mapped[int | None] = mapped_column(BigInteger)
    media_kind: Mapped[str | None] = mapped_column(String(8))
    duration_s: Mapped[float | None] = mapped_column(Float)
    width: Mapped[int | None]
    height: Mapped[int | None]
    error: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime]


class Analysis(Base):
    __tablename__ = "analyses"
    # One analysis of each kind per project; a racing second insert fails and reads the first.
    __table_args__ = (UniqueConstraint("project_id", "kind"),)

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    project_id: Mapped[str] = mapped_column(ForeignKey("projects.id"), index=True)
    workspace_id: Mapped[str] = mapped_column(ForeignKey("workspaces.id"))
    kind: Mapped[str] = mapped_column(String(16))
    status: Mapped[str] = mapped_column(String(16), index=True)
    params: Mapped[dict[str, Any]]
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    error: Mapped[str | None] = mapped_column(Text)
    # Dispatches so far (first run and retries); a worker's claim and its writes name it.
    attempt: Mapped[int] = mapped_column(Integer, default=0)
    # Runs of the current dispatch that a worker started (restarts after a dead worker count).
    runs: Mapped[int] = mapped_column(Integer, default=0)
    progress: Mapped[float] = mapped_column(Float, default=0.0)
    lease_expires_at: Mapped[datetime | None]
    dispatched_at: Mapped[datetime | None]
    created_at: Mapped[datetime]
    updated_at: Mapped[datetime]


class LedgerEntry(Base):
    __tablename__ = "ledger"
    # A charge or refund happens at most once per dispatch of an analysis.
    __table_args__ = (UniqueConstraint("analysis_id", "attempt", "entry_kind"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    workspace_id: Mapped[str] = mapped_column(ForeignKey("workspaces.id"), index=True)
    analysis_id: Mapped[str | None] = mapped_column(ForeignKey("analyses.id"))
    attempt: Mapped[int | None]
    entry_kind: Mapped[str] = mapped_column(String(16))  # grant, charge, refund
    amount_cents: Mapped[int] = mapped_column(BigInteger)  # signed: charges are negative
    description: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime]


class DailyUsage(Base):
    __tablename__ = "daily_usage"

    workspace_id: Mapped[str] = mapped_column(ForeignKey("workspaces.id"), primary_key=True)
    day: Mapped[str] = mapped_column(String(10), primary_key=True)  # UTC date, YYYY-MM-DD
    projects_created: Mapped[int] = mapped_column(Integer, default=0)
    analysis_commands: Mapped[int] = mapped_column(Integer, default=0)
