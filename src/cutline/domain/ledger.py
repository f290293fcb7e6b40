"""Money: prices in integer cents, and a ledger whose rows move the wallet balance.

Every balance change is one ledger row written in the same transaction; a charge
and a refund happen at most once per dispatch of an analysis (unique constraint).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from cutline.domain.common import utcnow
from cutline.errors import PaymentRequired
from cutline.store.tables import LedgerEntry, Workspace

SECONDS_PER_HOUR = 3600
SECONDS_PER_MINUTE = 60


@dataclass(frozen=True)
class LineItem:
    description: str
    cents: int


def line_item(description: str, duration_s: float, cents_per_unit: int, unit_s: int) -> LineItem:
    """Price ``duration_s`` at ``cents_per_unit`` per ``unit_s`` seconds, rounded up to the cent."""
    # Decimal(repr()) keeps the probed value as written (1.1, not 1.100000000000000088...).
    exact = Fraction(Decimal(repr(duration_s))) * cents_per_unit / unit_s
    return LineItem(description, math.ceil(exact))


def grant(session: Session, workspace_id: str, cents: int, description: str) -> None:
    session.execute(
        update(Workspace)
        .where(Workspace.id == workspace_id)
        .values(credit_balance_cents=Workspace.credit_balance_cents + cents)
    )
    session.add(_entry(workspace_id, None, None, "grant", cents, description))


def charge(
    session: Session, *, workspace_id: str, analysis_id: str, attempt: int, items: list[LineItem]
) -> int:
    """Debit the items' total, or raise PaymentRequired and change nothing."""
    total = sum(item.cents for item in items)
    # One conditional UPDATE: concurrent charges can never take the balance below zero.
    debited = session.execute(
        update(Workspace)
        .where(Workspace.id == workspace_id, Workspace.credit_balance_cents >= total)
        .values(credit_balance_cents=Workspace.credit_balance_cents - total)
    )
    if debited.rowcount != 1:  # type: ignore[attr-defined]
        balance = session.scalar(select(Workspace.credit_balance_cents).where(Workspace.id == workspace_id))
        raise PaymentRequired(
            f"This command costs {total} cents and the workspace has {balance} cents of credit.",
        )
    description = "; ".join(f"{item.description}: {item.cents}" for item in items)
    session.add(_entry(workspace_id, analysis_id, attempt, "charge", -total, description))
    return total


def refund(session: Session, *, analysis_id: str, attempt: int) -> int:
    """Give back the charge of this dispatch, once. Returns the cents refunded (0 when none)."""
    entries = session.scalars(
        select(LedgerEntry).where(LedgerEntry.analysis_id == analysis_id, LedgerEntry.attempt == attempt)
    ).all()
    charged = next((e for e in entries if e.entry_kind == "charge"), None)
    if charged is None or any(e.entry_kind == "refund" for e in entries):
        return 0
    cents = -charged.amount_cents
    session.execute(
        update(Workspace)
        .where(Workspace.id == charged.workspace_id)
        .values(credit_balance_cents=Workspace.credit_balance_cents + cents)
    )
    session.add(_entry(charged.workspace_id, analysis_id, attempt, "refund", cents, "analysis failed"))
    return cents


def _entry(
    workspace_id: str, analysis_id: str | None, attempt: int | None, kind: str, cents: int, description: str
) -> LedgerEntry:
    return LedgerEntry(
        workspace_id=workspace_id,
        analysis_id=analysis_id,
        attempt=attempt,
        entry_kind=kind,
        amount_cents=cents,
        description=description,
        created_at=utcnow(),
    )
