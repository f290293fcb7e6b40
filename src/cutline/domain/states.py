"""The two state machines: project status and analysis status.

Nothing assigns ``status`` directly; callers go through ``advance_project`` and
``advance_analysis``, which refuse transitions that are not in the tables.
"""

from __future__ import annotations

from enum import StrEnum

from cutline.store.tables import Analysis, Project


class InvalidTransition(Exception):
    def __init__(self, kind: str, current: str, target: str) -> None:
        super().__init__(f"{kind} cannot go from {current!r} to {target!r}")
        self.current = current
        self.target = target


class ProjectStatus(StrEnum):
    CREATED = "created"  # the project exists, no bytes yet
    UPLOADING = "uploading"  # bytes are stored, not yet probed
    READY = "ready"  # probed; analyses are accepted
    FAILED = "failed"  # the bytes could not be probed; terminal


PROJECT_TRANSITIONS: dict[ProjectStatus, frozenset[ProjectStatus]] = {
    ProjectStatus.CREATED: frozenset({ProjectStatus.UPLOADING}),
    # A second PUT before completion replaces the bytes and stays in UPLOADING.
    ProjectStatus.UPLOADING: frozenset({ProjectStatus.UPLOADING, ProjectStatus.READY, ProjectStatus.FAILED}),
    ProjectStatus.READY: frozenset(),
    ProjectStatus.FAILED: frozenset(),
}


class AnalysisStatus(StrEnum):
    QUEUED = "queued"  # waiting for a worker
    PROCESSING = "processing"  # a worker holds a lease on it
    COMPLETED = "completed"  # result written; terminal
    FAILED = "failed"  # error written, charge refunded; may be re-dispatched


ANALYSIS_TRANSITIONS: dict[AnalysisStatus, frozenset[AnalysisStatus]] = {
    AnalysisStatus.QUEUED: frozenset({AnalysisStatus.PROCESSING, AnalysisStatus.FAILED}),
    # PROCESSING -> QUEUED: the worker died and its lease lapsed.
    AnalysisStatus.PROCESSING: frozenset(
        {AnalysisStatus.COMPLETED, AnalysisStatus.FAILED, AnalysisStatus.QUEUED}
    ),
    AnalysisStatus.COMPLETED: frozenset(),
    # FAILED -> QUEUED: a repeated start re-dispatches it.
    AnalysisStatus.FAILED: frozenset({AnalysisStatus.QUEUED}),
}


def advance_project(project: Project, target: ProjectStatus) -> None:
    current = ProjectStatus(project.status)
    if target not in PROJECT_TRANSITIONS[current]:
        raise InvalidTransition("project", current, target)
    project.status = target


def advance_analysis(analysis: Analysis, target: AnalysisStatus) -> None:
    current = AnalysisStatus(analysis.status)
    if target not in ANALYSIS_TRANSITIONS[current]:
        raise InvalidTransition("analysis", current, target)
    analysis.status = target
