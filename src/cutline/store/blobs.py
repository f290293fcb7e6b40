"""Blob stores for source media. Embedded: a local directory written atomically."""

from __future__ import annotations

import errno
import os
import uuid
from collections.abc import AsyncIterator
from pathlib import Path

from cutline.errors import PayloadTooLarge, StorageError


class LocalBlobStore:
    """Blobs as files under ``root``; a blob is visible only once complete (write, fsync, rename)."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def path(self, key: str) -> Path:
        path = (self.root / key).resolve()
        if self.root.resolve() not in path.parents:
            raise ValueError(f"blob key escapes the store: {key!r}")
        return path

    def exists(self, key: str) -> bool:
        return self.path(key).is_file()

    def size(self, key: str) -> int:
        return self.path(key).stat().st_size

    def delete(self, key: str) -> None:
        self.path(key).unlink(missing_ok=True)

    async def write_stream(self, key: str, chunks: AsyncIterator[bytes], *, max_bytes: int) -> int:
        """Stream ``chunks`` into the blob; on any failure nothing new is left behind."""
        final = self.path(key)
        partial = final.with_name(f".{final.name}.partial-{uuid.uuid4().hex}")
        written = 0
        try:
            final.parent.mkdir(parents=True, exist_ok=True)
            with open(partial, "wb") as out:
                async for chunk in chunks:
                    written += len(chunk)
                    if written > max_bytes:
                        raise PayloadTooLarge(
                            f"The upload exceeds the maximum of {max_bytes} bytes.", code="upload_too_large"
                        )
                    out.write(chunk)
                out.flush()
                os.fsync(out.fileno())
            os.replace(partial, final)
        except OSError as exc:
            partial.unlink(missing_ok=True)
            reason = "the disk is full" if exc.errno == errno.ENOSPC else "the blob store is not writable"
            raise StorageError(f"The upload could not be stored: {reason}.") from exc
        except BaseException:
            partial.unlink(missing_ok=True)
            raise
        return written
