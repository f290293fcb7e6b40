"""GET /v1/me: the calling key, its workspace, limits, today's usage and the wallet."""

from __future__ import annotations

from fastapi import APIRouter

from cutline.api.deps import AnyKey, ServicesDep
from cutline.api.schemas import (
    ApiKeyInfo,
    Billing,
    ErrorBody,
    Limits,
    MeResponse,
    Pricing,
    UsageToday,
    WorkspaceInfo,
)
from cutline.domain.common import rfc3339, utcnow
from cutline.domain.quotas import usage_today
from cutline.store.tables import Workspace

router = APIRouter(prefix="/v1", tags=["me"])


@router.get("/me", response_model=MeResponse, responses={s: {"model": ErrorBody} for s in (401, 403, 429)})
def describe_key(caller: AnyKey, services: ServicesDep) -> MeResponse:
    settings = services.settings
    with services.db.session() as session:
        usage = usage_today(session, workspace_id=caller.workspace_id, now=utcnow())
        workspace = session.get(Workspace, caller.workspace_id)
        assert workspace is not None
        balance = workspace.credit_balance_cents if settings.billing_enabled else None
    context = {
        "money_unit": f"integer cents of {settings.currency}",
        "usage_today": "counts since day_resets_at minus one day (UTC); the same counters enforce the limits",
    }
    if balance is None:
        context["balance_note"] = (
            "Credit billing is disabled on this deployment: credit_balance_cents is null "
            "and commands are not charged."
        )
    return MeResponse(
        workspace=WorkspaceInfo(id=workspace.id, name=workspace.name),
        api_key=ApiKeyInfo(prefix=caller.prefix, name=caller.name, scopes=list(caller.scopes)),
        limits=Limits(
            requests_per_minute_per_key=settings.requests_per_minute_per_key,
            projects_per_day=settings.projects_per_day,
            analysis_commands_per_day=settings.analysis_commands_per_day,
            max_upload_bytes=settings.max_upload_bytes,
        ),
        usage_today=UsageToday(
            projects_created=usage.projects_created,
            analysis_commands=usage.analysis_commands,
            day_resets_at=rfc3339(usage.resets_at),
        ),
        billing=Billing(
            credit_balance_cents=balance,
            currency=settings.currency,
            pricing=Pricing(
                transcript_per_uploaded_hour_cents=settings.price_transcript_per_hour_cents,
                diarization_addon_per_hour_cents=settings.price_diarization_per_hour_cents,
                vision_per_minute_cents=settings.price_vision_per_minute_cents,
                retake_removal_per_minute_cents=settings.price_retake_removal_per_minute_cents,
            ),
        ),
        agent_context=context,
    )
