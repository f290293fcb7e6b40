"""The transcript engine on real recordings with the shipped Whisper base model."""

from __future__ import annotations

import itertools
import re
import wave
from pathlib import Path

import pytest

from cutline.engines.transcript import TranscribeOptions, transcribe
from cutline.engines.transcript.models import resolve_model_dir
from cutline.errors import EngineError
from tests.wer import JFK_REFERENCE, word_error_rate


def test_english_words_timings_and_utterances(media_dir: Path) -> None:
    fractions: list[float] = []
    result = transcribe(
        media_dir / "openai_whisper" / "jfk.flac", TranscribeOptions(language="en"), progress=fractions.append
    )
    assert word_error_rate(JFK_REFERENCE, result.text) < 0.15, result.text
    assert result.language == "en" and result.info.model == "base" and result.info.device == "cpu"
    americans = next(w for w in result.words if "americans" in w.text.lower())
    assert americans.start_s - 0.5 <= 1.8 <= americans.end_s + 0.5
    assert all(0.0 <= w.confidence <= 1.0 and w.start_s <= w.end_s for w in result.words)
    assert all(a.start_s <= b.start_s for a, b in itertools.pairwise(result.words))
    assert all(w.text == w.text.strip() and w.text for w in result.words)
    assert result.utterances[0].word_start_idx == 0 and result.utterances[-1].word_end_idx == len(
        result.words
    )
    for left, right in itertools.pairwise(result.utterances):
        assert left.word_end_idx == right.word_start_idx
    assert fractions and fractions == sorted(fractions) and fractions[-1] <= 1.0


def test_russian_is_transcribed_in_cyrillic(media_dir: Path) -> None:
    result = transcribe(media_dir / "deepspeech" / "ru.wav", TranscribeOptions(language="ru"))
    assert result.language == "ru"
    assert re.search("[а-яА-Я]{3,}", result.text), result.text


def test_silence_yields_no_text(tmp_path: Path) -> None:
    path = tmp_path / "silence.wav"
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(16000)
        out.writeframes(b"\x00\x00" * 16000 * 3)
    result = transcribe(path, TranscribeOptions(language="en"))
    assert result.text == "" and result.words == () and result.utterances == ()


def test_unknown_model_and_broken_directory(tmp_path: Path) -> None:
    with pytest.raises(EngineError, match="Unknown ASR model"):
        resolve_model_dir("whisper-huge-from-nowhere")
    with pytest.raises(EngineError, match=r"model\.bin"):
        resolve_model_dir(str(tmp_path))
    (tmp_path / "model.bin").write_bytes(b"not a model")
    with pytest.raises(EngineError, match="could not be loaded"):
        transcribe(Path("unused.wav"), TranscribeOptions(language="en", model=str(tmp_path)))


def test_shipped_weights_are_assembled_once(tmp_path: Path) -> None:
    first = resolve_model_dir("base", tmp_path)
    stamp = (first / "model.bin").stat().st_mtime_ns
    assert resolve_model_dir("base", tmp_path) == first
    assert (first / "model.bin").stat().st_mtime_ns == stamp
    assert {p.name for p in first.iterdir()} == {
        "config.json",
        "model.bin",
        "tokenizer.json",
        "vocabulary.txt",
    }
