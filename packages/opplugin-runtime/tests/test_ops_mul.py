"""mul.Tensor: generated op_api kernel (gen_opapi) and hand-written acl_op kernel."""

import pytest
import torch


@pytest.mark.parametrize("jit_compile", [False, True], ids=["op_api", "acl_op"])
def test_mul(jit_compile, ledger, assert_same):
    torch.npu.set_compile_mode(jit_compile=jit_compile)
    cases = [
        (torch.randn(4, 5), torch.randn(4, 5)),
        (torch.randn(4, 1), torch.randn(3, 1, 5)),
        (torch.randint(-5, 5, (6,)), torch.randint(-5, 5, (6,), dtype=torch.int32)),
        (torch.randn(3).half(), torch.randn(3)),
        (torch.randn(2, 3).t(), torch.randn(3, 2)),
    ]
    for a, b in cases:
        assert_same(torch.mul(a.npu(), b.npu()), torch.mul(a, b))
    assert_same(torch.randn(3).npu() * 0 + 2, torch.zeros(3) + 2)
    a = torch.randn(5)
    assert_same(a.npu() * 3, a * 3)
    counts = ledger()["mul.Tensor"]
    assert counts["acl_op" if jit_compile else "op_api"] == len(cases) + 2
