from __future__ import annotations

from pathlib import Path

import pytest

from cutline.domain import ledger
from cutline.domain.analyses import AnalysisKind, Pricing
from cutline.errors import PaymentRequired
from cutline.store.db import Database
from cutline.store.tables import LedgerEntry, Workspace

PRICING = Pricing(
    transcript_per_hour_cents=37,
    diarization_per_hour_cents=5,
    vision_per_minute_cents=2,
    retake_removal_per_minute_cents=1,
)


@pytest.mark.parametrize(
    ("duration_s", "per_unit", "unit_s", "cents"),
    [
        (3600.0, 37, 3600, 37),  # exactly one hour: no rounding up
        (3600.001, 37, 3600, 38),
        (1.1, 3600, 3600, 2),  # 1.1 s at a cent per second is 1.1 cents -> 2, float noise ignored
        (0.001, 1, 3600, 1),  # any positive duration costs at least a cent
        (60.0, 2, 60, 2),
        (90.0, 2, 60, 3),
        (10.0, 0, 60, 0),  # a free price stays free
    ],
)
def test_line_items_round_up_to_the_cent(duration_s: float, per_unit: int, unit_s: int, cents: int) -> None:
    assert ledger.line_item("x", duration_s, per_unit, unit_s).cents == cents


def test_diarization_is_its_own_line_item() -> None:
    items = PRICING.line_items(AnalysisKind.TRANSCRIPT, {"diarize": True}, 1800.0)
    assert [(i.description, i.cents) for i in items] == [("transcript", 19), ("diarization", 3)]
    assert len(PRICING.line_items(AnalysisKind.TRANSCRIPT, {"diarize": False}, 1800.0)) == 1
    assert PRICING.line_items(AnalysisKind.VISION, {}, 61.0)[0].cents == 3


@pytest.fixture
def db(tmp_path: Path) -> Database:
    database = Database(f"sqlite:///{tmp_path / 'test.db'}")
    database.create_all()
    return database


def _workspace(db: Database, cents: int) -> str:
    from cutline.domain.common import utcnow

    with db.session(write=True) as session:
        session.add(Workspace(id="ws_test", name="t", credit_balance_cents=0, created_at=utcnow()))
        session.flush()
        ledger.grant(session, "ws_test", cents, "test credits")
    return "ws_test"


def _balance(db: Database) -> int:
    with db.session() as session:
        workspace = session.get(Workspace, "ws_test")
        assert workspace is not None
        return workspace.credit_balance_cents


def test_charge_refund_once_and_never_below_zero(db: Database) -> None:
    workspace_id = _workspace(db, 10)
    items = [ledger.LineItem("transcript", 7)]
    with db.session(write=True) as session:
        assert (
            ledger.charge(session, workspace_id=workspace_id, analysis_id=None, attempt=1, items=items) == 7
        )  # type: ignore[arg-type]
    assert _balance(db) == 3
    with pytest.raises(PaymentRequired), db.session(write=True) as session:
        ledger.charge(session, workspace_id=workspace_id, analysis_id=None, attempt=2, items=items)  # type: ignore[arg-type]
    assert _balance(db) == 3
    with db.session() as session:
        kinds = sorted(e.entry_kind for e in session.query(LedgerEntry).all())
    assert kinds == ["charge", "grant"]
