"""/openapi.json describes the contract's operations with its field names."""

from __future__ import annotations

from tests.e2e.server import Server

OPERATIONS = {
    ("post", "/v1/projects/upload"): "201",
    ("post", "/v1/projects/{project_id}/upload/complete"): "200",
    ("get", "/v1/projects/{project_id}"): "200",
    ("post", "/v1/projects/{project_id}/transcript"): "202",
    ("get", "/v1/projects/{project_id}/transcript"): "200",
    ("post", "/v1/projects/{project_id}/vision"): "202",
    ("get", "/v1/projects/{project_id}/vision"): "200",
    ("post", "/v1/projects/{project_id}/retake-removal"): "202",
    ("get", "/v1/projects/{project_id}/retake-removal"): "200",
    ("get", "/v1/me"): "200",
}


def test_openapi_lists_every_operation_with_its_status(server: Server) -> None:
    spec = server.client(None).get("/openapi.json").json()
    assert spec["info"]["version"] == "0.1.0"
    listed = {(method, path) for path, item in spec["paths"].items() for method in item}
    assert listed == set(OPERATIONS)
    for (method, path), status in OPERATIONS.items():
        operation = spec["paths"][path][method]
        assert status in operation["responses"], (method, path)
        assert operation.get("security"), f"{method} {path} must declare the bearer key"


def test_schemas_carry_the_contract_fields(server: Server) -> None:
    schemas = server.client(None).get("/openapi.json").json()["components"]["schemas"]
    assert set(schemas["UploadProjectRequest"]["required"]) == {"filename", "content_type"}
    assert set(schemas["MeResponse"]["required"]) == {
        "workspace", "api_key", "limits", "usage_today", "billing", "agent_context",
    }  # fmt: skip
    assert set(schemas["TranscriptionResultResponse"]["required"]) == {"project_id", "status"}
    assert set(schemas["CompleteUploadResponse"]["required"]) >= {
        "project_id", "status", "created_at", "source", "source_size_bytes", "duration",
    }  # fmt: skip
    assert schemas["RetakeRemovalRequest"]["additionalProperties"] is False
    assert "HTTPValidationError" in schemas
    languages = schemas["TranscriptionRequest"]["properties"]["language"]["enum"]
    assert len(languages) == 26 and "mt" in languages and "ja" not in languages
