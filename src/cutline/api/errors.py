"""One place that turns exceptions into responses.

CutlineError -> {"detail": sentence, "code": snake_case} with its status; 422s keep
FastAPI's HTTPValidationError shape so every 422 reads the same.
"""

from __future__ import annotations

import logging

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from cutline.errors import CutlineError, InvalidRequest, TooManyRequests, Unauthorized

log = logging.getLogger(__name__)

_STATUS_CODES = {404: "not_found", 405: "method_not_allowed", 400: "bad_request"}


def rate_limit_headers(limit: int, remaining: int, reset_epoch_s: int) -> dict[str, str]:
    return {
        "X-RateLimit-Limit": str(limit),
        "X-RateLimit-Remaining": str(remaining),
        "X-RateLimit-Reset": str(reset_epoch_s),
    }


def render(exc: CutlineError) -> JSONResponse:
    headers: dict[str, str] = {}
    if isinstance(exc, Unauthorized):
        headers["WWW-Authenticate"] = "Bearer"
    if isinstance(exc, TooManyRequests):
        headers["Retry-After"] = str(exc.retry_after_s)
        headers.update(rate_limit_headers(exc.limit, 0, exc.reset_epoch_s))
    if isinstance(exc, InvalidRequest):
        body: dict[str, object] = {"detail": [{"loc": list(exc.loc), "msg": exc.message, "type": exc.code}]}
    else:
        body = {"detail": exc.message, "code": exc.code}
    return JSONResponse(body, status_code=exc.status_code, headers=headers)


async def _cutline_error(_request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, CutlineError)
    if exc.status_code >= 500:
        log.error("request failed: %s (%s)", exc.message, exc.code)
    return render(exc)


async def _http_error(_request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, StarletteHTTPException)
    code = _STATUS_CODES.get(exc.status_code, "http_error")
    return JSONResponse(
        {"detail": str(exc.detail), "code": code}, status_code=exc.status_code, headers=exc.headers
    )


async def _unexpected(_request: Request, exc: Exception) -> JSONResponse:
    log.exception("unhandled error", exc_info=exc)
    return JSONResponse({"detail": "An internal error occurred.", "code": "internal_error"}, status_code=500)


def install(app: FastAPI) -> None:
    app.add_exception_handler(CutlineError, _cutline_error)
    app.add_exception_handler(StarletteHTTPException, _http_error)
    app.add_exception_handler(Exception, _unexpected)
