// acl_op types ReverseV2, Roll and ConcatD (view copies of the dense inputs), Cross (view
// copies of the components and elementwise mul/sub), Gather
// (index_select_custom along the first dimension), SearchSorted (search_sorted_custom) and Histogram
// (histc_custom), declared in
// abi/aclop/rearrange.decl (Triu is beside Tril, in math_ops.cpp).
#include <math.h>
#include <string.h>

#include <algorithm>
#include <vector>

#include "aclop/declared_ops.h"
#include "aclop/ops/elementwise_run.h"
#include "common/dtype.h"
#include "common/error.h"
#include "kernels/elementwise_api.h"
#include "kernels/index_kernel_api.h"
#include "kernels/kernel_api.h"

namespace ascendc_sim {
namespace aclop {
namespace {

// `dim` wrapped into [0, rank) (a 0-D tensor has one dimension to name), or an error naming `what`.
aclError WrapDim(OpContext& ctx, const char* what, int64_t* dim, size_t rank) {
  const int64_t span = rank == 0 ? 1 : static_cast<int64_t>(rank);
  if (*dim < -span || *dim >= span) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "%s %lld is out of range for %zu dimensions", what,
                    static_cast<long long>(*dim), rank);
  }
  if (*dim < 0) *dim += span;
  return ACL_SUCCESS;
}

aclError RequireSameShapeXY(OpContext& ctx) {
  return ctx.RequireSameShape(ctx.inputs[0], "input x", ctx.outputs[0], "output y");
}

// One copy of the box `shape` from x (at xOffset, through xStrides) to y (at yOffset, dense).
aclError CopyBox(OpContext& ctx, const std::vector<int64_t>& shape, const std::vector<int64_t>& xStrides,
                 int64_t xOffset, const std::vector<int64_t>& yStrides, int64_t yOffset) {
  kernels::ViewCopyArgs args;
  args.ndim = static_cast<int32_t>(shape.size());
  for (size_t k = 0; k < shape.size(); ++k) {
    args.shape[k] = shape[k];
    args.src.strides[k] = xStrides[k];
    args.dst.strides[k] = yStrides[k];
  }
  args.src.data = ctx.inputs[0].data;
  args.dst.data = ctx.outputs[0].data;
  args.src.dtype = args.dst.dtype = ctx.outputs[0].dtype();
  args.src.offset = xOffset;
  args.dst.offset = yOffset;
  return kernels::LaunchViewCopy(args, ctx.stream());
}

aclError RequireViewRank(OpContext& ctx, size_t rank) {
  if (rank > static_cast<size_t>(kernels::kMaxViewDims)) {
    return ctx.Fail(ACL_ERROR_FEATURE_UNSUPPORTED, "input x has %zu dimensions; at most %d are supported", rank,
                    kernels::kMaxViewDims);
  }
  return ACL_SUCCESS;
}

}  // namespace

// One copy through reversed strides: the first element read is the last along each reversed dimension.
aclError RunReverseV2(OpContext& ctx, const ReverseV2Attrs&) {
  aclError rc = RequireSameShapeXY(ctx);
  if (rc != ACL_SUCCESS) return rc;
  std::vector<int64_t> axes;
  if (ctx.inputs[1].shape().size() > 1) return ctx.Fail(ACL_ERROR_INVALID_PARAM, "input axis must be 0-D or 1-D");
  if ((rc = ConstantInts(ctx, 1, "axis", &axes)) != ACL_SUCCESS) return rc;
  const OpOperand& x = ctx.inputs[0];
  const size_t rank = x.shape().size();
  if ((rc = RequireViewRank(ctx, rank)) != ACL_SUCCESS) return rc;
  std::vector<bool> reversed(rank == 0 ? 1 : rank, false);
  for (int64_t axis : axes) {
    if ((rc = WrapDim(ctx, "axis", &axis, rank)) != ACL_SUCCESS) return rc;
    if (reversed[static_cast<size_t>(axis)]) {
      return ctx.Fail(ACL_ERROR_INVALID_PARAM, "axis %lld appears more than once", static_cast<long long>(axis));
    }
    reversed[static_cast<size_t>(axis)] = true;
  }
  if (x.Numel() == 0) return ACL_SUCCESS;
  const std::vector<int64_t> shape = rank == 0 ? std::vector<int64_t>{1} : x.shape();
  const std::vector<int64_t> dense = DenseStrides(shape);
  std::vector<int64_t> xStrides = dense;
  int64_t xOffset = 0;
  for (size_t k = 0; k < rank; ++k) {
    if (!reversed[k]) continue;
    xOffset += (shape[k] - 1) * dense[k];
    xStrides[k] = -dense[k];
  }
  return CopyBox(ctx, shape, xStrides, xOffset, dense, 0);
}

