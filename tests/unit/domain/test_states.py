from __future__ import annotations

import pytest

from cutline.domain.states import (
    ANALYSIS_TRANSITIONS,
    AnalysisStatus,
    InvalidTransition,
    ProjectStatus,
    advance_analysis,
    advance_project,
)
from cutline.store.tables import Analysis, Project


def test_project_lifecycle() -> None:
    project = Project(status=ProjectStatus.CREATED)
    advance_project(project, ProjectStatus.UPLOADING)
    advance_project(project, ProjectStatus.UPLOADING)  # a second PUT replaces the bytes
    advance_project(project, ProjectStatus.READY)
    with pytest.raises(InvalidTransition):
        advance_project(project, ProjectStatus.UPLOADING)


@pytest.mark.parametrize("target", [ProjectStatus.READY, ProjectStatus.FAILED])
def test_project_cannot_skip_the_upload(target: ProjectStatus) -> None:
    with pytest.raises(InvalidTransition):
        advance_project(Project(status=ProjectStatus.CREATED), target)


def test_failed_project_is_terminal() -> None:
    project = Project(status=ProjectStatus.FAILED)
    for target in ProjectStatus:
        with pytest.raises(InvalidTransition):
            advance_project(project, target)


def test_analysis_transitions_match_the_table() -> None:
    for current in AnalysisStatus:
        for target in AnalysisStatus:
            analysis = Analysis(status=current)
            if target in ANALYSIS_TRANSITIONS[current]:
                advance_analysis(analysis, target)
                assert analysis.status == target
            else:
                with pytest.raises(InvalidTransition):
                    advance_analysis(analysis, target)
    assert not ANALYSIS_TRANSITIONS[AnalysisStatus.COMPLETED]
    assert AnalysisStatus.QUEUED in ANALYSIS_TRANSITIONS[AnalysisStatus.PROCESSING]  # dead worker
