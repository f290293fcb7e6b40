"""Upload projects: creation with a signed upload URL, completion by probing, and detail."""

from __future__ import annotations

import time
from typing import Any
from urllib.parse import urlencode

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool

from cutline.api.deps import ProjectsRead, ProjectsWrite, ServicesDep
from cutline.api.schemas import (
    CompleteUploadResponse,
    ErrorBody,
    ProjectDetailResponse,
    Source,
    UploadProjectRequest,
    UploadProjectResponse,
)
from cutline.domain import projects, uploads
from cutline.domain.common import new_id, rfc3339
from cutline.domain.states import ProjectStatus
from cutline.errors import InvalidMedia
from cutline.media.probe import MediaInfo, probe
from cutline.store.tables import Project

router = APIRouter(prefix="/v1/projects", tags=["projects"])

_ERRORS: dict[int | str, dict[str, Any]] = {status: {"model": ErrorBody} for status in (401, 403, 404, 429)}


def source_of(project: Project) -> Source:
    return Source(
        type="upload",
        filename=project.filename,
        content_type=project.content_type,
        media_kind=project.media_kind,  # type: ignore[arg-type]
        size_bytes=project.size_bytes if project.size_bytes is not None else project.declared_size_bytes,
        url=None,
    )


@router.post(
    "/upload",
    status_code=201,
    response_model=UploadProjectResponse,
    responses={**_ERRORS, 413: {"model": ErrorBody}, 415: {"model": ErrorBody}},
)
def create_upload_project(
    body: UploadProjectRequest, caller: ProjectsWrite, services: ServicesDep, request: Request
) -> UploadProjectResponse:
    settings = services.settings
    with services.db.session(write=True) as session:
        project = projects.create_project(
            session,
            project_id=new_id("prj"),
            workspace_id=caller.workspace_id,
            filename=body.filename,
            content_type=body.content_type,
            size_bytes=body.size_bytes,
            max_upload_bytes=settings.max_upload_bytes,
            projects_per_day=settings.projects_per_day,
        )
    expires = int(time.time()) + settings.upload_url_ttl_s
    signature = uploads.sign(
        services.signing_secret,
        project_id=project.id,
        content_type=project.content_type,
        expires_epoch_s=expires,
    )
    base = (settings.public_base_url or str(request.base_url)).rstrip("/")
    query = urlencode({"expires": expires, "signature": signature})
    return UploadProjectResponse(
        project_id=project.id,
        status=ProjectStatus(project.status).value,
        created_at=rfc3339(project.created_at),
        source=source_of(project),
        upload_url=f"{base}/v1/uploads/{project.id}?{query}",
        upload_headers={"Content-Type": project.content_type},
        upload_expires_in_seconds=settings.upload_url_ttl_s,
    )


@router.post(
    "/{project_id}/upload/complete",
    response_model=CompleteUploadResponse,
    responses={**_ERRORS, 409: {"model": ErrorBody}},
)
async def complete_upload(
    project_id: str, caller: ProjectsWrite, services: ServicesDep
) -> CompleteUploadResponse:
    db = services.db

    def load() -> Project:
        with db.session() as session:
            project = projects.get_project(session, workspace_id=caller.workspace_id, project_id=project_id)
            if project.status != ProjectStatus.READY:
                projects.ensure_ready_for_completion(project)
            return project

    project = await run_in_threadpool(load)
    if project.status != ProjectStatus.READY:
        # Probe outside any transaction: decoding a long file must not hold the write lock.
        path = services.blobs.path(projects.source_key(project.id))
        outcome: MediaInfo | InvalidMedia
        try:
            outcome = await run_in_threadpool(probe, path)
        except InvalidMedia as exc:
            outcome = exc

        def record() -> Project:
            with db.session(write=True) as session:
                current = projects.get_project(
                    session, workspace_id=caller.workspace_id, project_id=project_id, for_update=True
                )
                if current.status == ProjectStatus.UPLOADING:
                    projects.complete_upload(current, outcome)
                return current

        project = await run_in_threadpool(record)
        if isinstance(outcome, InvalidMedia) and project.status == ProjectStatus.FAILED:
            raise InvalidMedia(
                f"The uploaded file cannot be read as audio or video: {outcome.message}",
                code="unreadable_media",
            )
        projects.ensure_ready_for_completion(project)
    assert project.duration_s is not None and project.size_bytes is not None
    return CompleteUploadResponse(
        project_id=project.id,
        status=ProjectStatus(project.status).value,
        created_at=rfc3339(project.created_at),
        source=source_of(project),
        source_size_bytes=project.size_bytes,
        duration=project.duration_s,
        width=project.width,
        height=project.height,
    )


@router.get("/{project_id}", response_model=ProjectDetailResponse, responses=_ERRORS)
def get_project(project_id: str, caller: ProjectsRead, services: ServicesDep) -> ProjectDetailResponse:
    with services.db.session() as session:
        project = projects.get_project(session, workspace_id=caller.workspace_id, project_id=project_id)
    probed = project.status == ProjectStatus.READY
    return ProjectDetailResponse(
        project_id=project.id,
        status=ProjectStatus(project.status).value,
        created_at=rfc3339(project.created_at),
        source=source_of(project),
        duration=project.duration_s if probed else None,
        source_size_bytes=project.size_bytes if probed else None,
        width=project.width if probed else None,
        height=project.height if probed else None,
    )
