"""API keys: issued once, stored as a SHA-256 hash, checked in constant time, scoped."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from cutline.domain import ledger
from cutline.domain.common import new_id, utcnow
from cutline.errors import Forbidden, NotFound, Unauthorized
from cutline.store.tables import ApiKey, Workspace

ALL_SCOPES = ("projects:read", "projects:write", "transcript", "vision", "retake_removal")
WILDCARD_SCOPE = "*"
KEY_PREFIX_LENGTH = 8


@dataclass(frozen=True)
class Caller:
    """The authenticated key behind a request."""

    key_id: str
    prefix: str
    name: str | None
    scopes: tuple[str, ...]
    workspace_id: str
    workspace_name: str | None

    def require(self, scope: str) -> None:
        if WILDCARD_SCOPE not in self.scopes and scope not in self.scopes:
            raise Forbidden(f"This API key lacks the scope {scope!r}.", code="missing_scope")


@dataclass(frozen=True)
class IssuedKey:
    secret: str  # shown once; only its hash is stored
    prefix: str
    workspace_id: str


def _hash(secret: str) -> str:
    # Keys carry 256 random bits, so a fast hash is as safe as a slow one and keeps auth cheap.
    return hashlib.sha256(secret.encode()).hexdigest()


def _split(secret: str) -> str | None:
    """The prefix of a well-formed key ``cl_<prefix>_<random>``, else None."""
    parts = secret.split("_", 2)
    if len(parts) != 3 or parts[0] != "cl" or len(parts[1]) != KEY_PREFIX_LENGTH or not parts[2]:
        return None
    return parts[1]


def validate_scopes(scopes: list[str]) -> list[str]:
    unknown = [s for s in scopes if s != WILDCARD_SCOPE and s not in ALL_SCOPES]
    if unknown:
        allowed = ", ".join((WILDCARD_SCOPE, *ALL_SCOPES))
        raise ValueError(f"unknown scope(s) {', '.join(unknown)}; allowed: {allowed}")
    return sorted(set(scopes))


def create_key(
    session: Session,
    *,
    workspace_name: str,
    scopes: list[str],
    key_name: str | None = None,
    credits_cents: int = 0,
) -> IssuedKey:
    """Issue a key in the workspace called ``workspace_name``, creating the workspace if needed."""
    workspace = session.scalars(select(Workspace).where(Workspace.name == workspace_name)).first()
    if workspace is None:
        workspace = Workspace(
            id=new_id("ws"), name=workspace_name, credit_balance_cents=0, created_at=utcnow()
        )
        session.add(workspace)
        session.flush()
    if credits_cents:
        ledger.grant(
            session, workspace.id, credits_cents, f"credits granted with key {key_name or ''}".strip()
        )
    prefix = secrets.token_hex(KEY_PREFIX_LENGTH // 2)
    secret = f"cl_{prefix}_{secrets.token_urlsafe(32)}"
    session.add(
        ApiKey(
            id=new_id("key"),
            workspace_id=workspace.id,
            prefix=prefix,
            secret_sha256=_hash(secret),
            name=key_name,
            scopes=validate_scopes(scopes),
            created_at=utcnow(),
            revoked_at=None,
        )
    )
    return IssuedKey(secret=secret, prefix=prefix, workspace_id=workspace.id)


def revoke_key(session: Session, prefix: str) -> None:
    key = session.scalars(select(ApiKey).where(ApiKey.prefix == prefix)).first()
    if key is None:
        raise NotFound(f"No API key has the prefix {prefix!r}.")
    if key.revoked_at is None:
        key.revoked_at = utcnow()


def list_keys(session: Session) -> list[tuple[ApiKey, Workspace]]:
    rows = session.execute(
        select(ApiKey, Workspace)
        .join(Workspace, ApiKey.workspace_id == Workspace.id)
        .order_by(ApiKey.created_at)
    )
    return [(key, workspace) for key, workspace in rows.tuples()]


def authenticate(session: Session, secret: str | None) -> Caller:
    if not secret:
        raise Unauthorized("Send an API key as 'Authorization: Bearer <key>'.", code="missing_api_key")
    prefix = _split(secret)
    row = None
    if prefix is not None:
        row = session.execute(
            select(ApiKey, Workspace)
            .join(Workspace, ApiKey.workspace_id == Workspace.id)
            .where(ApiKey.prefix == prefix)
        ).first()
    # Compare against a dummy hash when the prefix is unknown so timing does not reveal which prefixes exist.
    expected = row[0].secret_sha256 if row else _hash("cl_00000000_dummy")
    if not hmac.compare_digest(expected, _hash(secret)) or row is None:
        raise Unauthorized("The API key is not valid.", code="invalid_api_key")
    key, workspace = row
    if key.revoked_at is not None:
        raise Forbidden("This API key has been revoked.", code="revoked_api_key")
    return Caller(
        key_id=key.id,
        prefix=key.prefix,
        name=key.name,
        scopes=tuple(key.scopes),
        workspace_id=workspace.id,
        workspace_name=workspace.name,
    )
