"""Speech to words: faster-whisper over the decoded soundtrack, with word timings and confidences."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from cutline.engines.transcript.models import load_model, resolve_device
from cutline.errors import EngineError
from cutline.media.audio import WHISPER_SAMPLE_RATE, decode_audio


@dataclass(frozen=True)
class TranscribeOptions:
    language: str  # one of SUPPORTED_LANGUAGES; passed to Whisper rather than guessed
    model: str = "base"  # a shipped model name or a local CTranslate2 model directory
    device: str = "auto"  # auto: CUDA when a GPU is present, else CPU
    compute_type: str = "auto"  # auto: int8 on CPU, float16 on CUDA
    beam_size: int = 5  # beam 5 is Whisper's reference decoding; beam 1 is ~40% faster on CPU
    vad_filter: bool = True  # Silero VAD skips silence, where Whisper otherwise invents text
    cache_dir: Path | None = None  # where shipped weights are assembled; None: ~/.cache/cutline/models


@dataclass(frozen=True)
class Word:
    text: str
    start_s: float
    end_s: float
    confidence: float


@dataclass(frozen=True)
class Utterance:
    text: str
    start_s: float
    end_s: float
    word_start_idx: int
    word_end_idx: int  # exclusive


@dataclass(frozen=True)
class TranscriptInfo:
    model: str
    device: str
    compute_type: str
    language: str
    duration_s: float
    options: TranscribeOptions


@dataclass(frozen=True)
class Transcript:
    language: str
    text: str
    words: tuple[Word, ...]
    utterances: tuple[Utterance, ...]
    info: TranscriptInfo


def transcribe(
    audio_path: Path, opts: TranscribeOptions, progress: Callable[[float], None] | None = None
) -> Transcript:
    """Transcribe the soundtrack of ``audio_path``; ``progress`` gets the fraction done as segments arrive."""
    device, compute_type = resolve_device(opts.device, opts.compute_type)
    model = load_model(opts.model, device, compute_type, opts.cache_dir)
    samples = decode_audio(audio_path)
    duration_s = len(samples) / WHISPER_SAMPLE_RATE
    words: list[Word] = []
    utterances: list[Utterance] = []
    try:
        segments, _info = model.transcribe(
            samples,
            language=opts.language,
            beam_size=opts.beam_size,
            word_timestamps=True,
            vad_filter=opts.vad_filter,
            # Conditioning on earlier text is what lets Whisper loop on a phrase; cut it.
            condition_on_previous_text=False,
        )
        for segment in segments:
            first = len(words)
            for raw in segment.words or ():
                text = raw.word.strip()
                if not text:
                    continue
                # Keep times monotonic: Whisper's word times may step back a few ms at segment edges.
                start = max(round(float(raw.start), 3), words[-1].start_s if words else 0.0)
                end = max(round(float(raw.end), 3), start)
                words.append(Word(text, start, end, round(min(max(float(raw.probability), 0.0), 1.0), 4)))
            if len(words) > first:
                utterances.append(
                    Utterance(
                        text=segment.text.strip(),
                        start_s=words[first].start_s,
                        end_s=words[-1].end_s,
                        word_start_idx=first,
                        word_end_idx=len(words),
                    )
                )
            if progress is not None and duration_s > 0:
                progress(min(1.0, segment.end / duration_s))
    except RuntimeError as exc:
        raise EngineError(f"Speech recognition failed ({exc}).") from exc
    return Transcript(
        language=opts.language,
        text=" ".join(u.text for u in utterances),
        words=tuple(words),
        utterances=tuple(utterances),
        info=TranscriptInfo(
            model=opts.model,
            device=device,
            compute_type=compute_type,
            language=opts.language,
            duration_s=round(duration_s, 3),
            options=opts,
        ),
    )
