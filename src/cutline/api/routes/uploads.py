"""The signed upload URL for the local blob store: PUT streams the bytes to disk.

Not a service path in the contract (it is whatever ``upload_url`` says), so it is left
out of /openapi.json. The signature, not a bearer key, authorises it.
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool

from cutline.api.deps import ServicesDep
from cutline.api.schemas import UploadReceipt
from cutline.domain import projects, uploads
from cutline.domain.states import ProjectStatus
from cutline.errors import NotFound, PayloadTooLarge, UnsupportedMediaType
from cutline.store.tables import Project

router = APIRouter(prefix="/v1/uploads", tags=["uploads"])


@router.put("/{project_id}", include_in_schema=False)
async def put_source(
    project_id: str,
    request: Request,
    services: ServicesDep,
    expires: str | None = None,
    signature: str | None = None,
) -> UploadReceipt:
    settings = services.settings
    db = services.db

    def load() -> Project:
        with db.session() as session:
            project = session.get(Project, project_id)
        if project is None:
            raise NotFound("No such upload.", code="upload_not_found")
        return project

    project = await run_in_threadpool(load)
    uploads.verify(
        services.signing_secret,
        project_id=project.id,
        content_type=project.content_type,
        expires=expires,
        signature=signature,
    )
    sent_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if sent_type != project.content_type:
        raise UnsupportedMediaType(
            f"Send the bytes with Content-Type {project.content_type!r}, as declared; "
            f"got {sent_type or 'none'!r}.",
            code="content_type_mismatch",
        )
    projects.ensure_accepts_upload(project)
    declared_length = request.headers.get("content-length", "")
    if declared_length.isdigit() and int(declared_length) > settings.max_upload_bytes:
        raise PayloadTooLarge(
            f"The upload exceeds the maximum of {settings.max_upload_bytes} bytes.", code="upload_too_large"
        )

    key = projects.source_key(project.id)
    size = await services.blobs.write_stream(key, request.stream(), max_bytes=settings.max_upload_bytes)

    def record() -> Project:
        with db.session(write=True) as session:
            current = session.get(Project, project_id, with_for_update=True)
            assert current is not None
            projects.record_upload(current, size)
            return current

    project = await run_in_threadpool(record)
    return UploadReceipt(project_id=project.id, status=ProjectStatus(project.status).value, size_bytes=size)
