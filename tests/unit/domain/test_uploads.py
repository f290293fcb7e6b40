from __future__ import annotations

import pytest

from cutline.domain import uploads
from cutline.errors import Forbidden, Gone

SECRET = b"k" * 32


def _signed(expires: int = 2_000_000_000) -> dict[str, str]:
    sig = uploads.sign(SECRET, project_id="prj_a", content_type="audio/wav", expires_epoch_s=expires)
    return {"expires": str(expires), "signature": sig}


def test_valid_signature_passes() -> None:
    uploads.verify(SECRET, project_id="prj_a", content_type="audio/wav", now_epoch_s=1_000, **_signed())


@pytest.mark.parametrize(
    "change",
    [
        {"project_id": "prj_b"},
        {"content_type": "video/mp4"},
        {"expires": "2000000001"},
        {"signature": "0" * 64},
        {"signature": None},
        {"expires": "soon"},
    ],
)
def test_any_change_is_refused(change: dict[str, str | None]) -> None:
    args: dict[str, str | None] = {"project_id": "prj_a", "content_type": "audio/wav", **_signed(), **change}
    with pytest.raises(Forbidden):
        uploads.verify(SECRET, now_epoch_s=1_000, **args)  # type: ignore[arg-type]


def test_every_single_bit_flip_of_the_signature_is_refused() -> None:
    signed = _signed()
    raw = bytes.fromhex(signed["signature"])
    for bit in range(len(raw) * 8):
        flipped = bytearray(raw)
        flipped[bit // 8] ^= 1 << (bit % 8)
        with pytest.raises(Forbidden):
            uploads.verify(
                SECRET,
                project_id="prj_a",
                content_type="audio/wav",
                expires=signed["expires"],
                signature=flipped.hex(),
                now_epoch_s=1_000,
            )


def test_expired_signature_is_gone() -> None:
    with pytest.raises(Gone):
        uploads.verify(SECRET, project_id="prj_a", content_type="audio/wav", now_epoch_s=3e9, **_signed())
