from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.e2e.server import Server


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """The default deployment with a worker; short leases so a killed worker is noticed fast."""
    srv = Server(
        tmp_path_factory.mktemp("main"),
        settings={
            "CUTLINE_ANALYSIS_LEASE_S": "4",
            "CUTLINE_RECOVERY_INTERVAL_S": "1",
            "CUTLINE_MAX_ANALYSIS_ATTEMPTS": "2",
        },
    ).start()
    yield srv
    srv.stop()


@pytest.fixture(scope="session")
def tight_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """Small limits, no worker: for quotas, rate limits and upload size."""
    srv = Server(
        tmp_path_factory.mktemp("tight"),
        worker=False,
        settings={
            "CUTLINE_REQUESTS_PER_MINUTE_PER_KEY": "12",
            "CUTLINE_PROJECTS_PER_DAY": "2",
            "CUTLINE_ANALYSIS_COMMANDS_PER_DAY": "1",
            "CUTLINE_MAX_UPLOAD_BYTES": "200000",
        },
    ).start()
    yield srv
    srv.stop()


@pytest.fixture(scope="session")
def free_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """Billing disabled and upload URLs that expire after a second; no worker."""
    srv = Server(
        tmp_path_factory.mktemp("free"),
        worker=False,
        settings={"CUTLINE_BILLING_ENABLED": "false", "CUTLINE_UPLOAD_URL_TTL_S": "1"},
    ).start()
    yield srv
    srv.stop()
