"""Dependencies routes declare by type: the app's services and the authenticated caller."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Request, Response
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from cutline.api.errors import rate_limit_headers
from cutline.config import Settings
from cutline.domain import analyses, keys
from cutline.domain.analyses import AnalysisKind
from cutline.domain.quotas import RateLimiter
from cutline.jobs.queue import Dispatcher
from cutline.store.blobs import LocalBlobStore
from cutline.store.db import Database

log = logging.getLogger(__name__)


@dataclass
class Services:
    settings: Settings
    db: Database
    blobs: LocalBlobStore
    dispatcher: Dispatcher
    rate_limiter: RateLimiter
    signing_secret: bytes  # read once at start-up, not per request

    def dispatch(self, analysis_id: str, kind: AnalysisKind) -> None:
        """Send a committed analysis to its queue; on broker failure the recovery loop resends it."""
        try:
            self.dispatcher.send(analysis_id, kind)
        except Exception:
            log.exception("could not dispatch analysis %s; it will be retried", analysis_id)
            return
        with self.db.session(write=True) as session:
            analyses.mark_dispatched(session, analysis_id)


def get_services(request: Request) -> Services:
    services: Services = request.app.state.services
    return services


ServicesDep = Annotated[Services, Depends(get_services)]

_bearer = HTTPBearer(auto_error=False, description="An API key: `Authorization: Bearer cl_...`")


def _authenticate(
    services: ServicesDep,
    response: Response,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> keys.Caller:
    with services.db.session() as session:
        caller = keys.authenticate(session, credentials.credentials if credentials else None)
    window = services.rate_limiter.hit(caller.key_id, services.settings.requests_per_minute_per_key)
    response.headers.update(rate_limit_headers(window.limit, window.remaining, window.reset_epoch_s))
    return caller


def require_scope(scope: str | None) -> Callable[..., keys.Caller]:
    """A dependency that authenticates the key and, unless ``scope`` is None, checks the scope."""

    def dependency(caller: Annotated[keys.Caller, Depends(_authenticate)]) -> keys.Caller:
        if scope is not None:
            caller.require(scope)
        return caller

    return dependency


AnyKey = Annotated[keys.Caller, Depends(require_scope(None))]
ProjectsRead = Annotated[keys.Caller, Depends(require_scope("projects:read"))]
ProjectsWrite = Annotated[keys.Caller, Depends(require_scope("projects:write"))]
TranscriptScope = Annotated[keys.Caller, Depends(require_scope("transcript"))]
VisionScope = Annotated[keys.Caller, Depends(require_scope("vision"))]
RetakeScope = Annotated[keys.Caller, Depends(require_scope("retake_removal"))]
