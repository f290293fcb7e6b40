"""Probe a media file: which streams it really has, how long it is, how large its frames are."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import av

from cutline.errors import InvalidMedia

# Raw ADTS AAC carries no duration; PyAV's figure for it is an estimate from the bitrate.
_ESTIMATED_DURATION_FORMATS = {"aac", "adts"}


@dataclass(frozen=True)
class MediaInfo:
    media_kind: Literal["video", "audio"]
    duration_s: float
    width: int | None
    height: int | None
    has_audio: bool


def probe(path: Path) -> MediaInfo:
    """Facts about the file at ``path``; InvalidMedia when it is not playable audio or video."""
    if not path.is_file() or path.stat().st_size == 0:
        raise InvalidMedia("The file is empty.")
    try:
        with av.open(str(path)) as container:
            video: list[av.stream.Stream] = [
                s
                for s in container.streams.video
                # Cover art in audio files is a one-frame "video" stream; it does not make a video.
                if not (s.disposition & av.stream.Disposition.attached_pic)
            ]
            audio: list[av.stream.Stream] = list(container.streams.audio)
            if not video and not audio:
                raise InvalidMedia("The file has neither an audio nor a video stream.")
            duration_s: float | None
            if container.format.name in _ESTIMATED_DURATION_FORMATS and audio:
                duration_s = _decoded_audio_duration(container)
            else:
                duration_s = _declared_duration(container, video + audio)
                if duration_s is None:
                    duration_s = _decoded_audio_duration(container) if audio else None
    except av.FFmpegError as exc:
        raise InvalidMedia(f"The file could not be read as audio or video ({exc}).") from exc
    if duration_s is None or duration_s <= 0:
        raise InvalidMedia("The file has no playable duration.")
    codec = video[0].codec_context if video else None
    width = getattr(codec, "width", None)
    height = getattr(codec, "height", None)
    if video and not (width and height):
        raise InvalidMedia("The video stream has no frame size.")
    return MediaInfo(
        media_kind="video" if video else "audio",
        duration_s=round(duration_s, 3),
        width=width,
        height=height,
        has_audio=bool(audio),
    )


def _declared_duration(
    container: av.container.InputContainer, streams: list[av.stream.Stream]
) -> float | None:
    if container.duration is not None and container.duration > 0:
        return float(container.duration / av.time_base)
    durations = [float(s.duration * s.time_base) for s in streams if s.duration and s.time_base]
    return max(durations) if durations else None


def _decoded_audio_duration(container: av.container.InputContainer) -> float:
    container.seek(0)
    samples, rate = 0, 0
    for frame in container.decode(audio=0):
        samples += frame.samples
        rate = frame.sample_rate
    return samples / rate if rate else 0.0
