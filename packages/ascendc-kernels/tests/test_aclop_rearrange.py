"""The acl_op types that move, select or count elements (Triu, ReverseV2, Roll, Gather, Histogram)
against numpy, and the arguments each refuses."""

from __future__ import annotations

import ascendc_kernels_testing as sim
import numpy as np
import pytest
from ascendc_kernels_testing import dev, op_in, out_of

F32 = sim.ACL_FLOAT


def const(values, acl_type=sim.ACL_INT64):
    v = np.asarray(values, dtype=sim.numpy_dtype(acl_type))
    return (None, tuple(v.shape), acl_type, sim.ACL_FORMAT_ND, v)


def run(op, inputs, outputs, attrs=None):
    sim.check(sim.run_aclop(op, inputs, [op_in(o) for o in outputs], attrs), op)
    return [o.to_numpy() for o in outputs]


def refused(op, inputs, outputs, attrs, code, message):
    assert sim.run_aclop(op, inputs, [op_in(o) for o in outputs], attrs) == code
    assert message in sim.recent_error()


@pytest.mark.parametrize("diagonal", [-2, 0, 1, 5])
def test_triu_keeps_the_upper_triangle_of_each_matrix(acl, diagonal):
    a = np.arange(2 * 4 * 5, dtype=np.float32).reshape(2, 4, 5) + 1
    (y,) = run("Triu", [op_in(dev(a))], [out_of(a.shape)], {"diagonal": diagonal})
    np.testing.assert_array_equal(y, np.triu(a, diagonal))


@pytest.mark.parametrize("axes", [[0], [-1], [0, 2], [1, 0, 2], []])
def test_reverse_v2_reverses_the_constant_axes(acl, axes):
    a = np.arange(3 * 4 * 5, dtype=np.int64).reshape(3, 4, 5)
    (y,) = run("ReverseV2", [op_in(dev(a)), const(axes)], [out_of(a.shape, sim.ACL_INT64)])
    np.testing.assert_array_equal(y, np.flip(a, axes) if axes else a)


def test_reverse_v2_refuses_an_axis_twice_or_out_of_range(acl):
    a = dev(np.zeros((2, 3), np.float32))
    refused("ReverseV2", [op_in(a), const([1, -1])], [out_of((2, 3))], None, sim.ACL_ERROR_INVALID_PARAM,
            "axis 1 appears more than once")
    refused("ReverseV2", [op_in(a), const([2], sim.ACL_INT32)], [out_of((2, 3))], None, sim.ACL_ERROR_INVALID_PARAM,
            "axis 2 is out of range for 2 dimensions")
    refused("ReverseV2", [op_in(a), op_in(dev(np.array([0], np.int64)))], [out_of((2, 3))], None,
            sim.ACL_ERROR_FEATURE_UNSUPPORTED, "input axis must be a constant or host input")


@pytest.mark.parametrize("shifts,dims", [([2], []), ([-7], []), ([1], [0]), ([3, -1], [2, 1]), ([1, 2], [1, 1]),
                                         ([4, 0], [0, 1])])
def test_roll_matches_numpy(acl, shifts, dims):
    a = np.arange(3 * 4 * 5, dtype=np.float32).reshape(3, 4, 5)
    (y,) = run("Roll", [op_in(dev(a))], [out_of(a.shape)], {"shifts": shifts, "dims": dims})
    expected = np.roll(a, shifts[0]) if not dims else np.roll(a, shifts, dims)
    np.testing.assert_array_equal(y, expected)


def test_roll_refuses_unaligned_shifts(acl):
    a = dev(np.zeros((2, 3), np.float32))
    refused("Roll", [op_in(a)], [out_of((2, 3))], {"shifts": [1, 2], "dims": [0]}, sim.ACL_ERROR_INVALID_PARAM,
            "shifts (2) and dims (1) must align")
    refused("Roll", [op_in(a)], [out_of((2, 3))], {"shifts": [1], "dims": [3]}, sim.ACL_ERROR_INVALID_PARAM,
            "dim 3 is out of range for 2 dimensions")


@pytest.mark.parametrize("index_type", [sim.ACL_INT32, sim.ACL_INT64])
def test_gather_selects_rows_of_the_first_dimension(acl, index_type):
    a = np.arange(6 * 4, dtype=np.float32).reshape(6, 4)
    idx = np.array([[5, 0, 2], [1, 1, 3]], dtype=sim.numpy_dtype(index_type))
    (y,) = run("Gather", [op_in(dev(a)), op_in(dev(idx))], [out_of((2, 3, 4))], {"validate_indices": False})
    np.testing.assert_array_equal(y, a[idx])


def test_gather_refuses_batch_dims_and_a_wrong_output_shape(acl):
    a, idx = dev(np.zeros((6, 4), np.float32)), dev(np.array([1, 2], np.int64))
    refused("Gather", [op_in(a), op_in(idx)], [out_of((2, 4))], {"batch_dims": 1}, sim.ACL_ERROR_FEATURE_UNSUPPORTED,
            "batch_dims 1: only 0 is supported")
    refused("Gather", [op_in(a), op_in(idx)], [out_of((2, 3))], None, sim.ACL_ERROR_INVALID_PARAM,
            "output y has shape [2, 3], expected [2, 4]")


