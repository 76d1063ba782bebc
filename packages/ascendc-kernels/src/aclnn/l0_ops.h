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

class ExecutorBuilder {
 public:
  explicit ExecutorBuilder(const char* api);
  ~ExecutorBuilder();
  ExecutorBuilder(const ExecutorBuilder&) = delete;
  ExecutorBuilder& operator=(const ExecutorBuilder&) = delete;

  // `t` viewed as a dense `shape` (numpy broadcasting) of `dtype`.
  DenseBuffer Input(const aclTensor* t, const char* name, const std::vector<int64_t>& shape, aclDataType dtype);
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

  // Writes out the pending output copies, then hands the executor over.
  aclnnStatus Finish(uint64_t* workspaceSize, aclOpExecutor** executor);

 private:
  void UseDeviceMemory(const char* name, const aclTensor* t);
  kernels::ViewLayout Layout(const aclTensor* t, const std::vector<int64_t>& shape) const;

  aclOpExecutor* executor_;
  std::vector<std::function<void()>> pendingOutputs_;
};

}  // namespace aclnn
}  // namespace ascendc_sim

#endif  // ASCENDC_SIM_ACLNN_L0_OPS_H
