"""Rate limits, daily quotas, upload size and billing switched off, on servers configured for them."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx

from tests.e2e.server import Server, upload
from tests.e2e.test_errors import assert_error


def test_me_reports_running_configuration_and_live_usage(tight_server: Server, media_dir: Path) -> None:
    client = tight_server.client(tight_server.create_key("me", credits=777))
    me = client.get("/v1/me").json()
    assert me["limits"] == {
        "requests_per_minute_per_key": 12,
        "projects_per_day": 2,
        "analysis_commands_per_day": 1,
        "max_upload_bytes": 200000,
    }
    assert me["workspace"]["name"] == "me" and me["workspace"]["id"].startswith("ws_")
    assert me["api_key"]["scopes"] == ["*"] and me["api_key"]["prefix"]
    assert me["billing"] == {
        "credit_balance_cents": 777,
        "currency": "USD",
        "pricing": {
            "transcript_per_uploaded_hour_cents": 37,
            "diarization_addon_per_hour_cents": 5,
            "vision_per_minute_cents": 2,
            "retake_removal_per_minute_cents": 1,
        },
    }
    tomorrow = (datetime.now(UTC) + timedelta(days=1)).strftime("%Y-%m-%dT00:00:00Z")
    assert me["usage_today"] == {"projects_created": 0, "analysis_commands": 0, "day_resets_at": tomorrow}
    assert all(isinstance(v, str) for v in me["agent_context"].values())
    assert "balance_note" not in me["agent_context"]

    project = upload(client, media_dir / "deepspeech" / "LDC93S1.wav", "audio/wav")
    assert client.get("/v1/me").json()["usage_today"]["projects_created"] == 1
    assert (
        client.post(f"/v1/projects/{project['project_id']}/transcript", json={"language": "en"}).status_code
        == 202
    )
    me = client.get("/v1/me").json()
    assert me["usage_today"]["analysis_commands"] == 1
    assert me["billing"]["credit_balance_cents"] == 776  # 2.9 s rounds up to one cent


def test_rate_limit_answers_429_with_headers(tight_server: Server) -> None:
    client = tight_server.client(tight_server.create_key("rate"))
    other = tight_server.client(tight_server.create_key("rate"))
    # Windows are whole minutes: start a test near a boundary in the next window.
    if time.time() % 60 > 50:
        time.sleep(61 - time.time() % 60)
    statuses = []
    for _ in range(13):
        response = client.get("/v1/me")
        statuses.append(response.status_code)
    assert statuses == [200] * 12 + [429]
    assert response.json()["code"] == "rate_limited"
    assert 1 <= int(response.headers["retry-after"]) <= 60
    assert response.headers["x-ratelimit-limit"] == "12" and response.headers["x-ratelimit-remaining"] == "0"
    assert other.get("/v1/me").headers["x-ratelimit-remaining"] == "11"  # limits are per key


def test_daily_quotas_answer_429_until_midnight(tight_server: Server, media_dir: Path) -> None:
    client = tight_server.client(tight_server.create_key("quota"))
    body = {"filename": "a.wav", "content_type": "audio/wav"}
    assert client.post("/v1/projects/upload", json=body).status_code == 201
    project = upload(client, media_dir / "deepspeech" / "LDC93S1.wav", "audio/wav")
    refused = client.post("/v1/projects/upload", json=body)
    assert_error(refused, 429, "daily_quota_exceeded")
    resets_at = datetime.fromisoformat(client.get("/v1/me").json()["usage_today"]["day_resets_at"])
    retry_after = int(refused.headers["retry-after"])
    assert abs((resets_at - datetime.now(UTC)).total_seconds() - retry_after) < 5

    path = f"/v1/projects/{project['project_id']}/transcript"
    assert client.post(path, json={"language": "en"}).status_code == 202
    # A replay of the same command is not a new command.
    assert client.post(path, json={"language": "en"}).status_code == 202
    other = client.post(f"/v1/projects/{project['project_id']}/retake-removal", json={"language": "en"})
    assert other.status_code == 422  # audio: validated before counting
    usage = client.get("/v1/me").json()["usage_today"]
    assert usage == {**usage, "projects_created": 2, "analysis_commands": 1}


def test_upload_beyond_max_bytes_is_413_and_leaves_nothing(tight_server: Server, media_dir: Path) -> None:
    client = tight_server.client(tight_server.create_key("big"))
    created = client.post(
        "/v1/projects/upload", json={"filename": "a.flac", "content_type": "audio/flac"}
    ).json()
    big = (media_dir / "openai_whisper" / "jfk.flac").read_bytes()  # 1.1 MB > 200 kB

    def chunks():  # type: ignore[no-untyped-def]
        # No Content-Length: the server must count the streamed bytes itself.
        for i in range(0, len(big), 65536):
            yield big[i : i + 65536]

    response = httpx.put(created["upload_url"], content=chunks(), headers=created["upload_headers"])
    assert_error(response, 413, "upload_too_large")
    with_length = httpx.put(created["upload_url"], content=big, headers=created["upload_headers"])
    assert_error(with_length, 413, "upload_too_large")
    blob_dir = tight_server.data_dir / "blobs" / "projects" / created["project_id"]
    assert not blob_dir.exists() or list(blob_dir.iterdir()) == []
    assert_error(client.post(f"/v1/projects/{created['project_id']}/upload/complete"), 409, "upload_missing")


def test_billing_disabled_reports_null_balance_and_charges_nothing(
    free_server: Server, media_dir: Path
) -> None:
    client = free_server.client(free_server.create_key("free", credits=0))
    me = client.get("/v1/me").json()
    assert me["billing"]["credit_balance_cents"] is None
    assert "disabled" in me["agent_context"]["balance_note"]
    project = upload(client, media_dir / "deepspeech" / "LDC93S1.wav", "audio/wav")
    ack = client.post(f"/v1/projects/{project['project_id']}/transcript", json={"language": "en"})
    assert ack.status_code == 202  # no credit needed


def test_expired_upload_url_is_410(free_server: Server, media_dir: Path) -> None:
    client = free_server.client(free_server.create_key("expiry"))
    created = client.post(
        "/v1/projects/upload", json={"filename": "a.wav", "content_type": "audio/wav"}
    ).json()
    assert created["upload_expires_in_seconds"] == 1
    time.sleep(2.1)
    data = (media_dir / "deepspeech" / "LDC93S1.wav").read_bytes()
    assert_error(
        httpx.put(created["upload_url"], content=data, headers=created["upload_headers"]),
        410,
        "upload_url_expired",
    )
