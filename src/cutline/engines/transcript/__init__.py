"""The transcript engine: ``transcribe(path, TranscribeOptions) -> Transcript``."""

from cutline.engines.transcript.asr import (
    TranscribeOptions,
    Transcript,
    TranscriptInfo,
    Utterance,
    Word,
    transcribe,
)
from cutline.engines.transcript.languages import SUPPORTED_LANGUAGES

__all__ = [
    "SUPPORTED_LANGUAGES",
    "TranscribeOptions",
    "Transcript",
    "TranscriptInfo",
    "Utterance",
    "Word",
    "transcribe",
]