@pytest.mark.parametrize("acl_type", [sim.ACL_FLOAT, sim.ACL_FLOAT16, sim.ACL_DOUBLE])
def test_histogram_counts_like_numpy(acl, acl_type):
    rng = np.random.default_rng(3)
    a = rng.uniform(-1.5, 2.5, 1000).astype(sim.numpy_dtype(acl_type))
    edges = np.linspace(-1.0, 2.0, 8)
    a = a[np.abs(a.astype(np.float64)[:, None] - edges[1:-1]).min(1) > 1e-2]  # float16 rounds bins' edges apart
    (y,) = run("Histogram", [op_in(dev(a))], [out_of((7,), acl_type)], {"bins": 7, "min": -1.0, "max": 2.0})
    inside = a[(a >= -1.0) & (a <= 2.0)].astype(np.float64)
    np.testing.assert_array_equal(y, np.histogram(inside, bins=7, range=(-1.0, 2.0))[0])


def test_histogram_needs_a_range(acl):
    a = dev(np.zeros(4, np.float32))
    refused("Histogram", [op_in(a)], [out_of((3,))], {"bins": 3, "min": 0.0, "max": 0.0},
            sim.ACL_ERROR_FEATURE_UNSUPPORTED, "only a finite range with min < max is supported")
    refused("Histogram", [op_in(a)], [out_of((3,))], {"bins": 0, "min": 0.0, "max": 1.0}, sim.ACL_ERROR_INVALID_PARAM,
            "bins 0 must be positive")


@pytest.mark.parametrize("dim", [0, 1, -1])
def test_concat_d_joins_its_dynamic_inputs(acl, dim):
    parts = [np.arange(24, dtype=np.float32).reshape(2, 3, 4)[(slice(None),) * (dim % 3) + (slice(0, k),)] + 10 * k
             for k in (1, 2, 0, 3)]
    expected = np.concatenate(parts, axis=dim)
    (y,) = run("ConcatD", [op_in(dev(p)) for p in parts], [out_of(expected.shape)], {"N": 4, "concat_dim": dim})
    np.testing.assert_array_equal(y, expected)


def test_concat_d_refuses_mismatched_inputs(acl):
    a, b = dev(np.zeros((2, 3), np.float32)), dev(np.zeros((3, 3), np.float32))
    refused("ConcatD", [op_in(a), op_in(b)], [out_of((5, 3))], {"N": 2, "concat_dim": 1}, sim.ACL_ERROR_INVALID_PARAM,
            "input x1 of shape [3, 3] does not join input x0 of shape [2, 3] along dimension 1")
    refused("ConcatD", [op_in(a), op_in(b)], [out_of((5, 3))], {"N": 3, "concat_dim": 0}, sim.ACL_ERROR_INVALID_PARAM,
            "attribute N is 3 but 2 inputs are given")
    i = dev(np.zeros((3, 3), np.int32))
    refused("ConcatD", [op_in(a), op_in(i)], [out_of((5, 3))], {"N": 2, "concat_dim": 0}, sim.ACL_ERROR_INVALID_PARAM,
            "input x0 has data type ACL_FLOAT but input x1 has ACL_INT32; they must match")


@pytest.mark.parametrize("acl_type", [sim.ACL_FLOAT, sim.ACL_INT64])
def test_cross_of_broadcast_vectors(acl, acl_type):
    rng = np.random.default_rng(5)
    a = rng.integers(-5, 6, (2, 3, 4)).astype(sim.numpy_dtype(acl_type))
    b = rng.integers(-5, 6, (1, 3, 1)).astype(sim.numpy_dtype(acl_type))
    expected = np.cross(a, np.broadcast_to(b, a.shape), axis=1)
    (y,) = run("Cross", [op_in(dev(a)), op_in(dev(b))], [out_of(a.shape, acl_type)], {"dim": -2})
    np.testing.assert_array_equal(y, expected)
    (y,) = run("Cross", [op_in(dev(a)), op_in(dev(b))], [out_of(a.shape, acl_type)])  # the first size-3 dimension
    np.testing.assert_array_equal(y, expected)


def test_cross_needs_three_components(acl):
    a = dev(np.zeros((2, 4), np.float32))
    refused("Cross", [op_in(a), op_in(a)], [out_of((2, 4))], {"dim": 1}, sim.ACL_ERROR_INVALID_PARAM,
            "dimension 1 of output y (shape [2, 4]) must have size 3")


@pytest.mark.parametrize("right", [False, True])
def test_search_sorted_in_shared_and_per_row_sequences(acl, right):
    side = "right" if right else "left"
    shared = np.array([1, 3, 3, 5, 9], np.float32)
    values = np.array([[0, 3, 6], [9, 10, 3]], np.float32)
    (y,) = run("SearchSorted", [op_in(dev(shared)), op_in(dev(values))], [out_of(values.shape, sim.ACL_INT64)],
               {"right": right})
    np.testing.assert_array_equal(y, np.searchsorted(shared, values, side=side))
    rows = np.array([[1, 2, 4, 8], [0, 5, 5, 6]], np.int32)
    vals = np.array([[2, 9], [5, -1]], np.int32)
    (y,) = run("SearchSorted", [op_in(dev(rows)), op_in(dev(vals))], [out_of(vals.shape, sim.ACL_INT32)],
               {"right": right, "dtype": sim.DataTypeAttr(sim.ACL_INT32)})
    np.testing.assert_array_equal(y, [np.searchsorted(r, v, side=side) for r, v in zip(rows, vals)])


def test_search_sorted_output_follows_its_dtype_attribute(acl):
    s, v = dev(np.array([1, 2], np.float32)), dev(np.array([1.5], np.float32))
    refused("SearchSorted", [op_in(s), op_in(v)], [out_of((1,), sim.ACL_INT32)], None, sim.ACL_ERROR_INVALID_PARAM,
            "output y has data type ACL_INT32 but attribute dtype is ACL_INT64")
