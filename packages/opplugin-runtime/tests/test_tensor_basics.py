"""Creating, printing, reading and reshaping npu tensors."""

import copy
import io

import torch


def test_factories_and_cpu_round_trip():
    a = torch.randn(3, 4)
    n = a.to("npu")
    assert n.device == torch.device("npu:0")
    assert torch.equal(n.cpu(), a)
    assert torch.equal(a.npu().cpu(), a)
    e = torch.empty(2, 3, device="npu", dtype=torch.float16)
    assert e.shape == (2, 3) and e.dtype == torch.float16 and e.is_contiguous()
    s = torch.empty_strided((2, 3), (1, 2), device="npu")
    assert s.stride() == (1, 2)
    cl = torch.empty(2, 3, 4, 5, device="npu", memory_format=torch.channels_last)
    assert cl.is_contiguous(memory_format=torch.channels_last)
    assert torch.npu.get_fallback_mode() == "silent"


def test_printing():
    text = repr(torch.tensor([1.5, -2.0, 3.25]).npu())
    assert "device='npu:0'" in text and "1.5000" in text and "-2.0000" in text


def test_item_and_scalars():
    a = torch.tensor([[1.25, -7.5]])
    n = a.npu()
    assert n[0, 1].item() == -7.5
    assert torch.tensor(3, device="npu").item() == 3
    assert torch.tensor(True, device="npu").item() is True
    assert n.sum().item() == a.sum().item()


def test_views_share_storage(assert_same):
    a = torch.arange(24.0).reshape(2, 3, 4)
    n = a.npu()
    assert_same(n.view(6, 4), a.view(6, 4))
    assert_same(n.transpose(0, 2), a.transpose(0, 2))
    assert_same(n[:, 1:, ::2], a[:, 1:, ::2])
    assert_same(n.as_strided((2, 2), (4, 1), 1), a.as_strided((2, 2), (4, 1), 1))
    assert_same(n.transpose(0, 1).reshape(3, 8), a.transpose(0, 1).reshape(3, 8))
    v = n.view(-1)
    v.fill_(1.0)
    assert n.cpu().eq(1.0).all()
    assert v.untyped_storage().data_ptr() == n.untyped_storage().data_ptr()


def test_resize_grows_storage_and_keeps_data():
    n = torch.arange(4.0).npu()
    n.resize_(2, 8)
    assert n.shape == (2, 8)
    torch.testing.assert_close(n.view(-1)[:4].cpu(), torch.arange(4.0))
    n.resize_(3)
    torch.testing.assert_close(n.cpu(), torch.arange(3.0))


def test_set_and_storage(assert_same):
    src = torch.arange(6.0).npu()
    dst = torch.empty(0, device="npu")
    dst.set_(src.untyped_storage(), 2, (2, 2), (2, 1))
    assert_same(dst, torch.tensor([[2.0, 3.0], [4.0, 5.0]]))
    other = torch.empty(0, device="npu").set_(src)
    assert other.data_ptr() == src.data_ptr()
    assert torch.empty(3, device="npu").set_().numel() == 0
    storage = torch.UntypedStorage(16, device="npu")
    assert storage.device == torch.device("npu:0") and storage.nbytes() == 16


def test_deepcopy_and_serialization():
    n = torch.randn(5).npu()
    c = copy.deepcopy(n)
    assert c.device == n.device and c.data_ptr() != n.data_ptr()
    assert torch.equal(c.cpu(), n.cpu())
    buffer = io.BytesIO()
    torch.save({"t": n}, buffer)
    buffer.seek(0)
    loaded = torch.load(buffer)["t"]
    assert loaded.device == n.device and torch.equal(loaded.cpu(), n.cpu())


def test_storage_format_is_nd():
    assert torch.npu.is_available()
    import opplugin_runtime

    assert opplugin_runtime._C.get_npu_format(torch.ones(2, device="npu")) == "ND"
