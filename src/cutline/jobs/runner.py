"""The worker's side of an analysis: claim, keep the lease alive, run the engine, record the outcome."""

from __future__ import annotations

import logging
import threading
from functools import lru_cache

from cutline.config import Settings, get_settings
from cutline.domain import analyses
from cutline.domain.projects import source_key
from cutline.errors import CutlineError
from cutline.jobs.engines import run_engine
from cutline.store.blobs import LocalBlobStore
from cutline.store.db import Database

log = logging.getLogger(__name__)


class LeaseKeeper:
    """Renews the job's lease in the background every lease/4 seconds and records progress."""

    def __init__(self, db: Database, job: analyses.Job, lease_s: int) -> None:
        self._db = db
        self._job = job
        self._lease_s = lease_s
        self._progress = 0.0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="lease-keeper", daemon=True)

    def __enter__(self) -> LeaseKeeper:
        self._thread.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self._stop.set()
        self._thread.join()

    def report(self, fraction: float) -> None:
        self._progress = fraction

    def _loop(self) -> None:
        while not self._stop.wait(self._lease_s / 4):
            try:
                with self._db.session(write=True) as session:
                    held = analyses.renew_lease(
                        session, self._job, lease_s=self._lease_s, progress=self._progress
                    )
            except Exception:
                # A database hiccup must not kill the job; the next beat tries again.
                log.exception("could not renew the lease of %s", self._job.analysis_id)
                continue
            if not held:
                log.warning("analysis %s is no longer held by this worker", self._job.analysis_id)
                return


class Runner:
    def __init__(self, settings: Settings, db: Database, blobs: LocalBlobStore) -> None:
        self.settings = settings
        self.db = db
        self.blobs = blobs

    def run(self, analysis_id: str) -> None:
        lease_s = self.settings.analysis_lease_s
        with self.db.session(write=True) as session:
            job = analyses.claim(session, analysis_id, lease_s=lease_s)
        if job is None:
            log.info("analysis %s is not queued; nothing to do", analysis_id)
            return
        log.info("running %s analysis %s (dispatch %d)", job.kind, job.analysis_id, job.attempt)
        with LeaseKeeper(self.db, job, lease_s) as keeper:
            try:
                result = run_engine(
                    job, self.blobs.path(source_key(job.project_id)), self.settings, keeper.report
                )
            except CutlineError as exc:
                self._fail(job, exc.message)
                return
            except Exception as exc:
                log.exception("analysis %s crashed", job.analysis_id)
                self._fail(job, f"The analysis failed unexpectedly ({type(exc).__name__}: {exc}).")
                return
        with self.db.session(write=True) as session:
            if not analyses.complete(session, job, result):
                log.warning("analysis %s finished after losing its lease; result dropped", job.analysis_id)

    def _fail(self, job: analyses.Job, error: str) -> None:
        with self.db.session(write=True) as session:
            analyses.fail(session, job, error)


@lru_cache
def get_runner() -> Runner:
    settings = get_settings()
    db = Database(settings.resolved_database_url)
    db.create_all()
    return Runner(settings, db, LocalBlobStore(settings.blob_dir))
