"""Projects: creation under quota, upload bookkeeping and completion by probing."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from cutline.domain.common import utcnow
from cutline.domain.quotas import count_daily
from cutline.domain.states import ProjectStatus, advance_project
from cutline.errors import Conflict, InvalidMedia, NotFound, PayloadTooLarge, UnsupportedMediaType
from cutline.media.probe import MediaInfo
from cutline.store.tables import Project

ALLOWED_CONTENT_TYPES = frozenset(
    {
        "video/mp4",
        "video/quicktime",
        "video/webm",
        "audio/mpeg",
        "audio/mp4",
        "audio/x-m4a",
        "audio/aac",
        "audio/wav",
        "audio/x-wav",
        "audio/flac",
        "audio/x-flac",
        "audio/ogg",
        "audio/webm",
    }
)


def source_key(project_id: str) -> str:
    return f"projects/{project_id}/source"


def create_project(
    session: Session,
    *,
    project_id: str,
    workspace_id: str,
    filename: str,
    content_type: str,
    size_bytes: int | None,
    max_upload_bytes: int,
    projects_per_day: int,
) -> Project:
    if content_type.lower() not in ALLOWED_CONTENT_TYPES:
        allowed = ", ".join(sorted(ALLOWED_CONTENT_TYPES))
        raise UnsupportedMediaType(
            f"Content type {content_type!r} is not supported; use one of: {allowed}.",
            code="unsupported_content_type",
        )
    if size_bytes is not None and size_bytes > max_upload_bytes:
        raise PayloadTooLarge(
            f"The file is {size_bytes} bytes; the maximum upload is {max_upload_bytes} bytes.",
            code="upload_too_large",
        )
    now = utcnow()
    count_daily(
        session, workspace_id=workspace_id, counter="projects_created", limit=projects_per_day, now=now
    )
    project = Project(
        id=project_id,
        workspace_id=workspace_id,
        status=ProjectStatus.CREATED,
        filename=filename,
        content_type=content_type.lower(),
        declared_size_bytes=size_bytes,
        size_bytes=None,
        media_kind=None,
        duration_s=None,
        width=None,
        height=None,
        error=None,
        created_at=now,
    )
    session.add(project)
    return project


def get_project(session: Session, *, workspace_id: str, project_id: str, for_update: bool = False) -> Project:
    """The workspace's project; another workspace's project is indistinguishable from none (404)."""
    query = select(Project).where(Project.id == project_id, Project.workspace_id == workspace_id)
    if for_update:
        query = query.with_for_update()
    project = session.scalars(query).first()
    if project is None:
        raise NotFound(f"No project {project_id!r} in this workspace.", code="project_not_found")
    return project


def ensure_accepts_upload(project: Project) -> None:
    if project.status not in (ProjectStatus.CREATED, ProjectStatus.UPLOADING):
        raise Conflict(
            f"The project is {project.status}; its source can no longer be replaced.", code="upload_closed"
        )


def record_upload(project: Project, size_bytes: int) -> None:
    ensure_accepts_upload(project)
    advance_project(project, ProjectStatus.UPLOADING)
    project.size_bytes = size_bytes


def complete_upload(project: Project, probed: MediaInfo | InvalidMedia) -> None:
    """Make the project ready with its probed facts, or failed with the probe's error."""
    if isinstance(probed, InvalidMedia):
        advance_project(project, ProjectStatus.FAILED)
        project.error = probed.message
        return
    advance_project(project, ProjectStatus.READY)
    project.media_kind = probed.media_kind
    project.duration_s = probed.duration_s
    project.width = probed.width
    project.height = probed.height


def ensure_ready_for_completion(project: Project) -> None:
    if project.status == ProjectStatus.CREATED:
        raise Conflict("No bytes were uploaded to this project yet.", code="upload_missing")
    if project.status == ProjectStatus.FAILED:
        raise Conflict(f"The upload failed and cannot be completed: {project.error}", code="project_failed")
