"""Analysis commands (202 acknowledgments) and their result GETs."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from cutline.api.deps import RetakeScope, Services, ServicesDep, TranscriptScope, VisionScope
from cutline.api.schemas import (
    TRANSCRIPT_OUTPUTS,
    VISION_OUTPUTS,
    ErrorBody,
    FaceDetectionRequest,
    RetakeRemovalAck,
    RetakeRemovalRequest,
    RetakeRemovalResultResponse,
    TranscriptAck,
    TranscriptionRequest,
    TranscriptionResultResponse,
    VisionAck,
    VisionResultResponse,
)
from cutline.domain import analyses, projects
from cutline.domain.analyses import AnalysisKind, Pricing, StartPolicy
from cutline.domain.common import rfc3339
from cutline.domain.keys import Caller
from cutline.domain.states import AnalysisStatus, ProjectStatus
from cutline.errors import Conflict, InvalidRequest, NotImplementedYet
from cutline.store.tables import Analysis

router = APIRouter(prefix="/v1/projects", tags=["analyses"])

_COMMAND_ERRORS: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorBody} for status in (401, 402, 403, 404, 409, 429, 501, 503)
}
_RESULT_ERRORS: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorBody} for status in (401, 403, 404, 429)
}

TRANSCRIPT_AGENT_CONTEXT = {
    "time_unit": "seconds",
    "time_origin": "the start of the source",
    "speaker_ids": "speaker ids are stable within this response, numbered from 0 by first appearance",
    "word_indices": "word_start_idx is inclusive and word_end_idx is exclusive; both index into words",
}


def start_policy(services: Services) -> StartPolicy:
    settings = services.settings
    return StartPolicy(
        pricing=Pricing(
            transcript_per_hour_cents=settings.price_transcript_per_hour_cents,
            diarization_per_hour_cents=settings.price_diarization_per_hour_cents,
            vision_per_minute_cents=settings.price_vision_per_minute_cents,
            retake_removal_per_minute_cents=settings.price_retake_removal_per_minute_cents,
        ),
        billing_enabled=settings.billing_enabled,
        analysis_commands_per_day=settings.analysis_commands_per_day,
        max_attempts=settings.max_analysis_attempts,
    )


def _start(
    services: Services,
    caller: Caller,
    project_id: str,
    kind: AnalysisKind,
    params: dict[str, Any],
    unavailable: str | None = None,
) -> Analysis:
    """Validate in the contract's order, start or replay the command, dispatch after commit."""
    with services.db.session(write=True) as session:
        project = projects.get_project(session, workspace_id=caller.workspace_id, project_id=project_id)
        if project.status != ProjectStatus.READY:
            raise Conflict(
                f"The project is {project.status}; complete the upload before starting analyses.",
                code="project_not_ready",
            )
        if kind is not AnalysisKind.TRANSCRIPT and project.media_kind == "audio":
            raise InvalidRequest(
                f"The source is audio; {kind} needs a video source.",
                code="audio_source",
                loc=("path", "project_id"),
            )
        if unavailable:
            raise NotImplementedYet(unavailable)
        started = analyses.start(
            session, project=project, kind=kind, params=params, policy=start_policy(services)
        )
    if started.dispatch:
        services.dispatch(started.analysis.id, kind)
    return started.analysis


def _result_of(services: Services, caller: Caller, project_id: str, kind: AnalysisKind) -> Analysis:
    with services.db.session() as session:
        project = projects.get_project(session, workspace_id=caller.workspace_id, project_id=project_id)
        return analyses.get(session, project_id=project.id, kind=kind)


@router.post(
    "/{project_id}/transcript", status_code=202, response_model=TranscriptAck, responses=_COMMAND_ERRORS
)
def start_transcript(
    project_id: str, body: TranscriptionRequest, caller: TranscriptScope, services: ServicesDep
) -> TranscriptAck:
    params = {
        "language": body.language,
        "requested_outputs": body.requested_outputs or list(TRANSCRIPT_OUTPUTS),
        "diarize": body.diarize,
    }
    unavailable = (
        "Speaker diarization is not available yet in this version of Cutline; send diarize: false."
        if body.diarize
        else None
    )
    analysis = _start(services, caller, project_id, AnalysisKind.TRANSCRIPT, params, unavailable)
    return TranscriptAck(
        project_id=project_id,
        status=analysis.status,  # type: ignore[arg-type]
        requested_outputs=analysis.params["requested_outputs"],
        created_at=rfc3339(analysis.created_at),
    )


