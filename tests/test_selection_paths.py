"""nanmedian() of every element on both paths equals CPU's: the lower median of the numbers, NaN when there
is none (the A/B test's OpInfo samples hold no NaN). The acl_op path counts the numbers on the device and
selects through "TopKV2", which sorts NaN above every number."""

from __future__ import annotations

import opplugin_runtime  # noqa: F401
import pytest
import torch
from forced_path import on_path  # tests/conftest.py loads it

NAN = float("nan")
CASES = {
    "numbers_and_nans": torch.tensor([NAN, 3.0, 1.0, NAN, 2.0, 5.0]),
    "all_nan": torch.tensor([NAN, NAN, NAN]),
    "one_number": torch.tensor([NAN, -4.0, NAN]),
    "integers_with_ties": torch.tensor([4, 1, 3, 3, 2, 3]),
    "empty": torch.tensor([]),
    "matrix": torch.randn(7, 5, generator=torch.Generator().manual_seed(0)),
    "half": torch.tensor([1.0, NAN, 2.0, 0.5], dtype=torch.float16),
    "bfloat16_infinities": torch.tensor([float("inf"), -float("inf"), NAN, 0.0], dtype=torch.bfloat16),
}


@pytest.mark.parametrize("path", ["op_api", "acl_op"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_nanmedian_of_every_element_equals_cpus(path: str, case: str) -> None:
    x = CASES[case]
    got = on_path(path, "nanmedian", lambda: x.npu().nanmedian())
    torch.testing.assert_close(got.cpu(), x.nanmedian(), rtol=0, atol=0, equal_nan=True)