// Along a dimension of size n rolled by s (in [0, n)), x's [0, n - s) lands at y's [s, n) and x's [n - s, n)
// at y's [0, s): one box copy per choice of the two halves on each rolled dimension.
aclError RunRoll(OpContext& ctx, const RollAttrs& attrs) {
  aclError rc = RequireSameShapeXY(ctx);
  if (rc != ACL_SUCCESS) return rc;
  const OpOperand& x = ctx.inputs[0];
  const bool flat = attrs.dims.empty();
  const size_t expectedShifts = flat ? 1 : attrs.dims.size();
  if (attrs.shifts.size() != expectedShifts) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "shifts (%zu) and dims (%zu) must align: one shift per dimension, or "
                    "one shift and no dims", attrs.shifts.size(), attrs.dims.size());
  }
  const std::vector<int64_t> shape = flat ? std::vector<int64_t>{x.Numel()} : x.shape();
  if ((rc = RequireViewRank(ctx, shape.size())) != ACL_SUCCESS) return rc;
  std::vector<int64_t> shift(shape.size(), 0);
  if (shape.empty()) return ctx.Fail(ACL_ERROR_INVALID_PARAM, "a 0-D x has no dimension to roll");
  for (size_t k = 0; k < attrs.shifts.size(); ++k) {
    int64_t dim = flat ? 0 : attrs.dims[k];
    if ((rc = WrapDim(ctx, "dim", &dim, shape.size())) != ACL_SUCCESS) return rc;
    shift[static_cast<size_t>(dim)] += attrs.shifts[k];
  }
  if (x.Numel() == 0) return ACL_SUCCESS;
  std::vector<size_t> rolled;
  for (size_t k = 0; k < shape.size(); ++k) {
    shift[k] = ((shift[k] % shape[k]) + shape[k]) % shape[k];
    if (shift[k] != 0) rolled.push_back(k);
  }
  const std::vector<int64_t> dense = DenseStrides(shape);
  for (uint64_t choice = 0; choice < (uint64_t{1} << rolled.size()); ++choice) {
    std::vector<int64_t> box = shape;
    int64_t xOffset = 0, yOffset = 0;
    for (size_t r = 0; r < rolled.size(); ++r) {
      const size_t k = rolled[r];
      const int64_t n = shape[k], s = shift[k];
      if ((choice >> r) & 1) {  // x's tail [n - s, n) -> y's head [0, s)
        box[k] = s;
        xOffset += (n - s) * dense[k];
      } else {  // x's head [0, n - s) -> y's tail [s, n)
        box[k] = n - s;
        yOffset += s * dense[k];
      }
    }
    if ((rc = CopyBox(ctx, box, dense, xOffset, dense, yOffset)) != ACL_SUCCESS) return rc;
  }
  return ACL_SUCCESS;
}

