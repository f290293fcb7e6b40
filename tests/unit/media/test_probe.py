from __future__ import annotations

import math
from pathlib import Path

import pytest

from cutline.errors import InvalidMedia
from cutline.media.audio import decode_audio
from cutline.media.probe import probe


def test_audio_file(media_dir: Path) -> None:
    info = probe(media_dir / "openai_whisper" / "jfk.flac")
    assert info.media_kind == "audio" and info.has_audio
    assert math.isclose(info.duration_s, 11.0, abs_tol=0.05)
    assert info.width is None and info.height is None


def test_video_with_sound(media_dir: Path) -> None:
    info = probe(media_dir / "sadtalker" / "WDA_KatieHill_000.mp4")
    assert (info.media_kind, info.width, info.height, info.has_audio) == ("video", 512, 512, True)
    assert math.isclose(info.duration_s, 8.0, abs_tol=0.1)


def test_video_without_audio_track(media_dir: Path) -> None:
    info = probe(media_dir / "pyscenedetect" / "testvideo.mp4")
    assert info.media_kind == "video" and not info.has_audio
    assert (info.width, info.height) == (1280, 720)


def test_mp3_is_audio(media_dir: Path) -> None:
    info = probe(media_dir / "faster_whisper" / "multilingual.mp3")
    assert info.media_kind == "audio" and math.isclose(info.duration_s, 60.0, abs_tol=0.5)


@pytest.mark.parametrize("content", [b"", b"definitely not media " * 50, b"\x00" * 4096])
def test_unreadable_bytes(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "bad.mp4"
    path.write_bytes(content)
    with pytest.raises(InvalidMedia):
        probe(path)


def test_truncated_file_is_refused_or_shorter(tmp_path: Path, media_dir: Path) -> None:
    original = (media_dir / "sadtalker" / "WDA_KatieHill_000.mp4").read_bytes()
    path = tmp_path / "cut.mp4"
    path.write_bytes(original[:2000])  # the header is incomplete
    with pytest.raises(InvalidMedia):
        probe(path)


def test_decode_audio_is_16k_mono_float(media_dir: Path) -> None:
    samples = decode_audio(media_dir / "openai_whisper" / "jfk.flac")
    assert samples.dtype.name == "float32" and samples.ndim == 1
    assert abs(len(samples) - 11.0 * 16000) < 1600
    assert 0.1 < float(abs(samples).max()) <= 1.0


def test_decode_audio_without_audio_track(media_dir: Path) -> None:
    with pytest.raises(InvalidMedia, match="no audio"):
        decode_audio(media_dir / "pyscenedetect" / "testvideo.mp4")
