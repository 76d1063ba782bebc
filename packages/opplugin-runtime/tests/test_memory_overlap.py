"""out=/inplace overlap checks give the same errors as on CPU."""

import pytest
import torch


def _error(fn):
    with pytest.raises(RuntimeError) as info:
        fn()
    return str(info.value).splitlines()[0]


@pytest.mark.parametrize("jit_compile", [False, True], ids=["op_api", "acl_op"])
def test_partial_overlap_same_message_as_cpu(jit_compile):
    torch.npu.set_compile_mode(jit_compile=jit_compile)
    c = torch.arange(10.0)
    n = c.npu()
    cpu_message = _error(lambda: torch.add(c[:-1], c[:-1], out=c[1:]))
    npu_message = _error(lambda: torch.add(n[:-1], n[:-1], out=n[1:]))
    assert npu_message == "add: " + cpu_message  # CPU's text after the op's name
    assert "elements of the input tensor and the written-to tensor refer to a single memory location" in npu_message


def test_internal_overlap_same_message_as_cpu():
    c = torch.zeros(1).expand(3)
    n = torch.zeros(1, device="npu").expand(3)
    cpu_message = _error(lambda: torch.add(torch.ones(3), torch.ones(3), out=c))
    npu_message = _error(lambda: torch.add(torch.ones(3, device="npu"), torch.ones(3, device="npu"), out=n))
    assert npu_message == "add: " + cpu_message


def test_full_overlap_is_allowed():
    n = torch.arange(4.0).npu()
    torch.add(n, n, out=n)
    torch.testing.assert_close(n.cpu(), torch.arange(4.0) * 2)
