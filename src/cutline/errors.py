"""Cutline's exception tree.

Every error the service reports on purpose is a ``CutlineError``. Each class
carries the HTTP status and a stable snake_case ``code``; ``api/errors.py``
renders them as ``{"detail": message, "code": code}``.

    CutlineError
    ├── Unauthorized          401  missing or unknown key
    ├── Forbidden             403  revoked key, missing scope, bad signature
    ├── NotFound              404  unknown resource, or another workspace's
    ├── Conflict              409  wrong state for the request
    ├── Gone                  410  expired upload URL
    ├── PayloadTooLarge       413  upload beyond max_upload_bytes
    ├── UnsupportedMediaType  415  content type not allowed or not as declared
    ├── InvalidRequest        422  rendered in HTTPValidationError shape
    │   └── InvalidMedia           bytes that cannot be probed or decoded
    ├── PaymentRequired       402  credits do not cover a command
    ├── TooManyRequests       429  rate limit or daily quota
    ├── NotImplementedYet     501  an analysis whose engine has not landed
    ├── Unavailable           503  failed analysis that is not re-dispatched
    ├── StorageError          507  the blob store cannot be written
    └── EngineError           500  an engine failed; the analysis fails
"""

from __future__ import annotations


class CutlineError(Exception):
    status_code = 500
    code = "internal_error"

    def __init__(self, message: str, *, code: str | None = None) -> None:
        # Pass args to Exception so instances pickle across Celery workers.
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code


class Unauthorized(CutlineError):
    status_code = 401
    code = "unauthorized"


class Forbidden(CutlineError):
    status_code = 403
    code = "forbidden"


class NotFound(CutlineError):
    status_code = 404
    code = "not_found"


class Conflict(CutlineError):
    status_code = 409
    code = "conflict"


class Gone(CutlineError):
    status_code = 410
    code = "gone"


class PayloadTooLarge(CutlineError):
    status_code = 413
    code = "payload_too_large"


class UnsupportedMediaType(CutlineError):
    status_code = 415
    code = "unsupported_media_type"


class InvalidRequest(CutlineError):
    """A 422; ``loc`` points at the offending input as in HTTPValidationError."""

    status_code = 422
    code = "invalid_request"

    def __init__(
        self, message: str, *, code: str | None = None, loc: tuple[str | int, ...] = ("body",)
    ) -> None:
        super().__init__(message, code=code)
        self.loc = loc


class InvalidMedia(InvalidRequest):
    code = "invalid_media"


class PaymentRequired(CutlineError):
    status_code = 402
    code = "insufficient_credits"


class TooManyRequests(CutlineError):
    status_code = 429
    code = "rate_limited"

    def __init__(
        self, message: str, *, code: str | None = None, retry_after_s: int, limit: int, reset_epoch_s: int
    ) -> None:
        super().__init__(message, code=code)
        self.retry_after_s = retry_after_s
        self.limit = limit
        self.reset_epoch_s = reset_epoch_s


class NotImplementedYet(CutlineError):
    status_code = 501
    code = "not_implemented"


class Unavailable(CutlineError):
    status_code = 503
    code = "unavailable"


class StorageError(CutlineError):
    status_code = 507
    code = "storage_unavailable"


class EngineError(CutlineError):
    status_code = 500
    code = "engine_error"
