// The aclnn l0 plan: contiguous/broadcast/cast inputs, dense kernel, view-copy out.
#include "aclnn/l0_ops.h"

#include "aclnn/aclnn_common.h"

#include "common/dtype.h"
#include "common/error.h"
#include "meta/executor.h"

namespace ascendc_sim {
namespace aclnn {
namespace {

constexpr int64_t kWorkspaceAlignment = 512;

bool IsDenseAs(const aclTensor* t, const std::vector<int64_t>& shape, aclDataType dtype) {
  return t->dtype == dtype && t->viewDims == shape && t->IsContiguous();
}

void* ViewStart(const aclTensor* t) {
  return static_cast<uint8_t*>(t->data) + t->offset * static_cast<int64_t>(DataTypeSize(t->dtype));
}

// Dense row-major layout of `shape` over `data` (strides 0 where `from` is 1).
kernels::ViewLayout DenseLayout(void* data, aclDataType dtype, const std::vector<int64_t>& from,
                                const std::vector<int64_t>& shape) {
  kernels::ViewLayout layout;
  layout.data = data;
  layout.dtype = dtype;
  int64_t stride = 1;
  const size_t lead = shape.size() - from.size();
  for (size_t k = from.size(); k-- > 0;) {
    layout.strides[lead + k] = (from[k] == 1 && shape[lead + k] != 1) ? 0 : stride;
    stride *= from[k];
  }
  return layout;
}

int64_t NumelOf(const std::vector<int64_t>& shape) {
  int64_t numel = 1;
  for (int64_t d : shape) numel *= d;
  return numel;
}

int32_t FillShape(kernels::ViewCopyArgs* args, const std::vector<int64_t>& shape) {
  args->ndim = static_cast<int32_t>(shape.size());
  for (size_t k = 0; k < shape.size(); ++k) args->shape[k] = shape[k];
  return args->ndim;
}

}  // namespace

ExecutorBuilder::ExecutorBuilder(const char* api) : api_(api), executor_(AcquireExecutor(api)) {}

ExecutorBuilder::~ExecutorBuilder() { ReleaseExecutor(executor_); }

kernels::ViewLayout ExecutorBuilder::Layout(const aclTensor* t, const std::vector<int64_t>& shape) const {
  kernels::ViewLayout layout;
  layout.data = t->data;
  layout.dtype = t->dtype;
  layout.offset = t->offset;
  const size_t lead = shape.size() - t->viewDims.size();
  for (size_t k = 0; k < t->viewDims.size(); ++k) {
    const bool broadcast = t->viewDims[k] == 1 && shape[lead + k] != 1;
    layout.strides[lead + k] = broadcast ? 0 : t->strides[k];
  }
  return layout;
}

bool ExecutorBuilder::CheckViewable(const char* name, const std::vector<int64_t>& from,
                                    const std::vector<int64_t>& shape) {
  if (!error_.empty()) return false;
  if (shape.size() > static_cast<size_t>(kernels::kMaxViewDims)) {
    error_ = StrFormat("%s: %s is viewed as shape %s of %zu dimensions; at most %d are supported", api_, name,
                       ShapeToString(shape).c_str(), shape.size(), kernels::kMaxViewDims);
    return false;
  }
  if (!BroadcastsTo(from, shape)) {
    error_ = StrFormat("%s: %s of shape %s cannot be broadcast to shape %s", api_, name, ShapeToString(from).c_str(),
                       ShapeToString(shape).c_str());
    return false;
  }
  return true;
}

void ExecutorBuilder::UseDeviceMemory(const char* name, const aclTensor* t) {
  if (t->Numel() > 0) executor_->devicePointers.emplace_back(name, t->data);
}

DenseBuffer ExecutorBuilder::Scratch(int64_t elements, aclDataType dtype) {
  DenseBuffer buffer;
  buffer.dtype = dtype;
  buffer.workspaceOffset = static_cast<int64_t>(executor_->workspaceSize);
  const int64_t bytes = elements * static_cast<int64_t>(DataTypeSize(dtype));
  executor_->workspaceSize += static_cast<uint64_t>((bytes + kWorkspaceAlignment - 1) / kWorkspaceAlignment *
                                                    kWorkspaceAlignment);
  return buffer;
}

std::optional<kernels::StridedRows> StridedRowsOf(const aclTensor& view, size_t keptDims) {
  const size_t rank = view.viewDims.size();
  if (view.IsContiguous() || keptDims >= rank || keptDims > static_cast<size_t>(kernels::kMaxViewDims) ||
      rank - keptDims > static_cast<size_t>(kernels::kMaxViewDims)) {
    return std::nullopt;
  }
  kernels::StridedRows rows;
  rows.keptDims = static_cast<int32_t>(keptDims);
  rows.reducedDims = static_cast<int32_t>(rank - keptDims);
  for (size_t k = 0; k < rank; ++k) {
    if (k < keptDims) {
      rows.keptSizes[k] = view.viewDims[k];
      rows.keptStrides[k] = view.strides[k];
    } else {
      rows.reducedSizes[k - keptDims] = view.viewDims[k];
      rows.reducedStrides[k - keptDims] = view.strides[k];
    }
  }
  return rows;
}

DenseBuffer ExecutorBuilder::Direct(const aclTensor* t, const char* name) {
  UseDeviceMemory(name, t);
  DenseBuffer buffer;
  buffer.direct = ViewStart(t);
  buffer.dtype = t->dtype;
  return buffer;
}

DenseBuffer ExecutorBuilder::Input(const aclTensor* t, const char* name, const std::vector<int64_t>& shape,
                                   aclDataType dtype) {
  UseDeviceMemory(name, t);
  if (!CheckViewable(name, t->viewDims, shape)) return DenseBuffer{};
  if (IsDenseAs(t, shape, dtype)) {
    DenseBuffer buffer;
    buffer.direct = ViewStart(t);
    buffer.dtype = dtype;
    return buffer;
  }
  const DenseBuffer tile = Scratch(NumelOf(shape), dtype);
  kernels::ViewCopyArgs args;
  FillShape(&args, shape);
  args.src = Layout(t, shape);
  args.dst = DenseLayout(nullptr, dtype, shape, shape);
  AddStep([args, tile](uint8_t* workspace, aclrtStream stream) mutable {
    args.dst.data = tile.Resolve(workspace);
    return kernels::LaunchViewCopy(args, stream);
  });
  return tile;
}

DenseBuffer ExecutorBuilder::InputReshaped(const aclTensor* t, const char* name, const std::vector<int64_t>& shape,
                                           aclDataType dtype) {
  if (error_.empty() && NumelOf(shape) != t->Numel()) {
    error_ = StrFormat("%s: %s of shape %s (%lld elements) cannot be reshaped to %s", api_, name,
                       ShapeToString(t->viewDims).c_str(), static_cast<long long>(t->Numel()),
                       ShapeToString(shape).c_str());
  }
  // Dense in its own shape is dense in `shape`: both are the same row-major sequence.
  return Input(t, name, t->viewDims, dtype);
}

DenseBuffer ExecutorBuilder::Output(const aclTensor* out, const char* name, aclDataType dtype) {
  UseDeviceMemory(name, out);
  if (IsDenseAs(out, out->viewDims, dtype)) {
    DenseBuffer buffer;
    buffer.direct = ViewStart(out);
    buffer.dtype = dtype;
    return buffer;
  }
  const DenseBuffer tile = Scratch(out->Numel(), dtype);
  const std::vector<int64_t> shape = out->viewDims;
  // Copied into out after the kernel steps added later.
  pendingOutputs_.push_back([this, tile, shape, out, name] { CopyDenseToView(tile, shape, out, name); });
  return tile;
}

void ExecutorBuilder::CopyView(const aclTensor* src, const char* srcName, const aclTensor* dst, const char* dstName) {
  UseDeviceMemory(srcName, src);
  UseDeviceMemory(dstName, dst);
  if (!CheckViewable(srcName, src->viewDims, dst->viewDims)) return;
  kernels::ViewCopyArgs args;
  FillShape(&args, dst->viewDims);
  args.src = Layout(src, dst->viewDims);
  args.dst = Layout(dst, dst->viewDims);
  AddStep([args](uint8_t*, aclrtStream stream) { return kernels::LaunchViewCopy(args, stream); });
}

void ExecutorBuilder::CopyDenseToView(const DenseBuffer& src, const std::vector<int64_t>& srcShape,
                                      const aclTensor* dst, const char* dstName) {
  UseDeviceMemory(dstName, dst);
  if (!CheckViewable(dstName, srcShape, dst->viewDims)) return;
  kernels::ViewCopyArgs args;
  FillShape(&args, dst->viewDims);
  args.src = DenseLayout(nullptr, src.dtype, srcShape, dst->viewDims);
  args.dst = Layout(dst, dst->viewDims);
  AddStep([args, src](uint8_t* workspace, aclrtStream stream) mutable {
    args.src.data = src.Resolve(workspace);
    return kernels::LaunchViewCopy(args, stream);
  });
}

void ExecutorBuilder::AddStep(AclnnStep launch) { executor_->steps.push_back(std::move(launch)); }

aclnnStatus ExecutorBuilder::Finish(uint64_t* workspaceSize, aclOpExecutor** executor) {
  for (auto& write : pendingOutputs_) write();
  pendingOutputs_.clear();
  // A plan that asked for an impossible view runs nothing: the executor is
  // released by the destructor and the caller gets the reason.
  if (!error_.empty()) return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s", error_.c_str());
  *workspaceSize = executor_->workspaceSize;
  *executor = executor_;
  executor_ = nullptr;
  return ACLNN_SUCCESS;
}

}  // namespace aclnn
}  // namespace ascendc_sim
