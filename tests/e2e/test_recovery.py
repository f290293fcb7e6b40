"""A worker killed mid-analysis: the analysis is not stuck, completes once, and is charged once."""

from __future__ import annotations

import math
import os
import signal
import time
from pathlib import Path

from tests.e2e.server import Server, upload, wait_for_result


def test_killed_worker_does_not_leave_analysis_processing(server: Server, media_dir: Path) -> None:
    client = server.client(server.create_key("killed-worker", credits=1000))
    project = upload(client, media_dir / "faster_whisper" / "multilingual.mp3", "audio/mpeg")
    path = f"/v1/projects/{project['project_id']}/transcript"
    before = client.get("/v1/me").json()["billing"]["credit_balance_cents"]
    assert client.post(path, json={"language": "en"}).status_code == 202

    deadline = time.monotonic() + 60
    while client.get(path).json()["status"] != "processing":
        assert time.monotonic() < deadline, "the analysis never started"
        time.sleep(0.1)
    victim = server.worker_pid()
    os.kill(victim, signal.SIGKILL)

    result = wait_for_result(client, path, timeout_s=240)
    assert result["status"] == "completed", result
    assert server.worker_pid() != victim  # `cutline serve` started a new worker
    assert len(result["words"]) > 50
    after = client.get("/v1/me").json()["billing"]["credit_balance_cents"]
    assert before - after == math.ceil(project["duration"] * 37 / 3600)
