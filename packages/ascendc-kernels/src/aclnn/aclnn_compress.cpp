// aclnnNonzero, aclnnMaskedSelect and aclnnInplaceMaskedScatter over the stream
// compaction kernel compress_custom; aclnnUnique2 and aclnnUniqueConsecutive over
// unique_custom. The mask (self != 0 for nonzero) is made a
// dense bool tile by the l0 view-copy. Nonzero and masked_select write into an out of
// the largest size; a callback queued after the kernel sets out's result shape from
// the count the kernel stored, which aclGetViewShape reports once the caller has
// synchronised the stream (CANN's contract for ops with data-dependent shapes).
#include "aclnnop/aclnn_masked_scatter.h"
#include "aclnnop/aclnn_masked_select.h"
#include "aclnnop/aclnn_nonzero.h"
#include "aclnnop/aclnn_unique.h"

#include <memory>
#include <vector>

#include "acl/acl_rt.h"
#include "aclnn/aclnn_common.h"
#include "aclnn/l0_ops.h"
#include "common/dtype.h"
#include "common/error.h"
#include "kernels/index_kernel_api.h"
#include "meta/executor.h"

namespace ascendc_sim {
namespace aclnn {
namespace {

namespace k = kernels;

aclnnStatus CheckPointers(const char* api, uint64_t* workspaceSize, aclOpExecutor** executor) {
  aclnnStatus rc;
  if ((rc = CheckNotNull(api, workspaceSize, "workspaceSize")) != ACLNN_SUCCESS) return rc;
  return CheckNotNull(api, executor, "executor");
}

// What the shape callback needs: the cell to fill, the count the kernel stored and the
// trailing dimensions of the result.
struct ShapeUpdate {
  std::vector<std::shared_ptr<ResultShape>> cells;
  const int64_t* total = nullptr;
  std::vector<int64_t> trailing;
};

void ApplyShapeUpdate(void* userData) {
  std::unique_ptr<ShapeUpdate> update(static_cast<ShapeUpdate*>(userData));
  std::vector<int64_t> dims{*update->total};
  dims.insert(dims.end(), update->trailing.begin(), update->trailing.end());
  for (const auto& cell : update->cells) {
    cell->dims = dims;
    cell->ready.store(true, std::memory_order_release);
  }
}

// Queues the callback that gives `cells` the shape [*total, trailing...] once the kernels
// queued before it have run.
aclError QueueShapeUpdate(std::vector<std::shared_ptr<ResultShape>> cells, const int64_t* total,
                          std::vector<int64_t> trailing, aclrtStream stream) {
  auto* update = new ShapeUpdate;
  update->cells = std::move(cells);
  update->total = total;
  update->trailing = std::move(trailing);
  const aclError err = aclrtLaunchCallback(ApplyShapeUpdate, update, ACL_CALLBACK_BLOCK, stream);
  if (err != ACL_SUCCESS) delete update;
  return err;
}

std::shared_ptr<ResultShape> NewResultShape(aclTensor* t) {
  auto cell = std::make_shared<ResultShape>();
  t->resultShape = cell;
  return cell;
}

// Queues the compaction and, for a data-dependent out, the callback that sets its shape.
void AddCompressSteps(ExecutorBuilder& plan, const k::CompressArgs& shape, const DenseBuffer& mask,
                      const DenseBuffer& values, const DenseBuffer& out, aclTensor* resultTensor,
                      std::vector<int64_t> trailing) {
  const DenseBuffer counts = plan.Scratch(k::kCompressMaxBlocks + 1, ACL_INT64);
  std::shared_ptr<ResultShape> cell;
  if (resultTensor != nullptr) cell = NewResultShape(resultTensor);
  plan.AddStep([shape, mask, values, out, counts, cell, trailing](uint8_t* ws, aclrtStream stream) {
    k::CompressArgs args = shape;
    args.mask = mask.Resolve(ws);
    args.values = values.dtype == ACL_DT_UNDEFINED ? nullptr : values.Resolve(ws);
    args.out = out.Resolve(ws);
    args.counts = counts.Resolve(ws);
    const aclError err = k::LaunchCompress(args, stream);
    if (err != ACL_SUCCESS || cell == nullptr) return err;
    return QueueShapeUpdate({cell}, static_cast<const int64_t*>(args.counts) + k::CompressTotalSlot(args.n), trailing,
                            stream);
  });
}

aclnnStatus NonzeroWorkspace(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,
                             aclOpExecutor** executor) {
  const char* api = "aclnnNonzero";
  aclnnStatus rc;
  if ((rc = CheckNotNull(api, self, "self")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, out, "out")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckPointers(api, workspaceSize, executor)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, self, "self", kAllDtypes)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, out, "out", {ACL_INT64})) != ACLNN_SUCCESS) return rc;
  const int64_t rank = static_cast<int64_t>(self->viewDims.size());
  if (out->viewDims != std::vector<int64_t>{self->Numel(), rank} || !out->IsContiguous()) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: out must be a dense int64 [%lld, %lld] (the largest result), got %s",
                      api, static_cast<long long>(self->Numel()), static_cast<long long>(rank),
                      ShapeToString(out->viewDims).c_str());
  }
  if (rank > k::kMaxViewDims) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: self has %lld dimensions, at most %d are supported", api,
                      static_cast<long long>(rank), k::kMaxViewDims);
  }
  ExecutorBuilder plan(api);
  k::CompressArgs shape;
  shape.mode = k::CompressMode::kCoordinates;
  shape.n = self->Numel();
  shape.limit = self->Numel();
  shape.ndim = static_cast<int32_t>(rank);
  for (int64_t d = 0; d < rank; ++d) shape.shape[d] = self->viewDims[d];
  DenseBuffer mask;
  if (shape.n > 0) mask = plan.Input(self, "self", self->viewDims, ACL_BOOL);
  const DenseBuffer y = plan.Direct(out, "out");
  AddCompressSteps(plan, shape, mask, DenseBuffer{}, y, out, {rank});
  return plan.Finish(workspaceSize, executor);
}

