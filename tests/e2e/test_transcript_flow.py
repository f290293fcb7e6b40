"""The whole flow over HTTP on a real recording: upload, complete, transcript, replay, billing."""

from __future__ import annotations

import itertools
import math
from pathlib import Path

import httpx

from tests.e2e.server import Server, upload, wait_for_result
from tests.wer import JFK_REFERENCE, word_error_rate


def balance(client: httpx.Client) -> int:
    value: int = client.get("/v1/me").json()["billing"]["credit_balance_cents"]
    return value


def test_upload_then_transcript_end_to_end(server: Server, media_dir: Path) -> None:
    client = server.client(server.create_key("flow", credits=1000))
    jfk = media_dir / "openai_whisper" / "jfk.flac"

    created = client.post(
        "/v1/projects/upload",
        json={"filename": "jfk.flac", "content_type": "audio/flac", "size_bytes": 1152693},
    )
    assert created.status_code == 201
    body = created.json()
    assert body["status"] == "created"
    assert body["upload_headers"] == {"Content-Type": "audio/flac"}
    assert body["upload_expires_in_seconds"] > 0
    assert body["source"] == {
        "type": "upload",
        "filename": "jfk.flac",
        "content_type": "audio/flac",
        "media_kind": None,
        "size_bytes": 1152693,
        "url": None,
    }
    project_id = body["project_id"]
    assert project_id.startswith("prj_")

    detail = client.get(f"/v1/projects/{project_id}").json()
    assert (
        detail["status"] == "created" and detail["duration"] is None and detail["source_size_bytes"] is None
    )

    early = client.post(f"/v1/projects/{project_id}/transcript", json={"language": "en"})
    assert early.status_code == 409 and early.json()["code"] == "project_not_ready"

    put = httpx.put(body["upload_url"], content=jfk.read_bytes(), headers=body["upload_headers"])
    assert put.status_code == 200 and put.json()["size_bytes"] == jfk.stat().st_size
    assert client.get(f"/v1/projects/{project_id}").json()["status"] == "uploading"

    completed = client.post(f"/v1/projects/{project_id}/upload/complete")
    assert completed.status_code == 200
    done = completed.json()
    assert done["status"] == "ready"
    assert done["source_size_bytes"] == jfk.stat().st_size
    assert math.isclose(done["duration"], 11.0, abs_tol=0.1)
    assert done["width"] is None and done["height"] is None
    assert done["source"]["media_kind"] == "audio"
    # Completing again is harmless and answers the same facts.
    assert client.post(f"/v1/projects/{project_id}/upload/complete").json() == done

    before = balance(client)
    ack = client.post(f"/v1/projects/{project_id}/transcript", json={"language": "en"})
    assert ack.status_code == 202
    assert ack.json()["analysis"] == "transcript"
    assert ack.json()["status"] in {"queued", "processing", "completed"}
    assert ack.json()["requested_outputs"] == ["text", "speakers", "utterances", "words"]
    # 11 s at 37 cents per hour rounds up to one cent.
    charge = math.ceil(done["duration"] * 37 / 3600)
    assert balance(client) == before - charge

    result = wait_for_result(client, f"/v1/projects/{project_id}/transcript")
    assert result["status"] == "completed", result
    assert result["language"] == "en" and result["error"] is None
    assert word_error_rate(JFK_REFERENCE, result["text"]) < 0.15, result["text"]
    assert set(result["agent_context"]) == {"time_unit", "time_origin", "speaker_ids", "word_indices"}
    assert result["speakers"] == []

    words = result["words"]
    assert all("speaker" not in w for w in words)
    assert all(0 <= w["confidence"] <= 1 and w["start"] <= w["end"] for w in words)
    americans = next(w for w in words if "americans" in w["text"].lower())
    assert americans["start"] - 0.5 <= 1.8 <= americans["end"] + 0.5

    utterances = result["utterances"]
    assert utterances and all("speaker" not in u for u in utterances)
    assert utterances[0]["word_start_idx"] == 0 and utterances[-1]["word_end_idx"] == len(words)
    for left, right in itertools.pairwise(utterances):
        assert left["word_end_idx"] == right["word_start_idx"]

    # A repeated start returns the existing analysis: no new charge, no new command counted.
    usage = client.get("/v1/me").json()["usage_today"]
    replay = client.post(f"/v1/projects/{project_id}/transcript", json={"language": "en"})
    assert replay.status_code == 202 and replay.json()["status"] == "completed"
    assert replay.json()["created_at"] == ack.json()["created_at"]
    assert balance(client) == before - charge
    assert client.get("/v1/me").json()["usage_today"] == usage


def test_requested_outputs_are_honoured(server: Server, media_dir: Path) -> None:
    client = server.client(server.create_key("outputs"))
    project = upload(client, media_dir / "deepspeech" / "LDC93S1.wav", "audio/wav")
    ack = client.post(
        f"/v1/projects/{project['project_id']}/transcript",
        json={"language": "en", "requested_outputs": ["text", "text"]},
    )
    assert ack.status_code == 202 and ack.json()["requested_outputs"] == ["text"]
    result = wait_for_result(client, f"/v1/projects/{project['project_id']}/transcript")
    assert result["status"] == "completed"
    assert "dark suit" in result["text"].lower()
    assert result["words"] == [] and result["utterances"] == [] and result["speakers"] == []


def test_video_without_audio_fails_refunds_then_retries_then_503(server: Server, media_dir: Path) -> None:
    client = server.client(server.create_key("silent-video", credits=50))
    project = upload(client, media_dir / "pyscenedetect" / "testvideo.mp4", "video/mp4")
    assert project["source"]["media_kind"] == "video"
    assert (project["width"], project["height"]) == (1280, 720)
    path = f"/v1/projects/{project['project_id']}/transcript"
    start = balance(client)

    assert client.post(path, json={"language": "en"}).status_code == 202
    failed = wait_for_result(client, path)
    assert failed["status"] == "failed" and "audio" in failed["error"].lower()
    assert "words" not in failed or failed["words"] == []
    assert balance(client) == start  # refunded

    retry = client.post(path, json={"language": "en"})  # the failed command is re-dispatched
    assert retry.status_code == 202 and retry.json()["status"] in {"queued", "processing"}
    assert wait_for_result(client, path)["status"] == "failed"
    assert balance(client) == start

    exhausted = client.post(path, json={"language": "en"})  # max attempts is 2 on this server
    assert exhausted.status_code == 503 and exhausted.json()["code"] == "analysis_failed"
    assert client.get("/v1/me").json()["usage_today"]["analysis_commands"] == 2
