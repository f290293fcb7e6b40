"""One settings object for the API, the worker and the CLI (``CUTLINE_*`` variables)."""

from __future__ import annotations

import os
import secrets
from functools import lru_cache
from pathlib import Path

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="CUTLINE_", env_ignore_empty=True, extra="ignore")

    # Where embedded parts keep their state: SQLite file, blobs, broker queue, signing secret.
    data_dir: Path = Path("./data")
    host: str = "127.0.0.1"
    port: int = 8000
    # Unset means: embedded parts under data_dir.
    database_url: str | None = None
    broker_url: str | None = None
    # Base for signed upload URLs; unset means the address the client used to reach the API.
    public_base_url: str | None = None
    signing_secret: str | None = None
    upload_url_ttl_s: int = Field(3600, gt=0)

    requests_per_minute_per_key: int = Field(600, gt=0)
    projects_per_day: int = Field(1000, ge=0)
    analysis_commands_per_day: int = Field(5000, ge=0)
    max_upload_bytes: int = Field(2 * 1024**3, gt=0)

    billing_enabled: bool = True
    currency: str = "USD"
    price_transcript_per_hour_cents: int = Field(37, ge=0)
    price_diarization_per_hour_cents: int = Field(5, ge=0)
    price_vision_per_minute_cents: int = Field(2, ge=0)
    price_retake_removal_per_minute_cents: int = Field(1, ge=0)

    asr_model: str = "base"
    device: str = Field("auto", pattern="^(auto|cpu|cuda)$")
    model_cache_dir: Path | None = None

    # A worker renews its lease on a running analysis every lease/4 seconds; an analysis
    # whose lease lapsed belongs to a dead worker and is re-queued or failed.
    analysis_lease_s: int = Field(120, ge=2)
    max_analysis_attempts: int = Field(3, ge=1)
    recovery_interval_s: float = Field(5.0, gt=0)

    @property
    def resolved_database_url(self) -> str:
        return self.database_url or f"sqlite:///{(self.data_dir / 'cutline.db').resolve()}"

    @property
    def embedded_broker_dir(self) -> Path:
        return (self.data_dir / "broker").resolve()

    @property
    def blob_dir(self) -> Path:
        return (self.data_dir / "blobs").resolve()

    def resolved_signing_secret(self) -> bytes:
        """The configured secret, or one generated once and kept in data_dir so restarts keep URLs valid."""
        if self.signing_secret:
            return self.signing_secret.encode()
        path = self.data_dir / "signing_secret"
        if not path.exists():
            self.data_dir.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(f".tmp-{secrets.token_hex(4)}")
            tmp.write_text(secrets.token_hex(32))
            tmp.chmod(0o600)
            # link() refuses to overwrite, so of two racing processes the first one wins.
            try:
                os.link(tmp, path)
            except FileExistsError:
                pass
            finally:
                tmp.unlink()
        return path.read_text().strip().encode()


@lru_cache
def get_settings() -> Settings:
    return Settings()
