// aclnnAll: the reduced dimensions of self are moved innermost (a permuted
// view, strided or dense); the exact row kernel reduce_exact_custom reads self
// in place, as it is, and gives 1 for a row without zeros (NaN is not zero) as
// int64, which out (bool or uint8) receives through the output view-copy: the
// extra device memory is the output's. The all of no elements is true.
#include "aclnnop/aclnn_all.h"

#include <algorithm>
#include <vector>

#include "aclnn/aclnn_common.h"
#include "aclnn/l0_ops.h"
#include "common/dtype.h"
#include "common/error.h"
#include "kernels/kernel_api.h"
#include "meta/executor.h"

namespace ascendc_sim {
namespace aclnn {
namespace {

aclnnStatus AllWorkspace(const aclTensor* self, const aclIntArray* dims, bool keepdim, const aclTensor* out,
                         uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnAll";
  aclnnStatus rc;
  if ((rc = CheckNotNull(api, self, "self")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, dims, "dim")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, out, "out")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, workspaceSize, "workspaceSize")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, executor, "executor")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, self, "self", kAllDtypes)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, out, "out", {ACL_BOOL, ACL_UINT8})) != ACLNN_SUCCESS) return rc;
  const int64_t rank = static_cast<int64_t>(self->viewDims.size());
  std::vector<bool> reduced(static_cast<size_t>(rank), dims->values.empty());
  std::vector<bool> named(static_cast<size_t>(rank), false);
  for (int64_t d : dims->values) {
    const int64_t span = rank == 0 ? 1 : rank;
    if (d < -span || d >= span) {
      return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: dim %lld is out of range for a %lld-D self", api,
                        static_cast<long long>(d), static_cast<long long>(rank));
    }
    if (rank == 0) continue;
    const size_t k = static_cast<size_t>(d < 0 ? d + rank : d);
    if (named[k]) return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: dim %zu appears more than once", api, k);
    named[k] = reduced[k] = true;
  }
  // Permuted view (kept dimensions, then reduced ones) and the expected out shape.
  aclTensor view = *self;
  view.viewDims.clear();
  view.strides.clear();
  std::vector<int64_t> expected;
  uint64_t rows = 1, cols = 1;
  const size_t keptDims = static_cast<size_t>(std::count(reduced.begin(), reduced.end(), false));
  for (int pass = 0; pass < 2; ++pass) {
    for (size_t k = 0; k < static_cast<size_t>(rank); ++k) {
      if (reduced[k] != (pass == 1)) continue;
      view.viewDims.push_back(self->viewDims[k]);
      view.strides.push_back(self->strides[k]);
      (pass == 0 ? rows : cols) *= static_cast<uint64_t>(self->viewDims[k]);
    }
  }
  for (size_t k = 0; k < static_cast<size_t>(rank); ++k) {
    if (!reduced[k]) {
      expected.push_back(self->viewDims[k]);
    } else if (keepdim) {
      expected.push_back(1);
    }
  }
  if (out->viewDims != expected) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: out has shape %s, expected %s", api,
                      ShapeToString(out->viewDims).c_str(), ShapeToString(expected).c_str());
  }
  ExecutorBuilder plan(api);
  if (rows > 0) {
    const aclDataType yType = kernels::ExactReduceAccType(self->dtype, kernels::RowReduceOp::kAll);
    const DenseBuffer y = plan.Output(out, "out", yType);
    if (cols == 0) {
      plan.AddStep([y, rows, yType](uint8_t* ws, aclrtStream stream) {
        return kernels::LaunchFill(yType, y.Resolve(ws), rows, kernels::ScalarValue::Integral(1), stream);
      });
    } else {
      const aclDataType dtype = self->dtype;
      if (const auto strided = StridedRowsOf(view, keptDims)) {
        const DenseBuffer x = plan.Direct(self, "self");
        plan.AddStep([x, y, dtype, layout = *strided](uint8_t* ws, aclrtStream stream) {
          return kernels::LaunchStridedReduceExact(dtype, x.Resolve(ws), layout, y.Resolve(ws),
                                                   kernels::RowReduceOp::kAll, stream);
        });
      } else {
        const DenseBuffer x = plan.Input(&view, "self", view.viewDims, dtype);
        plan.AddStep([x, y, dtype, rows, cols](uint8_t* ws, aclrtStream stream) {
          return kernels::LaunchRowReduceExact(dtype, x.Resolve(ws), y.Resolve(ws), rows, cols,
                                               kernels::RowReduceOp::kAll, stream);
        });
      }
    }
  }
  return plan.Finish(workspaceSize, executor);
}

}  // namespace
}  // namespace aclnn
}  // namespace ascendc_sim

extern "C" {

aclnnStatus aclnnAllGetWorkspaceSize(const aclTensor* self, const aclIntArray* dim, bool keepdim, aclTensor* out,
                                     uint64_t* workspaceSize, aclOpExecutor** executor) {
  return ascendc_sim::aclnn::AllWorkspace(self, dim, keepdim, out, workspaceSize, executor);
}

aclnnStatus aclnnAll(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnAll", workspace, workspaceSize, executor, stream);
}

}  // extern "C"
