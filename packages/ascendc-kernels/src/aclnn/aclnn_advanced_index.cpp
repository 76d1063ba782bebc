// aclnnIndex, aclnnIndexPutImpl, aclnnTake and aclnnInplacePut over the advanced
// indexing kernel advanced_index_custom: self is read (or, for the puts, updated) as a
// dense tile; each index tensor is view-copied to a dense int64 tile of the indices'
// broadcast shape; values are broadcast to the indexing result's shape.
#include "aclnnop/aclnn_index.h"
#include "aclnnop/aclnn_index_put_impl.h"
#include "aclnnop/aclnn_put.h"
#include "aclnnop/aclnn_take.h"

#include <vector>

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

const std::initializer_list<aclDataType> kIndexDtypes = {ACL_INT32, ACL_INT64};

aclnnStatus CheckPointers(const char* api, uint64_t* workspaceSize, aclOpExecutor** executor) {
  aclnnStatus rc;
  if ((rc = CheckNotNull(api, workspaceSize, "workspaceSize")) != ACLNN_SUCCESS) return rc;
  return CheckNotNull(api, executor, "executor");
}

bool IsIndexDtype(aclDataType t) { return t == ACL_INT32 || t == ACL_INT64; }

// The indexing of self by `indices`: the result's shape and the kernel's mapping.
struct IndexPlan {
  k::AdvancedIndexArgs args;
  std::vector<int64_t> outShape, broadcast;
  std::vector<const aclTensor*> indexTensors;
};

aclnnStatus PlanIndexing(const char* api, const aclTensor* self, const aclTensorList* indices, IndexPlan* plan) {
  const size_t rank = self->viewDims.size();
  if (indices->tensors.size() > rank) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: too many indices for a tensor of dimension %zu (got %zu)", api,
                      rank, indices->tensors.size());
  }
  std::vector<int32_t> positions;
  std::vector<int64_t> b;
  for (size_t d = 0; d < indices->tensors.size(); ++d) {
    const aclTensor* t = indices->tensors[d];
    if (t == nullptr || (t->Numel() == 0 && !IsIndexDtype(t->dtype))) continue;  // None
    aclnnStatus rc;
    if ((rc = CheckTensor(api, t, "indices", kIndexDtypes)) != ACLNN_SUCCESS) return rc;
    std::vector<int64_t> next;
    if (!positions.empty() && !BroadcastShapes(b, t->viewDims, &next)) {
      return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: indexing tensors could not be broadcast together (%s and %s)",
                        api, ShapeToString(b).c_str(), ShapeToString(t->viewDims).c_str());
    }
    b = positions.empty() ? t->viewDims : next;
    positions.push_back(static_cast<int32_t>(d));
    plan->indexTensors.push_back(t);
  }
  if (positions.empty()) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: at least one index tensor must be defined", api);
  }
  k::AdvancedIndexArgs& a = plan->args;
  a.dtype = self->dtype;
  std::vector<int64_t> shape;
  if (!k::PlanAdvancedIndex(self->viewDims, positions, b, &a, &shape)) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: the indexing result of %s by %zu indices over %s has more than %d "
                      "dimensions", api, ShapeToString(self->viewDims).c_str(), positions.size(),
                      ShapeToString(b).c_str(), k::kMaxViewDims);
  }
  plan->outShape = shape;
  plan->broadcast = b;
  return ACLNN_SUCCESS;
}

// Adds the index tiles and the kernel step; `self`, `values` and `out` are resolved per launch.
void AddIndexStep(ExecutorBuilder& plan, const IndexPlan& ip, const DenseBuffer& self, const DenseBuffer& values,
                  const DenseBuffer& out) {
  std::vector<DenseBuffer> tiles;
  for (const aclTensor* t : ip.indexTensors) tiles.push_back(plan.Input(t, "indices", ip.broadcast, ACL_INT64));
  const k::AdvancedIndexArgs shape = ip.args;
  plan.AddStep([shape, tiles, self, values, out](uint8_t* ws, aclrtStream stream) {
    k::AdvancedIndexArgs args = shape;
    for (size_t j = 0; j < tiles.size(); ++j) args.indices[j] = tiles[j].Resolve(ws);
    args.self = self.Resolve(ws);
    args.values = values.dtype == ACL_DT_UNDEFINED ? nullptr : values.Resolve(ws);
    args.out = out.dtype == ACL_DT_UNDEFINED ? nullptr : out.Resolve(ws);
    return k::LaunchAdvancedIndex(args, stream);
  });
}

