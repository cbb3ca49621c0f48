"""The atlas's deal loop and an executor that loses a future (as a killed Dask worker can)."""

from __future__ import annotations

import concurrent.futures as cf

import pytest

from solitaire_nb.atlas.executors import LOST_RETRIES, run_deals


class _Losing(cf.ThreadPoolExecutor):
    """Runs every call, but the first submission of each deal in `lose` comes back broken."""

    def __init__(self, lose: set[int], always: bool = False):
        super().__init__(max_workers=1)
        self.lose, self.always, self.seen = lose, always, []

    def submit(self, fn, *args, **kwargs):
        deal = args[1]
        self.seen.append(deal)
        if deal in self.lose:
            if not self.always:
                self.lose.discard(deal)
            broken: cf.Future = cf.Future()
            broken.set_exception(ValueError("too many values to unpack (expected 3)"))
            return broken
        return super().submit(fn, *args, **kwargs)


def test_a_lost_future_is_solved_again_and_every_deal_has_its_record():
    with _Losing({2}) as pool:
        records = list(run_deals(pool, [1, 2, 3], "citadel", {}, None, 200, 1))
    assert sorted(r.deal for r in records) == [1, 2, 3]
    assert pool.seen.count(2) == 2


def test_an_error_that_repeats_is_raised_after_its_retries():
    with _Losing({2}, always=True) as pool, pytest.raises(ValueError, match="too many values"):
        list(run_deals(pool, [1, 2, 3], "citadel", {}, None, 200, 1))
    assert pool.seen.count(2) == LOST_RETRIES + 1
