"""Every HTTP error the service gives, over a real server."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import parse_qs, urlencode, urlsplit

import httpx
import pytest

from tests.e2e.server import Server, upload


def assert_error(response: httpx.Response, status: int, code: str) -> None:
    assert response.status_code == status, response.text
    body = response.json()
    assert body["code"] == code and isinstance(body["detail"], str) and body["detail"]


def assert_validation_error(response: httpx.Response) -> list[dict[str, object]]:
    assert response.status_code == 422, response.text
    detail = response.json()["detail"]
    assert isinstance(detail, list) and detail
    for item in detail:
        assert (
            isinstance(item["loc"], list) and isinstance(item["msg"], str) and isinstance(item["type"], str)
        )
    return detail


def test_missing_and_invalid_keys_get_401_with_bearer_challenge(server: Server) -> None:
    for key in (None, "cl_deadbeef_not-a-real-key", "garbage"):
        response = server.client(key).get("/v1/me")
        assert response.status_code == 401
        assert response.headers["www-authenticate"] == "Bearer"
        assert response.json()["code"] in {"missing_api_key", "invalid_api_key"}


def test_revoked_key_gets_403(server: Server) -> None:
    key = server.create_key("revoked")
    client = server.client(key)
    assert client.get("/v1/me").status_code == 200
    server.cli("keys", "revoke", key.split("_")[1])
    assert_error(client.get("/v1/me"), 403, "revoked_api_key")
    assert "revoked" in server.cli("keys", "list")


def test_missing_scope_gets_403_but_me_needs_none(server: Server, media_dir: Path) -> None:
    reader = server.client(server.create_key("scoped", scopes=("projects:read",)))
    me = reader.get("/v1/me")
    assert me.status_code == 200 and me.json()["api_key"]["scopes"] == ["projects:read"]
    assert_error(
        reader.post("/v1/projects/upload", json={"filename": "a.wav", "content_type": "audio/wav"}),
        403,
        "missing_scope",
    )
    writer = server.client(server.create_key("scoped", scopes=("projects:write", "projects:read")))
    project = upload(writer, media_dir / "deepspeech" / "LDC93S1.wav", "audio/wav")
    assert reader.get(f"/v1/projects/{project['project_id']}").status_code == 200
    assert_error(
        writer.post(f"/v1/projects/{project['project_id']}/transcript", json={"language": "en"}),
        403,
        "missing_scope",
    )


def test_another_workspace_sees_404_not_403(server: Server, media_dir: Path) -> None:
    owner = server.client(server.create_key("owner"))
    stranger = server.client(server.create_key("stranger"))
    project_id = upload(owner, media_dir / "deepspeech" / "LDC93S1.wav", "audio/wav")["project_id"]
    for method, path in [
        ("GET", f"/v1/projects/{project_id}"),
        ("POST", f"/v1/projects/{project_id}/upload/complete"),
        ("GET", f"/v1/projects/{project_id}/transcript"),
    ]:
        assert_error(stranger.request(method, path), 404, "project_not_found")
    assert_error(
        stranger.post(f"/v1/projects/{project_id}/transcript", json={"language": "en"}),
        404,
        "project_not_found",
    )
    assert_error(owner.get("/v1/projects/prj_doesnotexist"), 404, "project_not_found")


def test_result_before_any_analysis_is_404(server: Server, media_dir: Path) -> None:
    client = server.client(server.create_key("nothing-started"))
    project_id = upload(client, media_dir / "deepspeech" / "LDC93S1.wav", "audio/wav")["project_id"]
    for kind in ("transcript", "vision", "retake-removal"):
        assert_error(client.get(f"/v1/projects/{project_id}/{kind}"), 404, "analysis_not_started")


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"filename": "", "content_type": "audio/wav"},
        {"filename": "x" * 256, "content_type": "audio/wav"},
        {"filename": "../etc/passwd", "content_type": "audio/wav"},
        {"filename": "a\x00b.wav", "content_type": "audio/wav"},
        {"filename": "a.wav", "content_type": "c" * 256},
        {"filename": "a.wav", "content_type": "audio/wav", "size_bytes": 0},
        {"filename": "a.wav", "content_type": "audio/wav", "size_bytes": "big"},
    ],
)
def test_bad_project_bodies_get_422(server: Server, body: dict[str, object]) -> None:
    client = server.client(server.create_key("bad-bodies"))
    assert_validation_error(client.post("/v1/projects/upload", json=body))


def test_unsupported_type_415_and_oversize_413(server: Server) -> None:
    client = server.client(server.create_key("sizes"))
    assert_error(
        client.post("/v1/projects/upload", json={"filename": "a.txt", "content_type": "text/plain"}),
        415,
        "unsupported_content_type",
    )
    max_bytes = client.get("/v1/me").json()["limits"]["max_upload_bytes"]
    assert_error(
        client.post(
            "/v1/projects/upload",
            json={"filename": "a.mp4", "content_type": "video/mp4", "size_bytes": max_bytes + 1},
        ),
        413,
        "upload_too_large",
    )


def test_signed_url_rejects_tampering_and_wrong_type(server: Server, media_dir: Path) -> None:
    client = server.client(server.create_key("signatures"))
    created = client.post(
        "/v1/projects/upload", json={"filename": "a.wav", "content_type": "audio/wav"}
    ).json()
    url, headers = created["upload_url"], created["upload_headers"]
    data = (media_dir / "deepspeech" / "LDC93S1.wav").read_bytes()
    parts = urlsplit(url)
    query = {k: v[0] for k, v in parse_qs(parts.query).items()}

    def with_query(**changes: str) -> str:
        return f"{parts.scheme}://{parts.netloc}{parts.path}?{urlencode({**query, **changes})}"

    flipped = query["signature"][:-1] + ("0" if query["signature"][-1] != "0" else "1")
    assert_error(
        httpx.put(with_query(signature=flipped), content=data, headers=headers), 403, "invalid_signature"
    )
    later = str(int(query["expires"]) + 3600)
    assert_error(
        httpx.put(with_query(expires=later), content=data, headers=headers), 403, "invalid_signature"
    )
    assert_error(httpx.put(url.split("?")[0], content=data, headers=headers), 403, "invalid_signature")
    assert_error(
        httpx.put(url, content=data, headers={"Content-Type": "audio/flac"}), 415, "content_type_mismatch"
    )
    # Nothing was stored: completion still finds no bytes.
    assert_error(client.post(f"/v1/projects/{created['project_id']}/upload/complete"), 409, "upload_missing")
    assert httpx.put(url, content=data, headers=headers).status_code == 200


def test_unreadable_bytes_fail_the_project_without_charge(server: Server) -> None:
    client = server.client(server.create_key("garbage", credits=100))
    created = client.post(
        "/v1/projects/upload", json={"filename": "a.mp4", "content_type": "video/mp4"}
    ).json()
    put = httpx.put(
        created["upload_url"], content=b"not a video at all " * 100, headers=created["upload_headers"]
    )
    assert put.status_code == 200
    detail = assert_validation_error(client.post(f"/v1/projects/{created['project_id']}/upload/complete"))
    assert detail[0]["type"] == "unreadable_media"
    assert client.get(f"/v1/projects/{created['project_id']}").json()["status"] == "failed"
    assert_error(
        client.post(f"/v1/projects/{created['project_id']}/transcript", json={"language": "en"}),
        409,
        "project_not_ready",
    )
    assert_error(client.post(f"/v1/projects/{created['project_id']}/upload/complete"), 409, "project_failed")
    assert_error(
        httpx.put(created["upload_url"], content=b"x", headers=created["upload_headers"]),
        409,
        "upload_closed",
    )
    assert client.get("/v1/me").json()["billing"]["credit_balance_cents"] == 100


@pytest.mark.parametrize(
    "body",
    [{}, {"language": "xx"}, {"language": "EN"}, {"language": "en", "requested_outputs": ["faces"]},
     {"language": "en", "requested_outputs": []}, {"language": "en", "diarize": "maybe"}],
)  # fmt: skip
def test_bad_transcript_bodies_get_422(server: Server, media_dir: Path, body: dict[str, object]) -> None:
    client = server.client(server.create_key("bad-transcript"))
    assert_validation_error(client.post("/v1/projects/prj_any/transcript", json=body))


def test_vision_and_retakes_validate_before_their_engines_exist(server: Server, media_dir: Path) -> None:
    client = server.client(server.create_key("engines-pending"))
    audio = upload(client, media_dir / "deepspeech" / "LDC93S1.wav", "audio/wav")["project_id"]
    video = upload(client, media_dir / "sadtalker" / "WDA_KatieHill_000.mp4", "video/mp4")["project_id"]
    pending = client.post("/v1/projects/upload", json={"filename": "v.mp4", "content_type": "video/mp4"})
    not_ready = pending.json()["project_id"]

    assert_validation_error(client.post(f"/v1/projects/{audio}/vision", json={}))
    assert_validation_error(client.post(f"/v1/projects/{audio}/retake-removal", json={"language": "en"}))
    assert_error(client.post(f"/v1/projects/{not_ready}/vision", json={}), 409, "project_not_ready")
    assert_error(
        client.post(f"/v1/projects/{not_ready}/retake-removal", json={"language": "en"}),
        409,
        "project_not_ready",
    )
    assert_validation_error(
        client.post(f"/v1/projects/{video}/vision", json={"requested_outputs": ["words"]})
    )
    assert_validation_error(client.post(f"/v1/projects/{video}/retake-removal", json={"language": "xx"}))
    extra = assert_validation_error(
        client.post(f"/v1/projects/{video}/retake-removal", json={"language": "en", "requested_outputs": []})
    )
    assert extra[0]["type"] == "extra_forbidden"
    assert_error(client.post(f"/v1/projects/{video}/vision", json={}), 501, "not_implemented")
    assert_error(client.post(f"/v1/projects/{video}/vision"), 501, "not_implemented")
    assert_error(
        client.post(f"/v1/projects/{video}/retake-removal", json={"language": "en"}), 501, "not_implemented"
    )
    assert_error(
        client.post(f"/v1/projects/{audio}/transcript", json={"language": "en", "diarize": True}),
        501,
        "not_implemented",
    )
    usage = client.get("/v1/me").json()["usage_today"]
    assert usage["analysis_commands"] == 0  # refused commands are not counted


def test_insufficient_credit_is_402_and_queues_nothing(server: Server, media_dir: Path) -> None:
    client = server.client(server.create_key("broke", credits=0))
    project_id = upload(client, media_dir / "deepspeech" / "LDC93S1.wav", "audio/wav")["project_id"]
    assert_error(
        client.post(f"/v1/projects/{project_id}/transcript", json={"language": "en"}),
        402,
        "insufficient_credits",
    )
    assert_error(client.get(f"/v1/projects/{project_id}/transcript"), 404, "analysis_not_started")
    assert client.get("/v1/me").json()["usage_today"]["analysis_commands"] == 0


def test_unknown_route_and_method(server: Server) -> None:
    client = server.client(server.create_key("routes"))
    assert_error(client.get("/v1/nothing-here"), 404, "not_found")
    assert_error(client.delete("/v1/me"), 405, "method_not_allowed")