// A dense buffer holding selfRef's values that the kernel updates in place (selfRef
// itself when dense, else a workspace copy that Finish writes back).
DenseBuffer InOut(ExecutorBuilder& plan, const aclTensor* self) {
  const DenseBuffer y = plan.Output(self, "selfRef", self->dtype);
  if (y.workspaceOffset >= 0) {
    const DenseBuffer x = plan.Input(self, "selfRef", self->viewDims, self->dtype);
    k::ViewCopyArgs copy;
    copy.ndim = 1;
    copy.shape[0] = self->Numel();
    copy.src.dtype = copy.dst.dtype = self->dtype;
    copy.src.strides[0] = copy.dst.strides[0] = 1;
    plan.AddStep([copy, x, y](uint8_t* ws, aclrtStream stream) mutable {
      copy.src.data = x.Resolve(ws);
      copy.dst.data = y.Resolve(ws);
      return k::LaunchViewCopy(copy, stream);
    });
  }
  return y;
}

aclnnStatus IndexWorkspace(const aclTensor* self, const aclTensorList* indices, aclTensor* out,
                           uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnIndex";
  aclnnStatus rc;
  if ((rc = CheckNotNull(api, self, "self")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, indices, "indices")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, out, "out")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckPointers(api, workspaceSize, executor)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, self, "self", kAllDtypes)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, out, "out", kAllDtypes)) != ACLNN_SUCCESS) return rc;
  IndexPlan ip;
  if ((rc = PlanIndexing(api, self, indices, &ip)) != ACLNN_SUCCESS) return rc;
  if (out->viewDims != ip.outShape || out->dtype != self->dtype) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: out must be %s of self's dtype %s, got %s of %s", api,
                      ShapeToString(ip.outShape).c_str(), DataTypeName(self->dtype),
                      ShapeToString(out->viewDims).c_str(), DataTypeName(out->dtype));
  }
  ExecutorBuilder plan(api);
  if (out->Numel() > 0) {
    if (self->Numel() == 0) {
      return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: cannot index an empty self", api);
    }
    ip.args.op = "index";
    const DenseBuffer x = plan.Input(self, "self", self->viewDims, self->dtype);
    const DenseBuffer y = plan.Output(out, "out", self->dtype);
    AddIndexStep(plan, ip, x, DenseBuffer{}, y);
  }
  return plan.Finish(workspaceSize, executor);
}

aclnnStatus IndexPutWorkspace(aclTensor* self, const aclTensorList* indices, const aclTensor* values,
                              bool accumulate, uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnIndexPutImpl";
  aclnnStatus rc;
  if ((rc = CheckNotNull(api, self, "selfRef")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, indices, "indices")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, values, "values")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckPointers(api, workspaceSize, executor)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, self, "selfRef", kAllDtypes)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, values, "values", kAllDtypes)) != ACLNN_SUCCESS) return rc;
  IndexPlan ip;
  if ((rc = PlanIndexing(api, self, indices, &ip)) != ACLNN_SUCCESS) return rc;
  if (values->dtype != self->dtype || !BroadcastsTo(values->viewDims, ip.outShape)) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID,
                      "%s: values (%s of %s) must have selfRef's dtype %s and broadcast to the indexing result %s",
                      api, ShapeToString(values->viewDims).c_str(), DataTypeName(values->dtype),
                      DataTypeName(self->dtype), ShapeToString(ip.outShape).c_str());
  }
  int64_t n = 1;
  for (int64_t d : ip.outShape) n *= d;
  ExecutorBuilder plan(api);
  if (n > 0 && self->Numel() > 0) {
    ip.args.op = "index_put";
    ip.args.put = true;
    ip.args.accumulate = accumulate;
    const DenseBuffer v = plan.Input(values, "values", ip.outShape, self->dtype);
    const DenseBuffer y = InOut(plan, self);
    AddIndexStep(plan, ip, y, v, DenseBuffer{});
  }
  return plan.Finish(workspaceSize, executor);
}

