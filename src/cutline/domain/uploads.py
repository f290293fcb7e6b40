"""Signed upload URLs for the local blob store: HMAC-SHA256 over project, content type and expiry."""

from __future__ import annotations

import hashlib
import hmac
import time

from cutline.errors import Forbidden, Gone


def _mac(secret: bytes, project_id: str, content_type: str, expires_epoch_s: int) -> str:
    message = f"{project_id}\n{content_type.lower()}\n{expires_epoch_s}".encode()
    return hmac.new(secret, message, hashlib.sha256).hexdigest()


def sign(secret: bytes, *, project_id: str, content_type: str, expires_epoch_s: int) -> str:
    return _mac(secret, project_id, content_type, expires_epoch_s)


def verify(
    secret: bytes,
    *,
    project_id: str,
    content_type: str,
    expires: str | None,
    signature: str | None,
    now_epoch_s: float | None = None,
) -> None:
    """Raise Forbidden for a missing or tampered signature, Gone for an expired one."""
    if not expires or not signature or not expires.isdigit():
        raise Forbidden("The upload URL is not signed.", code="invalid_signature")
    expected = _mac(secret, project_id, content_type, int(expires))
    # Check the signature before the expiry so a forged expiry cannot probe anything.
    if not hmac.compare_digest(expected, signature):
        raise Forbidden("The upload URL signature is not valid.", code="invalid_signature")
    if int(expires) < (time.time() if now_epoch_s is None else now_epoch_s):
        raise Gone("The upload URL has expired; create a new upload project.", code="upload_url_expired")
