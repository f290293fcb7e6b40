"""The Celery app. Embedded mode uses kombu's filesystem transport: no broker server.

The queue only carries analysis ids; the database holds every state. Kombu's
filesystem transport removes a message when a worker takes it, so the recovery loop
(``domain.analyses.recover``) re-dispatches analyses whose worker died, whatever the broker.
"""

from __future__ import annotations

from functools import lru_cache

from celery import Celery

from cutline.config import Settings, get_settings
from cutline.domain.analyses import AnalysisKind

RUN_ANALYSIS_TASK = "cutline.run_analysis"
# One queue per engine, so GPU workers can take only theirs (`cutline worker --queues vision`).
QUEUE_BY_KIND = {
    AnalysisKind.TRANSCRIPT: "transcript",
    AnalysisKind.VISION: "vision",
    AnalysisKind.RETAKE_REMOVAL: "retakes",
}


def create_celery(settings: Settings) -> Celery:
    app = Celery("cutline", set_as_current=False)
    if settings.broker_url:
        app.conf.broker_url = settings.broker_url
    else:
        folder = settings.embedded_broker_dir
        for sub in ("queue", "control"):
            (folder / sub).mkdir(parents=True, exist_ok=True)
        app.conf.broker_url = "filesystem://"
        app.conf.broker_transport_options = {
            "data_folder_in": str(folder / "queue"),
            "data_folder_out": str(folder / "queue"),
            "control_folder": str(folder / "control"),
            "store_processed": False,
        }
    app.conf.update(
        task_ignore_result=True,
        task_acks_late=True,
        task_reject_on_worker_lost=True,
        worker_prefetch_multiplier=1,
        worker_hijack_root_logger=False,
        worker_enable_remote_control=False,
        broker_connection_retry_on_startup=True,
        task_default_queue=QUEUE_BY_KIND[AnalysisKind.TRANSCRIPT],
        # A Redis message not acknowledged in time is delivered again; keep that longer
        # than any job so a long transcription is not run twice.
        broker_transport_options={
            **app.conf.broker_transport_options,
            "visibility_timeout": 6 * 3600,
        },
    )

    @app.task(name=RUN_ANALYSIS_TASK, acks_late=True, ignore_result=True)  # type: ignore[untyped-decorator]
    def run_analysis(analysis_id: str) -> None:
        from cutline.jobs.runner import get_runner

        get_runner().run(analysis_id)

    return app


@lru_cache
def get_celery() -> Celery:
    return create_celery(get_settings())


class Dispatcher:
    """Sends "run analysis X" to the engine's queue. Called only after the command committed."""

    def __init__(self, app: Celery) -> None:
        self._app = app

    def send(self, analysis_id: str, kind: AnalysisKind) -> None:
        self._app.send_task(RUN_ANALYSIS_TASK, args=[analysis_id], queue=QUEUE_BY_KIND[kind])