// One view copy per input, into its slice of y along concat_dim.
aclError RunConcatD(OpContext& ctx, const ConcatDAttrs& attrs) {
  const OpOperand& y = ctx.outputs[0];
  if (attrs.N != static_cast<int64_t>(ctx.inputs.size())) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "attribute N is %lld but %zu inputs are given",
                    static_cast<long long>(attrs.N), ctx.inputs.size());
  }
  const std::vector<int64_t>& first = ctx.inputs[0].shape();
  if (first.empty()) return ctx.Fail(ACL_ERROR_INVALID_PARAM, "input x0 is 0-D; it has no dimension to join along");
  int64_t dim = attrs.concat_dim;
  aclError rc = WrapDim(ctx, "concat_dim", &dim, first.size());
  if (rc != ACL_SUCCESS) return rc;
  if ((rc = RequireViewRank(ctx, first.size())) != ACL_SUCCESS) return rc;
  std::vector<int64_t> expected = first;
  expected[static_cast<size_t>(dim)] = 0;
  for (size_t i = 0; i < ctx.inputs.size(); ++i) {
    const std::vector<int64_t>& shape = ctx.inputs[i].shape();
    bool fits = shape.size() == first.size();
    for (size_t k = 0; fits && k < shape.size(); ++k) fits = k == static_cast<size_t>(dim) || shape[k] == first[k];
    if (!fits) {
      return ctx.Fail(ACL_ERROR_INVALID_PARAM, "input x%zu of shape %s does not join input x0 of shape %s along "
                      "dimension %lld", i, ShapeToString(shape).c_str(), ShapeToString(first).c_str(),
                      static_cast<long long>(dim));
    }
    expected[static_cast<size_t>(dim)] += shape[static_cast<size_t>(dim)];
  }
  if (y.shape() != expected) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "output y has shape %s, expected %s", ShapeToString(y.shape()).c_str(),
                    ShapeToString(expected).c_str());
  }
  const std::vector<int64_t> yStrides = DenseStrides(expected);
  int64_t offset = 0;
  for (const OpOperand& x : ctx.inputs) {
    if (x.Numel() > 0) {
      kernels::ViewCopyArgs args;
      args.ndim = static_cast<int32_t>(first.size());
      const std::vector<int64_t> xStrides = DenseStrides(x.shape());
      for (size_t k = 0; k < first.size(); ++k) {
        args.shape[k] = x.shape()[k];
        args.src.strides[k] = xStrides[k];
        args.dst.strides[k] = yStrides[k];
      }
      args.src.data = x.data;
      args.dst.data = y.data;
      args.src.dtype = args.dst.dtype = y.dtype();
      args.dst.offset = offset * yStrides[static_cast<size_t>(dim)];
      if ((rc = kernels::LaunchViewCopy(args, ctx.stream())) != ACL_SUCCESS) return rc;
    }
    offset += x.shape()[static_cast<size_t>(dim)];
  }
  return ACL_SUCCESS;
}

namespace {

// dst [outer, inner] (dense) <-> component `j` of the dense [outer, 3, inner] buffer `vectors`.
aclError CopyComponent(OpContext& ctx, void* vectors, void* dst, int64_t j, int64_t outer, int64_t inner,
                       bool toVectors) {
  kernels::ViewCopyArgs args;
  args.ndim = 2;
  args.shape[0] = outer;
  args.shape[1] = inner;
  kernels::ViewLayout component, dense;
  component.data = vectors;
  component.offset = j * inner;
  component.strides[0] = 3 * inner;
  component.strides[1] = 1;
  dense.data = dst;
  dense.strides[0] = inner;
  dense.strides[1] = 1;
  component.dtype = dense.dtype = ctx.outputs[0].dtype();
  args.src = toVectors ? dense : component;
  args.dst = toVectors ? component : dense;
  return kernels::LaunchViewCopy(args, ctx.stream());
}

}  // namespace

