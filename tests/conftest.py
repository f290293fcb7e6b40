"""Shared test fixtures: where the shared media lives."""

from __future__ import annotations

from pathlib import Path

import pytest

MEDIA_DIR = Path(__file__).resolve().parents[2] / "shared" / "media"


@pytest.fixture(scope="session")
def media_dir() -> Path:
    if not MEDIA_DIR.is_dir():
        pytest.fail(f"the shared media folder is missing: {MEDIA_DIR}")
    return MEDIA_DIR