aclnnStatus MaskedSelectWorkspace(const aclTensor* self, const aclTensor* mask, aclTensor* out,
                                  uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnMaskedSelect";
  aclnnStatus rc;
  if ((rc = CheckNotNull(api, self, "self")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, mask, "mask")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, out, "out")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckPointers(api, workspaceSize, executor)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, self, "self", kAllDtypes)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, mask, "mask", {ACL_BOOL, ACL_UINT8})) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, out, "out", kAllDtypes)) != ACLNN_SUCCESS) return rc;
  std::vector<int64_t> shape;
  if (!BroadcastShapes(self->viewDims, mask->viewDims, &shape)) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: self %s and mask %s do not broadcast", api,
                      ShapeToString(self->viewDims).c_str(), ShapeToString(mask->viewDims).c_str());
  }
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  if (out->dtype != self->dtype || out->viewDims != std::vector<int64_t>{n} || !out->IsContiguous()) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: out must be a dense 1-D [%lld] of self's dtype %s, got %s of %s",
                      api, static_cast<long long>(n), DataTypeName(self->dtype), ShapeToString(out->viewDims).c_str(),
                      DataTypeName(out->dtype));
  }
  ExecutorBuilder plan(api);
  k::CompressArgs args;
  args.mode = k::CompressMode::kValues;
  args.dtype = self->dtype;
  args.n = n;
  args.limit = n;
  args.op = "masked_select";
  DenseBuffer m, x;
  if (n > 0) {
    m = plan.Input(mask, "mask", shape, ACL_BOOL);
    x = plan.Input(self, "self", shape, self->dtype);
  }
  const DenseBuffer y = plan.Direct(out, "out");
  AddCompressSteps(plan, args, m, x, y, out, {});
  return plan.Finish(workspaceSize, executor);
}

