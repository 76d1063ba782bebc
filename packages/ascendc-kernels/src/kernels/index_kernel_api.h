// Host entry points of the indexing, factory, convolution and pooling kernels
// (index_select, embedding backward, arange, im2col/col2im, max_pool2d). Each
// computes its tiling from the problem size and the core count and queues the
// kernel on `stream`; nothing is queued for an empty problem. Pointers are
// device memory; every tensor is dense row-major.
#ifndef ASCENDC_SIM_KERNELS_INDEX_KERNEL_API_H
#define ASCENDC_SIM_KERNELS_INDEX_KERNEL_API_H

#include <stdint.h>

#include "acl/acl_base.h"
#include "common/visibility.h"
#include "kernels/kernel_api.h"

namespace ascendc_sim {
namespace kernels {

// y[o, j, i] = x[o, index[j], i] for x [outer, dimSize, inner] and index [count]
// (ACL_INT32 or ACL_INT64). An index outside [0, dimSize) fails the kernel with a
// message naming `op`. Every kernel type.
struct IndexSelectArgs {
  aclDataType dtype = ACL_DT_UNDEFINED;
  aclDataType indexDtype = ACL_INT64;
  int64_t outer = 0, dimSize = 0, inner = 0, count = 0;
  const void* x = nullptr;
  const void* index = nullptr;
  void* y = nullptr;
  const char* op = "index_select";
};
ASCENDC_SIM_INTERNAL_API aclError LaunchIndexSelect(const IndexSelectArgs& args, aclrtStream stream);

// gradWeight [numWeights, dim] (float32) = sum over i with indices[i] == w of
// grad[i, :] (grad of `dtype`: float32, float16, bfloat16), skipping
// indices[i] == paddingIdx; with scaleGradByFreq each row is divided by the
// number of its occurrences (counted into `counts`, numWeights float32 of
// scratch, needed only then). An index outside [0, numWeights) fails the kernel.
struct EmbeddingBackwardArgs {
  aclDataType dtype = ACL_DT_UNDEFINED;
  aclDataType indexDtype = ACL_INT64;
  int64_t numIndices = 0, numWeights = 0, dim = 0, paddingIdx = -1;
  bool scaleGradByFreq = false;
  const void* grad = nullptr;
  const void* indices = nullptr;
  void* counts = nullptr;
  void* gradWeight = nullptr;
};
ASCENDC_SIM_INTERNAL_API aclError LaunchEmbeddingDenseBackward(const EmbeddingBackwardArgs& args,
                                                               aclrtStream stream);

// y[i] = start + i * step for i < n, computed in double (floating dtypes) or
// int64 (integral dtypes) and converted to `dtype`. Not bool.
ASCENDC_SIM_INTERNAL_API aclError LaunchArange(aclDataType dtype, void* y, uint64_t n, double startF, double stepF,
                                               int64_t startI, int64_t stepI, aclrtStream stream);

// The geometry of a 2-D convolution or pooling window over x [batch, channels, h, w]
// with outputs [outH, outW].
struct WindowGeometry {
  int64_t batch = 0, channels = 0, h = 0, w = 0;
  int64_t kh = 1, kw = 1, sh = 1, sw = 1, ph = 0, pw = 0, dh = 1, dw = 1;
  int64_t outH = 0, outW = 0;
};

// im2col for `groups` groups of channels / groups input channels each (Kg =
// channels / groups * kh * kw rows per group, L = outH * outW columns; padding
// reads as 0). Layout kRows: col [batch, groups, Kg + ones, L] (ones: one extra
// row of 1 per group, for a bias column of the weight). Layout kTransposed: col
// [groups, batch, L, Kg] (rows of the matmul computing the weight gradient).
// float32, float16, bfloat16.
enum class Im2colLayout { kRows, kTransposed };
struct Im2colArgs {
  aclDataType dtype = ACL_DT_UNDEFINED;
  WindowGeometry g;
  int64_t groups = 1;
  bool ones = false;
  Im2colLayout layout = Im2colLayout::kRows;
  const void* x = nullptr;
  void* col = nullptr;
};
ASCENDC_SIM_INTERNAL_API aclError LaunchIm2col(const Im2colArgs& args, aclrtStream stream);

// col2im: x [batch, channels, h, w] (float32) = the sum of the col [batch, channels * kh * kw, L]
// entries (of `dtype`) that im2col (kRows, no ones row) reads from each element.
struct Col2imArgs {
  aclDataType dtype = ACL_DT_UNDEFINED;
  WindowGeometry g;
  const void* col = nullptr;
  void* x = nullptr;
};
ASCENDC_SIM_INTERNAL_API aclError LaunchCol2im(const Col2imArgs& args, aclrtStream stream);

// max_pool2d over x [batch, channels, h, w] (padding reads as -inf; NaN wins):
// y [batch, channels, outH, outW] and int64 indices (h * w + col within the plane),
// float32, float16, bfloat16, double.
ASCENDC_SIM_INTERNAL_API aclError LaunchMaxPool2d(aclDataType dtype, const WindowGeometry& g, const void* x, void* y,
                                                  void* indices, aclrtStream stream);
// gradInput [batch, channels, h, w] (float32) = the sum of gradOutput (of `dtype`)
// over the outputs whose index selected each element. An index outside the plane
// fails the kernel.
ASCENDC_SIM_INTERNAL_API aclError LaunchMaxPool2dBackward(aclDataType dtype, const WindowGeometry& g,
                                                          const void* gradOutput, const void* indices,
                                                          void* gradInput, aclrtStream stream);

// torch.gather / scatter / scatter_add along `dim` (ndim dimensions, all dense
// row-major): index (int32/int64) of indexShape; kGather: out (indexShape) =
// self (selfShape) at the index; kScatter/kScatterAdd: self at the index =/+= src
// (srcShape); kScatterValue: self at the index = value. index.size(d) <= the other
// operands' size(d) (for self: d != dim). An index outside [0, selfShape[dim])
// fails the kernel naming `op`. Every kernel type.
constexpr int kMaxGatherDims = 8;
enum class GatherScatterMode { kGather, kScatter, kScatterAdd, kScatterValue };
struct GatherScatterArgs {
  GatherScatterMode mode = GatherScatterMode::kGather;
  aclDataType dtype = ACL_DT_UNDEFINED;
  aclDataType indexDtype = ACL_INT64;
  int32_t ndim = 1, dim = 0;
  int64_t indexShape[kMaxGatherDims] = {};
  int64_t selfShape[kMaxGatherDims] = {};
  int64_t srcShape[kMaxGatherDims] = {};
  ScalarValue value;
  void* self = nullptr;
  const void* index = nullptr;
  const void* src = nullptr;
  void* out = nullptr;
  const char* op = "gather";
};
ASCENDC_SIM_INTERNAL_API aclError LaunchGatherScatter(const GatherScatterArgs& args, aclrtStream stream);

// self [outer, dimSize, inner] rows index[k] += alpha * source [outer, count, inner]
// rows k (k in index order; float32 arithmetic for 16-bit floats). Every kernel type.
struct IndexAddArgs {
  aclDataType dtype = ACL_DT_UNDEFINED;
  aclDataType indexDtype = ACL_INT64;
  int64_t outer = 0, dimSize = 0, inner = 0, count = 0;
  ScalarValue alpha;
  void* self = nullptr;
  const void* index = nullptr;
  const void* source = nullptr;
};
ASCENDC_SIM_INTERNAL_API aclError LaunchIndexAdd(const IndexAddArgs& args, aclrtStream stream);

}  // namespace kernels
}  // namespace ascendc_sim

#endif  // ASCENDC_SIM_KERNELS_INDEX_KERNEL_API_H