// take / put: self read as 1-D, one index tensor of any shape.
aclnnStatus FlatWorkspace(const char* api, const aclTensor* self, const aclTensor* index, const aclTensor* source,
                          bool put, bool accumulate, aclTensor* out, uint64_t* workspaceSize,
                          aclOpExecutor** executor) {
  const char* selfName = put ? "selfRef" : "self";
  aclnnStatus rc;
  if ((rc = CheckNotNull(api, self, selfName)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, index, "index")) != ACLNN_SUCCESS) return rc;
  if (put && (rc = CheckNotNull(api, source, "source")) != ACLNN_SUCCESS) return rc;
  if (!put && (rc = CheckNotNull(api, out, "out")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckPointers(api, workspaceSize, executor)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, self, selfName, kAllDtypes)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, index, "index", kIndexDtypes)) != ACLNN_SUCCESS) return rc;
  const std::vector<int64_t> indexShape = index->viewDims;
  if (put) {
    if ((rc = CheckTensor(api, source, "source", kAllDtypes)) != ACLNN_SUCCESS) return rc;
    if (source->dtype != self->dtype || source->Numel() != index->Numel()) {
      return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: source must have selfRef's dtype %s and index's %lld elements",
                        api, DataTypeName(self->dtype), static_cast<long long>(index->Numel()));
    }
  } else {
    if ((rc = CheckTensor(api, out, "out", kAllDtypes)) != ACLNN_SUCCESS) return rc;
    if (out->viewDims != indexShape || out->dtype != self->dtype) {
      return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: out must be index's shape %s of self's dtype %s", api,
                        ShapeToString(indexShape).c_str(), DataTypeName(self->dtype));
    }
  }
  if (indexShape.size() > static_cast<size_t>(k::kMaxViewDims)) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: index has more than %d dimensions", api, k::kMaxViewDims);
  }
  ExecutorBuilder plan(api);
  if (index->Numel() > 0) {
    if (self->Numel() == 0) {
      return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: cannot %s an empty %s", api, put ? "put into" : "take from",
                        selfName);
    }
    IndexPlan ip;
    k::AdvancedIndexArgs& a = ip.args;
    a.dtype = self->dtype;
    a.ndim = a.bRank = static_cast<int32_t>(indexShape.size());
    a.count = 1;
    for (size_t d = 0; d < indexShape.size(); ++d) a.shape[d] = indexShape[d];
    a.indexSelfStride[0] = 1;
    a.indexDimSize[0] = self->Numel();
    a.op = put ? "put_" : "take";
    a.put = put;
    a.accumulate = accumulate;
    ip.broadcast = indexShape;
    ip.indexTensors.push_back(index);
    const std::vector<int64_t> flat{self->Numel()};
    if (put) {
      const DenseBuffer v = plan.InputReshaped(source, "source", indexShape, self->dtype);
      const DenseBuffer y = InOut(plan, self);
      AddIndexStep(plan, ip, y, v, DenseBuffer{});
    } else {
      const DenseBuffer x = plan.InputReshaped(self, "self", flat, self->dtype);
      const DenseBuffer y = plan.Output(out, "out", self->dtype);
      AddIndexStep(plan, ip, x, DenseBuffer{}, y);
    }
  }
  return plan.Finish(workspaceSize, executor);
}

}  // namespace
}  // namespace aclnn
}  // namespace ascendc_sim

using namespace ascendc_sim::aclnn;

extern "C" {

aclnnStatus aclnnIndexGetWorkspaceSize(const aclTensor* self, const aclTensorList* indices, aclTensor* out,
                                       uint64_t* workspaceSize, aclOpExecutor** executor) {
  return IndexWorkspace(self, indices, out, workspaceSize, executor);
}

aclnnStatus aclnnIndex(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnIndex", workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnIndexPutImplGetWorkspaceSize(aclTensor* selfRef, const aclTensorList* indices,
                                              const aclTensor* values, bool accumulate, bool unsafe,
                                              uint64_t* workspaceSize, aclOpExecutor** executor) {
  (void)unsafe;  // indices are always checked by the kernel
  return IndexPutWorkspace(selfRef, indices, values, accumulate, workspaceSize, executor);
}

aclnnStatus aclnnIndexPutImpl(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnIndexPutImpl", workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnTakeGetWorkspaceSize(const aclTensor* self, const aclTensor* index, aclTensor* out,
                                      uint64_t* workspaceSize, aclOpExecutor** executor) {
  return FlatWorkspace("aclnnTake", self, index, nullptr, false, false, out, workspaceSize, executor);
}

aclnnStatus aclnnTake(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnTake", workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnInplacePutGetWorkspaceSize(aclTensor* selfRef, const aclTensor* index, const aclTensor* source,
                                            bool accumulate, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return FlatWorkspace("aclnnInplacePut", selfRef, index, source, true, accumulate, nullptr, workspaceSize,
                       executor);
}

aclnnStatus aclnnInplacePut(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnInplacePut", workspace, workspaceSize, executor, stream);
}

}  // extern "C"
