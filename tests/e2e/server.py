"""A real ``cutline serve`` in a subprocess, on a free port with its own data dir."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import httpx

CUTLINE = [sys.executable, "-m", "cutline"]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class Server:
    data_dir: Path
    settings: dict[str, str] = field(default_factory=dict)
    worker: bool = True
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = None
    log: IO[bytes] | None = None
    clients: list[httpx.Client] = field(default_factory=list)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith("CUTLINE_")}
        env.update({"CUTLINE_DATA_DIR": str(self.data_dir), "CUTLINE_PORT": str(self.port), **self.settings})
        return env

    def start(self) -> Server:
        args = [*CUTLINE, "serve"] + ([] if self.worker else ["--no-worker"])
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self.log = open(self.data_dir / "server.log", "ab")  # noqa: SIM115 - closed in stop()
        # A session of its own, so stop() can reach the worker child too.
        self.process = subprocess.Popen(
            args, env=self.env, stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(
                    f"cutline serve exited: {(self.data_dir / 'server.log').read_text()[-3000:]}"
                )
            try:
                if httpx.get(f"{self.url}/openapi.json", timeout=2).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.2)
        raise RuntimeError("cutline serve did not answer within 60 s")

    def stop(self) -> None:
        for client in self.clients:
            client.close()
        if self.process:
            if self.process.poll() is None:
                self.process.terminate()
                with contextlib.suppress(subprocess.TimeoutExpired):
                    self.process.wait(timeout=30)
            # Whatever is left of the group (a worker mid-shutdown) must not outlive the test.
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
        if self.log:
            self.log.close()

    def cli(self, *args: str) -> str:
        done = subprocess.run([*CUTLINE, *args], env=self.env, capture_output=True, text=True, check=True)
        return done.stdout

    def create_key(self, workspace: str, *, scopes: tuple[str, ...] = ("*",), credits: int = 100_000) -> str:
        out = self.cli(
            "keys", "create", "--workspace", workspace, "--scopes", *scopes, "--credits", str(credits)
        )
        return out.strip().splitlines()[-1]

    def client(self, key: str | None) -> httpx.Client:
        headers = {"Authorization": f"Bearer {key}"} if key else {}
        client = httpx.Client(base_url=self.url, headers=headers, timeout=30)
        self.clients.append(client)  # closed in stop()
        return client

    def worker_pid(self) -> int:
        return int((self.data_dir / "worker.pid").read_text())


def upload(client: httpx.Client, path: Path, content_type: str) -> dict[str, Any]:
    """Create a project, PUT the bytes to its signed URL and complete it; returns the completion body."""
    created = client.post(
        "/v1/projects/upload",
        json={"filename": path.name, "content_type": content_type, "size_bytes": path.stat().st_size},
    )
    assert created.status_code == 201, created.text
    body = created.json()
    put = httpx.put(body["upload_url"], content=path.read_bytes(), headers=body["upload_headers"], timeout=60)
    assert put.status_code == 200, put.text
    completed = client.post(f"/v1/projects/{body['project_id']}/upload/complete")
    assert completed.status_code == 200, completed.text
    result: dict[str, Any] = completed.json()
    return result


def wait_for_result(client: httpx.Client, path: str, *, timeout_s: float = 180) -> dict[str, Any]:
    """Poll a result GET until completed or failed; every intermediate status must be honest."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        response = client.get(path)
        assert response.status_code == 200, response.text
        body: dict[str, Any] = response.json()
        assert body["status"] in {"queued", "processing", "completed", "failed"}
        if body["status"] in {"completed", "failed"}:
            return body
        time.sleep(0.3)
    raise AssertionError(f"{path} did not finish within {timeout_s} s")
