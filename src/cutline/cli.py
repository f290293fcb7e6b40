"""The ``cutline`` command: serve, worker and keys."""

from __future__ import annotations

import argparse
import logging
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Sequence

from cutline.config import Settings, get_settings
from cutline.domain import keys
from cutline.errors import CutlineError
from cutline.jobs.queue import QUEUE_BY_KIND
from cutline.store.db import Database

DEV_WORKSPACE = "dev"
DEV_KEY_FILE = "dev_api_key"


def _database(settings: Settings) -> Database:
    db = Database(settings.resolved_database_url)
    db.create_all()
    return db


# --- keys -----------------------------------------------------------------------------------


def keys_create(args: argparse.Namespace) -> int:
    try:
        scopes = keys.validate_scopes(args.scopes or [keys.WILDCARD_SCOPE])
    except ValueError as exc:
        print(f"cutline: {exc}", file=sys.stderr)
        return 2
    db = _database(get_settings())
    with db.session(write=True) as session:
        issued = keys.create_key(
            session,
            workspace_name=args.workspace,
            scopes=scopes,
            key_name=args.name,
            credits_cents=args.credits,
        )
    summary = f"workspace {issued.workspace_id} ({args.workspace}); key prefix {issued.prefix}"
    print(f"{summary}; scopes {' '.join(scopes)}")
    print("The secret below is shown once; store it now.")
    print(issued.secret)
    return 0


def keys_revoke(args: argparse.Namespace) -> int:
    db = _database(get_settings())
    try:
        with db.session(write=True) as session:
            keys.revoke_key(session, args.prefix)
    except CutlineError as exc:
        print(f"cutline: {exc.message}", file=sys.stderr)
        return 1
    print(f"revoked {args.prefix}")
    return 0


def keys_list(_args: argparse.Namespace) -> int:
    db = _database(get_settings())
    with db.session() as session:
        rows = keys.list_keys(session)
    print(f"{'PREFIX':10} {'WORKSPACE':20} {'NAME':16} {'STATUS':8} SCOPES")
    for key, workspace in rows:
        status = "revoked" if key.revoked_at else "active"
        owner = workspace.name or workspace.id
        print(f"{key.prefix:10} {owner:20} {key.name or '-':16} {status:8} {' '.join(key.scopes)}")
    return 0


def _dev_key(settings: Settings, db: Database) -> str:
    """The development key kept in data_dir, issued on first use with credits to try things."""
    path = settings.data_dir / DEV_KEY_FILE
    if path.exists():
        secret = path.read_text().strip()
        with db.session() as session:
            try:
                keys.authenticate(session, secret)
                return secret
            except CutlineError:
                pass  # revoked or from another database: issue a new one
    with db.session(write=True) as session:
        issued = keys.create_key(
            session, workspace_name=DEV_WORKSPACE, scopes=["*"], key_name="development", credits_cents=100_000
        )
    path.write_text(issued.secret + "\n")
    path.chmod(0o600)
    return issued.secret


# --- serve and worker -----------------------------------------------------------------------


class WorkerSupervisor:
    """Runs ``cutline worker`` as a child process and starts a new one if it dies."""

    def __init__(self, settings: Settings) -> None:
        self._pid_file = settings.data_dir / "worker.pid"
        self._stopping = threading.Event()
        self._process: subprocess.Popen[bytes] | None = None
        self._thread = threading.Thread(target=self._loop, name="worker-supervisor", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stopping.set()
        if self._process and self._process.poll() is None:
            # Warm shutdown lets a running job finish its write; a job cut off later is re-queued.
            self._process.terminate()
            try:
                self._process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait()
        self._pid_file.unlink(missing_ok=True)

    def _loop(self) -> None:
        while not self._stopping.is_set():
            self._process = subprocess.Popen([sys.executable, "-m", "cutline", "worker"])
            self._pid_file.write_text(str(self._process.pid))
            code = self._process.wait()
            if self._stopping.is_set():
                return
            logging.getLogger("cutline.serve").warning("worker exited with %s; starting a new one", code)
            time.sleep(1)


def serve(args: argparse.Namespace) -> int:
    import uvicorn

    from cutline.api.app import create_app

    settings = get_settings()
    port = args.port or settings.port
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    db = _database(settings)
    print(f"Cutline API: http://{settings.host}:{port}  (data in {settings.data_dir.resolve()})", flush=True)
    if args.dev_key:
        print(f"Development API key: {_dev_key(settings, db)}", flush=True)
    db.dispose()
    supervisor = WorkerSupervisor(settings) if not args.no_worker else None
    if supervisor:
        supervisor.start()
    try:
        uvicorn.run(create_app(settings), host=settings.host, port=port, log_level="info")
    finally:
        if supervisor:
            supervisor.stop()
    return 0


def worker(args: argparse.Namespace) -> int:
    from cutline.jobs.queue import get_celery

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    # The parent may stop us with SIGTERM; let Celery's warm shutdown handle it.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    queues = args.queues or ",".join(QUEUE_BY_KIND.values())
    get_celery().worker_main(
        [
            "worker",
            "--pool=solo",
            "--concurrency=1",
            f"--queues={queues}",
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
            "--loglevel=INFO",
            f"--hostname=cutline-{os.getpid()}@%h",
        ]
    )
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="cutline", description="Cutline media analysis service.")
    commands = parser.add_subparsers(dest="command", required=True)

    p = commands.add_parser("serve", help="start the API and a worker (embedded parts by default)")
    p.add_argument("--port", type=int, help="port (default CUTLINE_PORT or 8000)")
    p.add_argument("--dev-key", action="store_true", help="print a development API key kept in the data dir")
    p.add_argument("--no-worker", action="store_true", help="start the API alone")
    p.set_defaults(handler=serve)

    p = commands.add_parser("worker", help="start a worker alone")
    p.add_argument(
        "--queues", help="comma-separated queues (default: " + ",".join(QUEUE_BY_KIND.values()) + ")"
    )
    p.set_defaults(handler=worker)

    key_commands = commands.add_parser("keys", help="manage API keys").add_subparsers(
        dest="keys", required=True
    )
    p = key_commands.add_parser("create", help="issue a key; the secret is the last line of output")
    p.add_argument("--workspace", required=True, help="workspace name (created if new)")
    p.add_argument("--scopes", nargs="+", help="scopes (default *): " + " ".join(keys.ALL_SCOPES))
    p.add_argument("--credits", type=int, default=0, help="credits in cents to grant the workspace")
    p.add_argument("--name", help="a name for the key")
    p.set_defaults(handler=keys_create)
    p = key_commands.add_parser("revoke", help="revoke the key with this prefix")
    p.add_argument("prefix")
    p.set_defaults(handler=keys_revoke)
    p = key_commands.add_parser("list", help="list keys")
    p.set_defaults(handler=keys_list)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    result: int = args.handler(args)
    return result