@router.get(
    "/{project_id}/transcript",
    response_model=TranscriptionResultResponse,
    response_model_exclude_unset=True,
    responses=_RESULT_ERRORS,
)
def get_transcript(
    project_id: str, caller: TranscriptScope, services: ServicesDep
) -> TranscriptionResultResponse:
    analysis = _result_of(services, caller, project_id, AnalysisKind.TRANSCRIPT)
    response = TranscriptionResultResponse(
        project_id=project_id,
        analysis="transcript",
        status=analysis.status,  # type: ignore[arg-type]
        language=analysis.params["language"],
        error=analysis.error,
    )
    if analysis.status == AnalysisStatus.COMPLETED and analysis.result is not None:
        result, wanted = analysis.result, set(analysis.params["requested_outputs"])
        response = TranscriptionResultResponse.model_validate(
            {
                **response.model_dump(exclude_unset=True),
                "language": result["language"],
                "agent_context": TRANSCRIPT_AGENT_CONTEXT,
                "text": result["text"] if "text" in wanted else "",
                "words": result["words"] if "words" in wanted else [],
                "utterances": result["utterances"] if "utterances" in wanted else [],
                "speakers": result["speakers"] if "speakers" in wanted else [],
            }
        )
    return response


VISION_UNAVAILABLE = "The vision engine is not available yet in this version of Cutline."
RETAKES_UNAVAILABLE = "The retake-removal engine is not available yet in this version of Cutline."


@router.post("/{project_id}/vision", status_code=202, response_model=VisionAck, responses=_COMMAND_ERRORS)
def start_vision(
    project_id: str, caller: VisionScope, services: ServicesDep, body: FaceDetectionRequest | None = None
) -> VisionAck:
    outputs = (body.requested_outputs if body else None) or list(VISION_OUTPUTS)
    analysis = _start(
        services, caller, project_id, AnalysisKind.VISION, {"requested_outputs": outputs}, VISION_UNAVAILABLE
    )
    return VisionAck(
        project_id=project_id,
        status=analysis.status,  # type: ignore[arg-type]
        requested_outputs=analysis.params["requested_outputs"],
        created_at=rfc3339(analysis.created_at),
    )


@router.get(
    "/{project_id}/vision",
    response_model=VisionResultResponse,
    response_model_exclude_unset=True,
    responses=_RESULT_ERRORS,
)
def get_vision(project_id: str, caller: VisionScope, services: ServicesDep) -> VisionResultResponse:
    analysis = _result_of(services, caller, project_id, AnalysisKind.VISION)
    return VisionResultResponse(
        project_id=project_id,
        analysis="vision",
        status=analysis.status,  # type: ignore[arg-type]
        error=analysis.error,
    )


@router.post(
    "/{project_id}/retake-removal",
    status_code=202,
    response_model=RetakeRemovalAck,
    responses=_COMMAND_ERRORS,
)
def start_retake_removal(
    project_id: str, body: RetakeRemovalRequest, caller: RetakeScope, services: ServicesDep
) -> RetakeRemovalAck:
    analysis = _start(
        services,
        caller,
        project_id,
        AnalysisKind.RETAKE_REMOVAL,
        {"language": body.language},
        RETAKES_UNAVAILABLE,
    )
    return RetakeRemovalAck(
        project_id=project_id,
        status=analysis.status,  # type: ignore[arg-type]
        created_at=rfc3339(analysis.created_at),
    )


@router.get(
    "/{project_id}/retake-removal",
    response_model=RetakeRemovalResultResponse,
    response_model_exclude_unset=True,
    responses=_RESULT_ERRORS,
)
def get_retake_removal(
    project_id: str, caller: RetakeScope, services: ServicesDep
) -> RetakeRemovalResultResponse:
    analysis = _result_of(services, caller, project_id, AnalysisKind.RETAKE_REMOVAL)
    return RetakeRemovalResultResponse(
        project_id=project_id,
        status=analysis.status,  # type: ignore[arg-type]
        error=analysis.error,
    )
