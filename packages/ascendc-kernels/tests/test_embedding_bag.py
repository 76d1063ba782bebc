"""aclnnEmbeddingBag and the acl_op type EmbeddingBag (embedding_bag_bounds_custom + embedding_bag_custom)
against a numpy reference of torch's CPU semantics: sums in index order, mean over the bag size less its
padding indices, the first maximum and its index, per-sample weights, empty bags, offset2bag, bag_size and
max_indices; bad offsets and indices fail the kernel naming the problem."""

from __future__ import annotations

import ascendc_kernels_testing as sim
import numpy as np
import pytest
from ascendc_kernels_testing import from_device, op_in, round_to, to_device

FLOATS = {"float32": sim.ACL_FLOAT, "float16": sim.ACL_FLOAT16, "bfloat16": sim.ACL_BF16}
INDICES = np.array([1, 3, 5, 2, 2, 7, 0, 4, 4])
OFFSETS = np.array([0, 3, 5, 5])  # the third bag is empty


def reference(weight, mode, padding_idx, psw):
    bags = len(OFFSETS)
    starts = list(OFFSETS) + [len(INDICES)]
    out = np.zeros((bags, weight.shape[1]))
    offset2bag = np.searchsorted(OFFSETS, np.arange(len(INDICES)), side="right") - 1
    bag_size = np.diff(starts).astype(np.int64)
    max_indices = np.zeros((bags, weight.shape[1]), np.int64)
    for b in range(bags):
        rows = [i for i in range(starts[b], starts[b + 1]) if INDICES[i] != padding_idx]
        bag_size[b] -= starts[b + 1] - starts[b] - len(rows)
        if not rows:
            continue
        values = np.stack([weight[INDICES[i]] * (psw[i] if psw is not None else 1) for i in rows])
        if mode == 2:
            first = values.argmax(axis=0)  # the first maximum
            out[b] = values.max(axis=0)
            max_indices[b] = INDICES[np.array(rows)[first]]
        else:
            out[b] = values.sum(axis=0) / (max(bag_size[b], 1) if mode == 1 else 1)
    if mode == 0:
        bag_size[:] = 0
    if mode != 2:
        max_indices = bag_size.copy()
    return out, offset2bag, bag_size, max_indices


def outputs(acl_type, mode, dim):
    bags = len(OFFSETS)
    return [sim.DeviceArray.empty((bags, dim), acl_type), sim.DeviceArray.empty((len(INDICES),), sim.ACL_INT64),
            sim.DeviceArray.empty((bags,), sim.ACL_INT64),
            sim.DeviceArray.empty((bags, dim) if mode == 2 else (bags,), sim.ACL_INT64)]


@pytest.mark.parametrize("entry", ["aclnn", "aclop"])
@pytest.mark.parametrize("dtype", list(FLOATS))
@pytest.mark.parametrize("mode", [0, 1, 2])
@pytest.mark.parametrize("padding_idx", [-1, 2])
def test_embedding_bag_matches_torchs_semantics(acl, entry, dtype, mode, padding_idx):
    acl_type = FLOATS[dtype]
    rng = np.random.default_rng(mode)
    weight = round_to(rng.normal(size=(8, 70)).astype(np.float32), acl_type)
    weight[4, 3] = weight[0, 3]  # a tie for the maximum
    psw = round_to(rng.uniform(0.5, 2, len(INDICES)).astype(np.float32), acl_type) if mode == 0 else None
    dw, di, do = to_device(weight, acl_type), to_device(INDICES, sim.ACL_INT64), to_device(OFFSETS, sim.ACL_INT64)
    dp = to_device(psw, acl_type) if psw is not None else None
    outs = outputs(acl_type, mode, weight.shape[1])
    if entry == "aclnn":
        sim.check(sim.run_aclnn("aclnnEmbeddingBag", dw.tensor(), di.tensor(), do.tensor(), False, mode, False,
                                dp.tensor() if dp else None, False, padding_idx, *[o.tensor() for o in outs]))
    else:
        inputs = [op_in(dw), op_in(di), op_in(do)] + ([op_in(dp)] if dp else [])
        sim.check(sim.run_aclop("EmbeddingBag", inputs, [op_in(o) for o in outs],
                                {"mode": ["sum", "mean", "max"][mode], "padding_idx": padding_idx}), "EmbeddingBag")
    want = reference(weight.astype(np.float64), mode, padding_idx, psw)
    tol = {sim.ACL_FLOAT: 1e-5, sim.ACL_FLOAT16: 2e-3, sim.ACL_BF16: 1.6e-2}[acl_type]
    np.testing.assert_allclose(from_device(outs[0]), want[0], rtol=tol, atol=tol)
    for got, expected in zip(outs[1:], want[1:]):
        np.testing.assert_array_equal(got.to_numpy(), expected)


def _sync_error() -> str:
    rc = sim.load().aclrtSynchronizeDevice()
    return "" if rc == 0 else sim.recent_error()


@pytest.mark.parametrize(("indices", "offsets", "message"), [
    ([1, 2], [1], "offsets[0] has to be 0"),
    ([1, 2], [0, 3], "offsets[-1] can not be greater than input's length 2 but got offsets[-1] of 3"),
    ([1, 9], [0], "embedding_bag_custom: embedding_bag: Expected idx >= 0 && idx < num_embeddings but found idx "
                  "to be 9"),
])
def test_bad_offsets_and_indices_fail_the_kernel(acl, indices, offsets, message):
    dw = to_device(np.ones((4, 3), np.float32), sim.ACL_FLOAT)
    di, do = to_device(np.array(indices), sim.ACL_INT64), to_device(np.array(offsets), sim.ACL_INT64)
    out = sim.DeviceArray.empty((len(offsets), 3), sim.ACL_FLOAT)
    none = [sim.DeviceArray.empty((0,), sim.ACL_INT64) for _ in range(3)]
    sim.check(sim.run_aclnn("aclnnEmbeddingBag", dw.tensor(), di.tensor(), do.tensor(), False, 0, False, None, False,
                            -1, out.tensor(), *[n.tensor() for n in none]))
    assert message.split(": ")[-1] in _sync_error()


def test_embedding_bag_checks_arguments(acl):
    dw = to_device(np.ones((4, 3), np.float32), sim.ACL_FLOAT)
    di, do = to_device(np.array([1]), sim.ACL_INT64), to_device(np.array([0]), sim.ACL_INT32)
    out = sim.DeviceArray.empty((1, 3), sim.ACL_FLOAT)
    none = [sim.DeviceArray.empty((0,), sim.ACL_INT64) for _ in range(3)]
    rc, _, _ = sim.aclnn_workspace("aclnnEmbeddingBag", dw.tensor(), di.tensor(), do.tensor(), False, 0, False, None,
                                   False, -1, out.tensor(), *[n.tensor() for n in none])
    assert rc == sim.ACLNN_ERR_PARAM_INVALID
    assert "aclnnEmbeddingBag: offsets has dtype ACL_INT32, expected indices's ACL_INT64" in sim.recent_error()
    do = to_device(np.array([0]), sim.ACL_INT64)
    rc, _, _ = sim.aclnn_workspace("aclnnEmbeddingBag", dw.tensor(), di.tensor(), do.tensor(), False, 1, False,
                                   dw.tensor(), False, -1, out.tensor(), *[n.tensor() for n in none])
    assert rc == sim.ACLNN_ERR_PARAM_INVALID
    assert "perSampleWeights are only supported with mode 0 (sum)" in sim.recent_error()
