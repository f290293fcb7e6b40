"""Service overhead of a transcript: upload -> completed through a real server, against bare faster-whisper.

Baseline: faster-whisper's WhisperModel.transcribe on the same file, same weights, same device,
compute type and decoding settings, in this process. Measured: the whole service path for the
same file (create project, PUT, complete, start transcript, poll until completed) against a
`cutline serve` whose worker has already loaded the model (as in production).

    .venv/bin/python bench/transcript.py [--minutes 10]

Prints both real-time factors and the ratio service time / bare faster-whisper time.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
import wave
from pathlib import Path

import httpx
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from cutline.engines.transcript.asr import TranscribeOptions  # noqa: E402
from cutline.engines.transcript.models import load_model, resolve_device  # noqa: E402
from cutline.media.audio import WHISPER_SAMPLE_RATE, decode_audio  # noqa: E402
from tests.e2e.server import Server, upload, wait_for_result  # noqa: E402

MEDIA = ROOT.parent / "shared" / "media"
# English speech from the shared media, looped to the requested length.
SOURCES = [
    "openai_whisper/jfk.flac",
    "pyannote_audio/sample.wav",
    "pyannote_audio/ami_debug/dev00.wav",
    "pyannote_audio/ami_debug/tst00.wav",
    "vosk_api/test.wav",
    "deepspeech/LDC93S1.wav",
    *(f"pocketsphinx/sense_and_sensibility_01_austen_64kb-{n}.wav" for n in ("0870", "0880", "0890", "0920")),
]


def build_recording(path: Path, minutes: float) -> float:
    pieces = [decode_audio(MEDIA / name) for name in SOURCES]
    target = int(minutes * 60 * WHISPER_SAMPLE_RATE)
    looped: list[np.ndarray] = []
    total = 0
    while total < target:
        for piece in pieces:
            looped.append(piece)
            total += len(piece)
    samples = np.concatenate(looped)[:target]
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(WHISPER_SAMPLE_RATE)
        out.writeframes((np.clip(samples, -1, 1) * 32767).astype("<i2").tobytes())
    return target / WHISPER_SAMPLE_RATE


def bare_faster_whisper(path: Path, opts: TranscribeOptions) -> float:
    device, compute_type = resolve_device(opts.device, opts.compute_type)
    model = load_model(opts.model, device, compute_type, opts.cache_dir)
    started = time.perf_counter()
    segments, _ = model.transcribe(
        str(path),
        language=opts.language,
        beam_size=opts.beam_size,
        word_timestamps=True,
        vad_filter=opts.vad_filter,
        condition_on_previous_text=False,
    )
    for _segment in segments:
        pass
    return time.perf_counter() - started


def service_path(client: httpx.Client, path: Path) -> float:
    started = time.perf_counter()
    project = upload(client, path, "audio/wav")
    client.post(f"/v1/projects/{project['project_id']}/transcript", json={"language": "en"})
    result = wait_for_result(client, f"/v1/projects/{project['project_id']}/transcript", timeout_s=3600)
    elapsed = time.perf_counter() - started
    assert result["status"] == "completed", result
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--repeats", type=int, default=2, help="alternating runs of each; the fastest counts")
    args = parser.parse_args()
    opts = TranscribeOptions(language="en")
    with tempfile.TemporaryDirectory() as tmp:
        recording = Path(tmp) / "recording.wav"
        duration_s = build_recording(recording, args.minutes)
        print(f"recording: {duration_s:.0f} s of English speech from ../shared/media, looped")
        server = Server(Path(tmp) / "data").start()
        try:
            client = server.client(server.create_key("bench", credits=10_000_000))
            # Warm the worker (model load) the way a running deployment already is.
            service_path(client, MEDIA / "deepspeech" / "LDC93S1.wav")
            bare_runs, service_runs = [], []
            # Alternate the two so drift in this shared machine's speed hits both alike.
            for _ in range(args.repeats):
                bare_runs.append(bare_faster_whisper(recording, opts))
                service_runs.append(service_path(client, recording))
        finally:
            server.stop()
        bare_s, service_s = min(bare_runs), min(service_runs)
        runs = ", ".join(f"{s:.1f}" for s in bare_runs)
        print(
            f"bare faster-whisper ({opts.model}, beam {opts.beam_size}, {opts.device}): runs {runs} s; ",
            end="",
        )
        print(f"best {bare_s:.1f} s, {duration_s / bare_s:.1f}x real time")
        runs = ", ".join(f"{s:.1f}" for s in service_runs)
        print(f"service upload -> completed: runs {runs} s; best {service_s:.1f} s, ", end="")
        print(f"{duration_s / service_s:.1f}x real time")
        ratio = service_s / bare_s
        print(f"ratio service / bare faster-whisper: {ratio:.3f} (overhead {100 * (ratio - 1):.1f}%)")


if __name__ == "__main__":
    main()
