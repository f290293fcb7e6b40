"""The application factory and its lifespan: services up, recovery loop running, services down."""

from __future__ import annotations

import logging
import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI

from cutline import __version__
from cutline.api import errors
from cutline.api.deps import Services
from cutline.api.routes import analyses as analyses_routes
from cutline.api.routes import me, projects, uploads
from cutline.config import Settings, get_settings
from cutline.domain import analyses
from cutline.domain.analyses import AnalysisKind
from cutline.domain.quotas import RateLimiter
from cutline.jobs.queue import Dispatcher, create_celery
from cutline.store.blobs import LocalBlobStore
from cutline.store.db import Database
from cutline.store.tables import Analysis

log = logging.getLogger(__name__)


class RecoveryLoop:
    """Periodically re-queues analyses of dead workers and re-sends ones that never reached the broker."""

    def __init__(self, services: Services) -> None:
        self._services = services
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="recovery", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=10)

    def run_once(self) -> None:
        settings, db = self._services.settings, self._services.db
        with db.session(write=True) as session:
            ids = analyses.recover(
                session,
                max_runs=settings.max_analysis_attempts,
                undispatched_after_s=settings.recovery_interval_s,
            )
            kinds = {a.id: AnalysisKind(a.kind) for a in (session.get(Analysis, i) for i in ids) if a}
        for analysis_id, kind in kinds.items():
            log.warning("re-dispatching analysis %s", analysis_id)
            self._services.dispatch(analysis_id, kind)

    def _loop(self) -> None:
        while not self._stop.wait(self._services.settings.recovery_interval_s):
            try:
                self.run_once()
            except Exception:
                log.exception("recovery pass failed; trying again later")


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or get_settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        db = Database(settings.resolved_database_url)
        db.create_all()
        services = Services(
            settings=settings,
            db=db,
            blobs=LocalBlobStore(settings.blob_dir),
            dispatcher=Dispatcher(create_celery(settings)),
            rate_limiter=RateLimiter(),
            signing_secret=settings.resolved_signing_secret(),
        )
        app.state.services = services
        recovery = RecoveryLoop(services)
        recovery.start()
        try:
            yield
        finally:
            recovery.stop()
            db.dispose()

    app = FastAPI(
        title="Cutline media analysis API",
        version="0.1.0",
        description=f"Cutline {__version__}: transcripts, vision and retake removal for uploaded media.",
        lifespan=lifespan,
    )
    errors.install(app)
    for router in (projects.router, uploads.router, analyses_routes.router, me.router):
        app.include_router(router)
    return app
