"""Decode the first audio stream to float32 mono at a fixed sample rate."""

from __future__ import annotations

from pathlib import Path

import av
import numpy as np

from cutline.errors import InvalidMedia

WHISPER_SAMPLE_RATE = 16_000


def decode_audio(path: Path, sample_rate: int = WHISPER_SAMPLE_RATE) -> np.ndarray:
    """The whole soundtrack as float32 samples in [-1, 1], mono, at ``sample_rate``."""
    try:
        with av.open(str(path)) as container:
            if not container.streams.audio:
                raise InvalidMedia("The source has no audio track to transcribe.")
            stream = container.streams.audio[0]
            resampler = av.AudioResampler(format="s16", layout="mono", rate=sample_rate)
            chunks: list[np.ndarray] = []
            for frame in container.decode(stream):
                chunks.extend(r.to_ndarray().reshape(-1) for r in resampler.resample(frame))
            chunks.extend(r.to_ndarray().reshape(-1) for r in resampler.resample(None))
    except av.FFmpegError as exc:
        raise InvalidMedia(f"The audio could not be decoded ({exc}).") from exc
    if not chunks:
        return np.zeros(0, dtype=np.float32)
    # int16 chunks are a quarter of the float32 result; convert once at the end.
    return np.concatenate(chunks).astype(np.float32) / 32768.0
