// acl_op types SoftmaxV2, LogSoftmaxV2, SoftmaxGrad, LogSoftmaxGrad (declared in abi/aclop/softmax.decl) on the
// row kernels softmax_custom / softmax_grad_custom: rows along the last dimension; another dimension is
// moved last by a view copy (and the result moved back).
#include "aclop/declared_ops.h"
#include "common/dtype.h"
#include "common/error.h"
#include "kernels/kernel_api.h"

namespace ascendc_sim {
namespace aclop {
namespace {

// The softmax dimension of `shape` from the one-element attribute `name`.
aclError SoftmaxDim(OpContext& ctx, const std::vector<int64_t>& axes, const char* name,
                    const std::vector<int64_t>& shape, size_t* dim) {
  if (axes.size() != 1) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "attribute %s must hold one dimension, got %zu", name, axes.size());
  }
  const int64_t rank = static_cast<int64_t>(shape.size());
  const int64_t span = rank == 0 ? 1 : rank;
  if (axes[0] < -span || axes[0] >= span) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "%s %lld is out of range for a %lld-D input", name,
                    static_cast<long long>(axes[0]), static_cast<long long>(rank));
  }
  *dim = rank == 0 ? 0 : static_cast<size_t>(axes[0] < 0 ? axes[0] + rank : axes[0]);
  return ACL_SUCCESS;
}

// Copies `data` (dense, `shape`) with dimension `dim` moved last (toLast) or back from last (!toLast).
aclError MoveDim(OpContext& ctx, aclDataType dtype, const void* data, const std::vector<int64_t>& shape, size_t dim,
                 bool toLast, void* out) {
  const size_t rank = shape.size();
  std::vector<size_t> order;  // the permuted dimensions, in the order of the moved layout
  for (size_t k = 0; k < rank; ++k) {
    if (k != dim) order.push_back(k);
  }
  order.push_back(dim);
  std::vector<int64_t> strides(rank, 1);  // of the original layout
  for (size_t k = rank; k-- > 1;) strides[k - 1] = strides[k] * shape[k];
  std::vector<int64_t> movedStrides(rank, 1);  // of the moved layout, per its position
  for (size_t k = rank; k-- > 1;) movedStrides[k - 1] = movedStrides[k] * shape[order[k]];
  kernels::ViewCopyArgs args;
  args.ndim = static_cast<int32_t>(rank);
  for (size_t i = 0; i < rank; ++i) {  // iterate in the moved layout's order
    args.shape[i] = shape[order[i]];
    if (toLast) {
      args.src.strides[i] = strides[order[i]];
      args.dst.strides[i] = movedStrides[i];
    } else {
      args.src.strides[i] = movedStrides[i];
      args.dst.strides[i] = strides[order[i]];
    }
  }
  args.src.data = const_cast<void*>(data);
  args.src.dtype = dtype;
  args.dst.data = out;
  args.dst.dtype = dtype;
  (void)ctx;
  return kernels::LaunchViewCopy(args, ctx.stream());
}

// y = f(inputs) along `dim`: `launch(inputs, y, rows, cols)` on row-major rows of the last dimension.
template <typename Launch>
aclError RunAlongDim(OpContext& ctx, size_t dim, Launch launch) {
  const OpOperand& y = ctx.outputs[0];
  const std::vector<int64_t>& shape = y.shape();
  for (size_t i = 0; i < ctx.inputs.size(); ++i) {
    const aclError rc = ctx.RequireSameShape(ctx.inputs[i], i == 0 ? "input 0" : "input 1", y, "the output");
    if (rc != ACL_SUCCESS) return rc;
  }
  const int64_t numel = y.Numel();
  if (numel == 0) return ACL_SUCCESS;
  const uint64_t cols = shape.empty() ? 1 : static_cast<uint64_t>(shape[dim]);
  const uint64_t rows = static_cast<uint64_t>(numel) / cols;
  const bool last = shape.empty() || dim + 1 == shape.size();
  if (last) {
    std::vector<const void*> in;
    for (const OpOperand& x : ctx.inputs) in.push_back(x.data);
    return launch(in, y.data, rows, cols);
  }
  const size_t bytes = static_cast<size_t>(numel) * DataTypeSize(y.dtype());
  std::vector<const void*> in;
  for (const OpOperand& x : ctx.inputs) {
    void* moved = nullptr;
    aclError rc = ctx.AllocTemp(bytes, &moved);
    if (rc == ACL_SUCCESS) rc = MoveDim(ctx, x.dtype(), x.data, shape, dim, true, moved);
    if (rc != ACL_SUCCESS) return rc;
    in.push_back(moved);
  }
  void* result = nullptr;
  aclError rc = ctx.AllocTemp(bytes, &result);
  if (rc == ACL_SUCCESS) rc = launch(in, result, rows, cols);
  if (rc != ACL_SUCCESS) return rc;
  return MoveDim(ctx, y.dtype(), result, shape, dim, false, y.data);
}

aclError RunForward(OpContext& ctx, const std::vector<int64_t>& axes, const char* name, bool log) {
  size_t dim = 0;
  const aclError rc = SoftmaxDim(ctx, axes, name, ctx.outputs[0].shape(), &dim);
  if (rc != ACL_SUCCESS) return rc;
  const aclDataType dtype = ctx.outputs[0].dtype();
  return RunAlongDim(ctx, dim, [&](const std::vector<const void*>& in, void* y, uint64_t rows, uint64_t cols) {
    return kernels::LaunchSoftmax(dtype, in[0], y, rows, cols, log, ctx.stream());
  });
}

// inputs (g, y) in the order of the kernel's arguments.
aclError RunBackward(OpContext& ctx, const std::vector<int64_t>& axes, const char* name, size_t gIndex, bool log) {
  size_t dim = 0;
  const aclError rc = SoftmaxDim(ctx, axes, name, ctx.outputs[0].shape(), &dim);
  if (rc != ACL_SUCCESS) return rc;
  const aclDataType dtype = ctx.outputs[0].dtype();
  return RunAlongDim(ctx, dim, [&](const std::vector<const void*>& in, void* dx, uint64_t rows, uint64_t cols) {
    return kernels::LaunchSoftmaxGrad(dtype, in[gIndex], in[1 - gIndex], dx, rows, cols, log, ctx.stream());
  });
}

}  // namespace

aclError RunSoftmaxV2(OpContext& ctx, const SoftmaxV2Attrs& attrs) { return RunForward(ctx, attrs.axes, "axes", false); }

aclError RunLogSoftmaxV2(OpContext& ctx, const LogSoftmaxV2Attrs& attrs) {
  return RunForward(ctx, attrs.axes, "axes", true);
}

aclError RunSoftmaxGrad(OpContext& ctx, const SoftmaxGradAttrs& attrs) {
  return RunBackward(ctx, attrs.axes, "axes", 1, false);  // inputs (softmax, grad_softmax)
}

aclError RunLogSoftmaxGrad(OpContext& ctx, const LogSoftmaxGradAttrs& attrs) {
  return RunBackward(ctx, attrs.axis, "axis", 0, true);  // inputs (grad, x)
}

}  // namespace aclop
}  // namespace ascendc_sim
