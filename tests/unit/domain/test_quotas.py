from __future__ import annotations

import pytest

from cutline.domain.quotas import RateLimiter
from cutline.errors import TooManyRequests


def test_rate_limiter_counts_per_key_per_minute() -> None:
    now = [120.0]
    limiter = RateLimiter(clock=lambda: now[0])
    assert [limiter.hit("a", 3).remaining for _ in range(3)] == [2, 1, 0]
    with pytest.raises(TooManyRequests) as refused:
        limiter.hit("a", 3)
    assert refused.value.retry_after_s == 60 and refused.value.reset_epoch_s == 180
    assert limiter.hit("b", 3).remaining == 2
    now[0] = 180.5  # the next window
    assert limiter.hit("a", 3).remaining == 2