// y_i = x1_(i+1) x2_(i+2) - x1_(i+2) x2_(i+1): each product and the difference rounded to y's dtype, as CPU.
aclError RunCross(OpContext& ctx, const CrossAttrs& attrs) {
  const OpOperand& y = ctx.outputs[0];
  const std::vector<int64_t>& shape = y.shape();
  if (shape.empty()) return ctx.Fail(ACL_ERROR_INVALID_PARAM, "output y is 0-D; it holds no 3-vectors");
  int64_t dim = attrs.dim;
  aclError rc = ACL_SUCCESS;
  if (dim == -65530) {
    const auto three = std::find(shape.begin(), shape.end(), 3);
    if (three == shape.end()) {
      return ctx.Fail(ACL_ERROR_INVALID_PARAM, "output y of shape %s has no dimension of size 3",
                      ShapeToString(shape).c_str());
    }
    dim = three - shape.begin();
  } else if ((rc = WrapDim(ctx, "dim", &dim, shape.size())) != ACL_SUCCESS) {
    return rc;
  }
  if (shape[static_cast<size_t>(dim)] != 3) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "dimension %lld of output y (shape %s) must have size 3",
                    static_cast<long long>(dim), ShapeToString(shape).c_str());
  }
  void* a = nullptr;
  void* b = nullptr;
  if ((rc = ctx.BroadcastInput(0, shape, &a)) != ACL_SUCCESS) return rc;
  if ((rc = ctx.BroadcastInput(1, shape, &b)) != ACL_SUCCESS) return rc;
  if (y.Numel() == 0) return ACL_SUCCESS;
  int64_t outer = 1, inner = 1;
  for (int64_t k = 0; k < dim; ++k) outer *= shape[static_cast<size_t>(k)];
  for (size_t k = static_cast<size_t>(dim) + 1; k < shape.size(); ++k) inner *= shape[k];
  const uint64_t n = static_cast<uint64_t>(outer * inner);
  const size_t bytes = n * DataTypeSize(y.dtype());
  void* t[4] = {};
  for (void*& temp : t) {
    if ((rc = ctx.AllocTemp(bytes, &temp)) != ACL_SUCCESS) return rc;
  }
  const aclDataType dtype = y.dtype();
  for (int64_t i = 0; i < 3; ++i) {
    const int64_t j = (i + 1) % 3, k = (i + 2) % 3;
    if ((rc = CopyComponent(ctx, a, t[0], j, outer, inner, false)) != ACL_SUCCESS) return rc;
    if ((rc = CopyComponent(ctx, b, t[1], k, outer, inner, false)) != ACL_SUCCESS) return rc;
    if ((rc = CopyComponent(ctx, a, t[2], k, outer, inner, false)) != ACL_SUCCESS) return rc;
    if ((rc = CopyComponent(ctx, b, t[3], j, outer, inner, false)) != ACL_SUCCESS) return rc;
    rc = kernels::LaunchElementwise(kernels::EwOp::kMul, dtype, t[0], t[1], t[0], n, {}, ctx.stream());
    if (rc == ACL_SUCCESS) rc = kernels::LaunchElementwise(kernels::EwOp::kMul, dtype, t[2], t[3], t[2], n, {},
                                                           ctx.stream());
    if (rc == ACL_SUCCESS) rc = kernels::LaunchElementwise(kernels::EwOp::kSub, dtype, t[0], t[2], t[0], n,
                                                           ScalarFor(dtype, 1.0), ctx.stream());
    if (rc == ACL_SUCCESS) rc = CopyComponent(ctx, y.data, t[0], i, outer, inner, true);
    if (rc != ACL_SUCCESS) return rc;
  }
  return ACL_SUCCESS;
}

aclError RunGather(OpContext& ctx, const GatherAttrs& attrs) {
  const OpOperand& x = ctx.inputs[0];
  const OpOperand& indices = ctx.inputs[1];
  const OpOperand& y = ctx.outputs[0];
  if (attrs.batch_dims != 0) {
    return ctx.Fail(ACL_ERROR_FEATURE_UNSUPPORTED, "batch_dims %lld: only 0 is supported",
                    static_cast<long long>(attrs.batch_dims));
  }
  if (x.shape().empty()) return ctx.Fail(ACL_ERROR_INVALID_PARAM, "input x must have at least one dimension");
  std::vector<int64_t> expected = indices.shape();
  expected.insert(expected.end(), x.shape().begin() + 1, x.shape().end());
  if (y.shape() != expected) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "output y has shape %s, expected %s", ShapeToString(y.shape()).c_str(),
                    ShapeToString(expected).c_str());
  }
  if (y.Numel() == 0) return ACL_SUCCESS;
  kernels::IndexSelectArgs args;
  args.dtype = x.dtype();
  args.indexDtype = indices.dtype();
  args.outer = 1;
  args.dimSize = x.shape()[0];
  args.inner = args.dimSize == 0 ? 0 : x.Numel() / args.dimSize;
  args.count = indices.Numel();
  args.x = x.data;
  args.index = indices.data;
  args.y = y.data;
  args.op = "Gather";
  return kernels::LaunchIndexSelect(args, ctx.stream());
}

