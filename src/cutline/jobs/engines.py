"""Adapters from a job to an engine call, and from the engine's typed result to the stored result.

Stored results use the contract's field names, with every output present; result GETs
select the requested outputs from them.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from cutline.config import Settings
from cutline.domain.analyses import AnalysisKind, Job
from cutline.engines.transcript import TranscribeOptions, Transcript, transcribe
from cutline.errors import NotImplementedYet

Progress = Callable[[float], None]


def run_engine(job: Job, media: Path, settings: Settings, progress: Progress) -> dict[str, Any]:
    if job.kind is AnalysisKind.TRANSCRIPT:
        options = TranscribeOptions(
            language=job.params["language"],
            model=settings.asr_model,
            device=settings.device,
            cache_dir=settings.model_cache_dir,
        )
        return transcript_result(transcribe(media, options, progress=progress))
    raise NotImplementedYet(f"The {job.kind} engine is not available in this version of Cutline.")


def transcript_result(transcript: Transcript) -> dict[str, Any]:
    return {
        "language": transcript.language,
        "text": transcript.text,
        "words": [
            {"text": w.text, "start": w.start_s, "end": w.end_s, "confidence": w.confidence}
            for w in transcript.words
        ],
        "utterances": [
            {
                "start": u.start_s,
                "end": u.end_s,
                "text": u.text,
                "word_start_idx": u.word_start_idx,
                "word_end_idx": u.word_end_idx,
            }
            for u in transcript.utterances
        ],
        "speakers": [],
        "model": {
            "name": transcript.info.model,
            "device": transcript.info.device,
            "compute_type": transcript.info.compute_type,
        },
    }