aclnnStatus MaskedScatterWorkspace(aclTensor* self, const aclTensor* mask, const aclTensor* source,
                                   uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnInplaceMaskedScatter";
  aclnnStatus rc;
  if ((rc = CheckNotNull(api, self, "selfRef")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, mask, "mask")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, source, "source")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckPointers(api, workspaceSize, executor)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, self, "selfRef", kAllDtypes)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, mask, "mask", {ACL_BOOL, ACL_UINT8})) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, source, "source", kAllDtypes)) != ACLNN_SUCCESS) return rc;
  if (source->dtype != self->dtype) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: source has dtype %s, expected selfRef's %s", api,
                      DataTypeName(source->dtype), DataTypeName(self->dtype));
  }
  if (!BroadcastsTo(mask->viewDims, self->viewDims)) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: mask %s does not broadcast to selfRef %s", api,
                      ShapeToString(mask->viewDims).c_str(), ShapeToString(self->viewDims).c_str());
  }
  ExecutorBuilder plan(api);
  const int64_t n = self->Numel();
  if (n > 0) {
    k::CompressArgs args;
    args.mode = k::CompressMode::kExpand;
    args.dtype = self->dtype;
    args.n = n;
    args.limit = source->Numel();
    args.op = "masked_scatter";
    const DenseBuffer m = plan.Input(mask, "mask", self->viewDims, ACL_BOOL);
    DenseBuffer s = plan.Scratch(1, self->dtype);  // never read when the mask is all false
    if (source->Numel() > 0) s = plan.InputReshaped(source, "source", {source->Numel()}, self->dtype);
    const DenseBuffer y = plan.Output(self, "selfRef", self->dtype);
    // A workspace tile for a strided selfRef starts as a copy of it.
    if (y.workspaceOffset >= 0) {
      const DenseBuffer x = plan.Input(self, "selfRef", self->viewDims, self->dtype);
      k::ViewCopyArgs copy;
      copy.ndim = 1;
      copy.shape[0] = n;
      copy.src.dtype = copy.dst.dtype = self->dtype;
      copy.src.strides[0] = copy.dst.strides[0] = 1;
      plan.AddStep([copy, x, y](uint8_t* ws, aclrtStream stream) mutable {
        copy.src.data = x.Resolve(ws);
        copy.dst.data = y.Resolve(ws);
        return k::LaunchViewCopy(copy, stream);
      });
    }
    AddCompressSteps(plan, args, m, s, y, nullptr, {});
  }
  return plan.Finish(workspaceSize, executor);
}

// unique (consecutive false: sorted) of self flattened: y [numel] of self's dtype, yInverse
// int64 of self's shape (or empty without returnInverse), yCounts int64 [numel] (or empty
// without returnCounts); y's and yCounts' view shapes become [groups] once the op has run.
aclnnStatus UniqueWorkspace(const char* api, const aclTensor* self, bool consecutive, bool returnInverse,
                            bool returnCounts, aclTensor* y, aclTensor* yInverse, aclTensor* yCounts,
                            uint64_t* workspaceSize, aclOpExecutor** executor) {
  aclnnStatus rc;
  if ((rc = CheckNotNull(api, self, "self")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, y, "y")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, yInverse, "yInverse")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, yCounts, "yCounts")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckPointers(api, workspaceSize, executor)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, self, "self", kAllDtypes)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, y, "y", kAllDtypes)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, yInverse, "yInverse", {ACL_INT64})) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, yCounts, "yCounts", {ACL_INT64})) != ACLNN_SUCCESS) return rc;
  const int64_t n = self->Numel();
  const std::vector<int64_t> flat{n};
  if (y->dtype != self->dtype || y->viewDims != flat || !y->IsContiguous()) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: y must be a dense [%lld] of self's dtype", api,
                      static_cast<long long>(n));
  }
  const bool inverse = yInverse->Numel() > 0 || (returnInverse && n == 0);
  if ((returnInverse && yInverse->viewDims != self->viewDims) || (inverse && !yInverse->IsContiguous())) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: yInverse must be a dense int64 of self's shape %s", api,
                      ShapeToString(self->viewDims).c_str());
  }
  if ((returnCounts && yCounts->viewDims != flat) || !yCounts->IsContiguous()) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: yCounts must be a dense int64 [%lld]", api,
                      static_cast<long long>(n));
  }
  ExecutorBuilder plan(api);
  std::vector<std::shared_ptr<ResultShape>> cells{NewResultShape(y)};
  if (returnCounts) cells.push_back(NewResultShape(yCounts));
  const DenseBuffer total = plan.Scratch(1, ACL_INT64);
  if (n == 0) {
    plan.AddStep([total, cells](uint8_t* ws, aclrtStream stream) {
      aclError err = k::LaunchFill(ACL_INT64, total.Resolve(ws), 1, k::ScalarValue::Integral(0), stream);
      if (err != ACL_SUCCESS) return err;
      return QueueShapeUpdate(cells, static_cast<const int64_t*>(total.Resolve(ws)), {}, stream);
    });
    return plan.Finish(workspaceSize, executor);
  }
  k::UniqueArgs shape;
  shape.dtype = self->dtype;
  shape.n = n;
  shape.consecutive = consecutive;
  const DenseBuffer x = plan.Input(self, "self", self->viewDims, self->dtype);
  const DenseBuffer order = plan.Scratch(n, ACL_INT64);
  const DenseBuffer yb = plan.Direct(y, "y");
  const DenseBuffer inv = yInverse->Numel() > 0 ? plan.Direct(yInverse, "yInverse") : DenseBuffer{};
  const DenseBuffer cnt = returnCounts ? plan.Direct(yCounts, "yCounts") : DenseBuffer{};
  plan.AddStep([shape, x, order, yb, inv, cnt, total, cells](uint8_t* ws, aclrtStream stream) {
    k::UniqueArgs args = shape;
    args.x = x.Resolve(ws);
    args.y = yb.Resolve(ws);
    args.inverse = inv.dtype == ACL_DT_UNDEFINED ? nullptr : inv.Resolve(ws);
    args.counts = cnt.dtype == ACL_DT_UNDEFINED ? nullptr : cnt.Resolve(ws);
    args.order = order.Resolve(ws);
    args.total = total.Resolve(ws);
    const aclError err = k::LaunchUnique(args, stream);
    if (err != ACL_SUCCESS) return err;
    return QueueShapeUpdate(cells, static_cast<const int64_t*>(args.total), {}, stream);
  });
  return plan.Finish(workspaceSize, executor);
}

}  // namespace
}  // namespace aclnn
}  // namespace ascendc_sim