aclError RunSearchSorted(OpContext& ctx, const SearchSortedAttrs& attrs) {
  const OpOperand& sorted = ctx.inputs[0];
  const OpOperand& values = ctx.inputs[1];
  const OpOperand& y = ctx.outputs[0];
  if (y.dtype() != attrs.dtype) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "output y has data type %s but attribute dtype is %s",
                    DataTypeName(y.dtype()), DataTypeName(attrs.dtype));
  }
  aclError rc = ctx.RequireSameShape(values, "input values", y, "output y");
  if (rc != ACL_SUCCESS) return rc;
  const std::vector<int64_t>& s = sorted.shape();
  const std::vector<int64_t>& v = values.shape();
  if (s.empty()) return ctx.Fail(ACL_ERROR_INVALID_PARAM, "input sorted_sequence must have at least one dimension");
  kernels::SearchSortedArgs args;
  args.sharedRow = s.size() == 1;
  if (!args.sharedRow && (v.size() != s.size() || !std::equal(s.begin(), s.end() - 1, v.begin()))) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "input sorted_sequence of shape %s: its leading dimensions must be those "
                    "of input values (shape %s)", ShapeToString(s).c_str(), ShapeToString(v).c_str());
  }
  args.dtype = sorted.dtype();
  args.n = s.back();
  args.rows = 1;  // the leading dimensions of a per-row sequence
  for (size_t k = 0; k + 1 < s.size(); ++k) args.rows *= s[k];
  args.perRow = args.sharedRow ? values.Numel() : v.back();
  args.right = attrs.right;
  args.out32 = y.dtype() == ACL_INT32;
  args.sorted = sorted.data;
  args.values = values.data;
  args.out = y.data;
  if (y.Numel() == 0) return ACL_SUCCESS;
  return kernels::LaunchSearchSorted(args, ctx.stream());
}

aclError RunHistogram(OpContext& ctx, const HistogramAttrs& attrs) {
  const OpOperand& x = ctx.inputs[0];
  const OpOperand& y = ctx.outputs[0];
  if (attrs.bins <= 0) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "bins %lld must be positive", static_cast<long long>(attrs.bins));
  }
  if (!(attrs.min < attrs.max) || !isfinite(attrs.min) || !isfinite(attrs.max)) {
    // CANN takes the data's range for min == max; the simulator needs the range given.
    return ctx.Fail(ACL_ERROR_FEATURE_UNSUPPORTED, "min %g and max %g: only a finite range with min < max is "
                    "supported", attrs.min, attrs.max);
  }
  if (y.shape() != std::vector<int64_t>{attrs.bins}) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "output y has shape %s, expected [%lld]", ShapeToString(y.shape()).c_str(),
                    static_cast<long long>(attrs.bins));
  }
  void* edges = nullptr;
  const aclError rc = ctx.AllocTemp(static_cast<size_t>(attrs.bins + 1) * sizeof(double), &edges);
  if (rc != ACL_SUCCESS) return rc;
  const int64_t n = x.Numel();
  return kernels::LaunchHistc(x.dtype(), n > 0 ? x.data : nullptr, n, y.data, edges, attrs.bins, attrs.min,
                              attrs.max, ctx.stream());
}

}  // namespace aclop
}  // namespace ascendc_sim
