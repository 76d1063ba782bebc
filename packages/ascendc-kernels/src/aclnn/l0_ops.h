// Builds an aclOpExecutor out of the aclnn "l0" steps: operands are brought
// into dense tiles of the compute dtype in the workspace (view-copy with
// broadcast strides and dtype conversion) unless they already are dense with
// the right dtype and shape; the dense Ascend C kernel runs; a non-contiguous
// or differently typed output is written back by a final view-copy.
#ifndef ASCENDC_SIM_ACLNN_L0_OPS_H
#define ASCENDC_SIM_ACLNN_L0_OPS_H

#include <stdint.h>

#include <functional>
#include <string>
#include <vector>

#include <optional>

#include "kernels/kernel_api.h"
#include "meta/acl_meta_types.h"

namespace ascendc_sim {
namespace aclnn {

// A dense operand: a tensor's own memory, or a region of the workspace.
struct DenseBuffer {
  void* direct = nullptr;      // tensor memory (when workspaceOffset < 0)
  int64_t workspaceOffset = -1;
  aclDataType dtype = ACL_DT_UNDEFINED;

  void* Resolve(uint8_t* workspace) const {
    return workspaceOffset < 0 ? direct : static_cast<void*>(workspace + workspaceOffset);
  }
};

// A reduction's permuted view of self (its `keptDims` kept dimensions, then the
// reduced ones) as the strided rows a kernel reads in place; nullopt when the view
// is dense (a kernel reads it as rows x cols) or has no reduced dimension.
std::optional<kernels::StridedRows> StridedRowsOf(const aclTensor& view, size_t keptDims);

class ExecutorBuilder {
 public:
  explicit ExecutorBuilder(const char* api);
  ~ExecutorBuilder();
  ExecutorBuilder(const ExecutorBuilder&) = delete;
  ExecutorBuilder& operator=(const ExecutorBuilder&) = delete;

  // `t` viewed as a dense `shape` (numpy broadcasting) of `dtype`.
  // A `t` whose shape does not broadcast to `shape` makes Finish() fail naming both.
  DenseBuffer Input(const aclTensor* t, const char* name, const std::vector<int64_t>& shape, aclDataType dtype);
  // `t`'s elements in row-major order, read as a dense `shape` of the same
  // number of elements (a reshape, not a broadcast).
  DenseBuffer InputReshaped(const aclTensor* t, const char* name, const std::vector<int64_t>& shape,
                            aclDataType dtype);
  // Where a kernel producing `out` in `dtype` writes: out itself when it is
  // dense with that dtype, else a workspace tile that Finish() copies into out.
  DenseBuffer Output(const aclTensor* out, const char* name, aclDataType dtype);
  // `t`'s own memory from its view start, as it is laid out (the caller checked
  // the layout, e.g. the transpose of a dense matrix that a kernel reads as stored).
  DenseBuffer Direct(const aclTensor* t, const char* name);
  // A workspace region of `elements` of `dtype`.
  DenseBuffer Scratch(int64_t elements, aclDataType dtype);
  // A view-copy from `src` (a tensor view broadcast to dst's shape) into `dst`.
  void CopyView(const aclTensor* src, const char* srcName, const aclTensor* dst, const char* dstName);
  // A view-copy from a dense buffer of `srcShape` broadcast (stride 0 where
  // srcShape has 1) into the view `dst`.
  void CopyDenseToView(const DenseBuffer& src, const std::vector<int64_t>& srcShape, const aclTensor* dst,
                       const char* dstName);

  // A kernel step; `launch` receives the workspace and the stream.
  void AddStep(AclnnStep launch);

  // Writes out the pending output copies, then hands the executor over; fails
  // (ACLNN_ERR_PARAM_INVALID, naming the operand) when a step asked for a view
  // its operand cannot have.
  aclnnStatus Finish(uint64_t* workspaceSize, aclOpExecutor** executor);

 private:
  // False (and the reason kept for Finish) unless `from` broadcasts to `shape`.
  bool CheckViewable(const char* name, const std::vector<int64_t>& from, const std::vector<int64_t>& shape);
  void UseDeviceMemory(const char* name, const aclTensor* t);
  kernels::ViewLayout Layout(const aclTensor* t, const std::vector<int64_t>& shape) const;

  const char* api_;
  aclOpExecutor* executor_;
  std::string error_;  // the first impossible view asked for
  std::vector<std::function<void()>> pendingOutputs_;
};

}  // namespace aclnn
}  // namespace ascendc_sim

#endif  // ASCENDC_SIM_ACLNN_L0_OPS_H