using namespace ascendc_sim::aclnn;

extern "C" {

aclnnStatus aclnnNonzeroGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,
                                         aclOpExecutor** executor) {
  return NonzeroWorkspace(self, out, workspaceSize, executor);
}

aclnnStatus aclnnNonzero(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnNonzero", workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnMaskedSelectGetWorkspaceSize(const aclTensor* self, const aclTensor* mask, aclTensor* out,
                                              uint64_t* workspaceSize, aclOpExecutor** executor) {
  return MaskedSelectWorkspace(self, mask, out, workspaceSize, executor);
}

aclnnStatus aclnnMaskedSelect(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnMaskedSelect", workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnInplaceMaskedScatterGetWorkspaceSize(aclTensor* selfRef, const aclTensor* mask,
                                                      const aclTensor* source, uint64_t* workspaceSize,
                                                      aclOpExecutor** executor) {
  return MaskedScatterWorkspace(selfRef, mask, source, workspaceSize, executor);
}

aclnnStatus aclnnInplaceMaskedScatter(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                      aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnInplaceMaskedScatter", workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnUnique2GetWorkspaceSize(const aclTensor* self, bool sorted, bool returnInverse, bool returnCounts,
                                         aclTensor* y, aclTensor* yInverse, aclTensor* yCounts,
                                         uint64_t* workspaceSize, aclOpExecutor** executor) {
  (void)sorted;  // always sorted, as PyTorch's CPU unique
  return UniqueWorkspace("aclnnUnique2", self, false, returnInverse, returnCounts, y, yInverse, yCounts,
                         workspaceSize, executor);
}

aclnnStatus aclnnUnique2(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnUnique2", workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnUniqueConsecutiveGetWorkspaceSize(const aclTensor* self, bool returnInverse, bool returnCounts,
                                                   int64_t dim, aclTensor* y, aclTensor* yInverse,
                                                   aclTensor* yCounts, uint64_t* workspaceSize,
                                                   aclOpExecutor** executor) {
  if (dim != 1000) {  // CANN's value for "no dim": the flattened self
    return ascendc_sim::RaiseError(ACLNN_ERR_PARAM_INVALID,
                                   "aclnnUniqueConsecutive: only the flattened self (dim 1000) is supported, got %lld",
                                   static_cast<long long>(dim));
  }
  return UniqueWorkspace("aclnnUniqueConsecutive", self, true, returnInverse, returnCounts, y, yInverse, yCounts,
                         workspaceSize, executor);
}

aclnnStatus aclnnUniqueConsecutive(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                   aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnUniqueConsecutive", workspace, workspaceSize, executor, stream);
}

}  // extern "C"
