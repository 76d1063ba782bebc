// Host entry points of the indexing, factory, convolution and pooling kernels
// (index_select, embedding backward, arange, im2col/col2im over 1-3 spatial dims, max_pool2d). Each
// computes its tiling from the problem size and the core count and queues the
// kernel on `stream`; nothing is queued for an empty problem. Pointers are
// device memory; every tensor is dense row-major.
#ifndef ASCENDC_SIM_KERNELS_INDEX_KERNEL_API_H
#define ASCENDC_SIM_KERNELS_INDEX_KERNEL_API_H

#include <stdint.h>

#include <vector>

#include "acl/acl_base.h"
#include "common/visibility.h"
#include "kernels/kernel_api.h"
#include "kernels/philox_args.h"

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

// linspace (log false) / logspace (log true: base ** v): y[i] for i < steps of the
// sequence from start to end, v(i) = i < steps / 2 ? start + step * i : end - step *
// (steps - 1 - i), step = (end - start) / (steps - 1) (see sequence_kernel.cpp for
// the arithmetic per type). Not bool. With `positions` (steps values of y's dtype), position
// positions[i] takes the place of i in v (the index itself where it holds 0, 1, ..., steps - 1).
ASCENDC_SIM_INTERNAL_API aclError LaunchSequence(aclDataType dtype, void* y, int64_t steps, double start, double end,
                                                 bool log, double base, aclrtStream stream,
                                                 const void* positions = nullptr);

// The geometry of a convolution or pooling window over x [batch, channels, d, h, w]
// with outputs [outD, outH, outW]. 1-D and 2-D problems leave the depth fields (and
// h's for 1-D) at their defaults; max_pool2d reads only the 2-D fields.
struct WindowGeometry {
  int64_t batch = 0, channels = 0, h = 0, w = 0;
  int64_t kh = 1, kw = 1, sh = 1, sw = 1, ph = 0, pw = 0, dh = 1, dw = 1;
  int64_t outH = 0, outW = 0;
  int64_t d = 1, kd = 1, sd = 1, pd = 0, dd = 1, outD = 1;
};

// im2col ("vol2col" with depth) for `groups` groups of channels / groups input
// channels each (Kg = channels / groups * kd * kh * kw rows per group, row r = ((c *
// kd + a) * kh + i) * kw + j; L = outD * outH * outW columns; padding reads as 0).
// Layout kRows: col [batch, groups, Kg + ones, L] (ones: one extra row of 1 per
// group, for a bias column of the weight). Layout kTransposed: col [groups, batch,
// L, Kg] (rows of the matmul computing the weight gradient).
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

// col2im: x [batch, channels, d, h, w] (float32) = the sum of the col [batch, channels
// * kd * kh * kw, L] entries (of `dtype`) that im2col (kRows, no ones row) reads from
// each element, plus bias[channel] when `bias` (float32 [channels]) is given. Each
// element's sum runs in float32, in (a, i, j) kernel order, the bias added last.
struct Col2imArgs {
  aclDataType dtype = ACL_DT_UNDEFINED;
  WindowGeometry g;
  const void* col = nullptr;
  const float* bias = nullptr;
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
// kScatterReduce: self at the index = reduce(self, src values) (reduce below; src,
// or `value` when src is null); without includeSelf the positions the index hits
// start from the reduction's identity; kMean divides by the number of values
// (plus one with includeSelf; integral types round down), counted into `counts`
// (self's numel of int64 scratch, zeroed by the caller; needed for kMean only).
// indexAlongDim: index is a vector of indexShape[dim] entries used for every
// position of the line (index_reduce); indexShape is then the source's shape.
constexpr int kMaxGatherDims = 8;
enum class GatherScatterMode { kGather, kScatter, kScatterAdd, kScatterValue, kScatterReduce };
// kReplace: the last value wins (index_copy, index_fill).
enum class ScatterReduceOp { kSum, kProd, kMean, kMax, kMin, kReplace };
struct GatherScatterArgs {
  GatherScatterMode mode = GatherScatterMode::kGather;
  ScatterReduceOp reduce = ScatterReduceOp::kSum;
  bool includeSelf = true;
  bool indexAlongDim = false;
  bool wrapNegative = false;  // kScatterReduce: a negative index counts from the end (index_fill)
  void* counts = nullptr;
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

// out [outputSize] = i repeated repeats[i] times for repeats [count] (dense, ACL_INT32
// or ACL_INT64, out of the same dtype); negative repeats or another sum fail the kernel.
ASCENDC_SIM_INTERNAL_API aclError LaunchRepeatInterleave(aclDataType dtype, const void* repeats, int64_t count,
                                                         void* out, int64_t outputSize, aclrtStream stream);

// multinomial over the rows of prob [rows, n] (dense, ACL_FLOAT or ACL_DOUBLE): out
// [rows, samples] int64 category indices (sampling_kernel.cpp for the draws); scratch:
// MultinomialBlocks(rows) * n doubles. Invalid weights fail the kernel.
struct MultinomialArgs {
  aclDataType probType = ACL_FLOAT;
  int64_t rows = 0, n = 0, samples = 0;
  bool replacement = false;
  PhiloxArgs rng;
  const void* prob = nullptr;
  void* out = nullptr;
  void* scratch = nullptr;
};
ASCENDC_SIM_INTERNAL_API aclError LaunchMultinomial(const MultinomialArgs& args, aclrtStream stream);
ASCENDC_SIM_INTERNAL_API int64_t MultinomialBlocks(int64_t rows);
// out [n] (dtype: not bool) = a random permutation of 0..n-1; scratch: 2 * n int64.
ASCENDC_SIM_INTERNAL_API aclError LaunchRandperm(aclDataType dtype, void* out, void* scratch, int64_t n,
                                                 PhiloxArgs rng, aclrtStream stream);

// searchsorted (bucket_kernel.cpp): out [rows, perRow] (int64, or int32 with out32) =
// the insertion position of each value (values dense [rows, perRow], or [perRow] with
// sharedRow) in its row of `sorted` (dense [rows, n], [n] with sharedRow), both of
// dtype; `sorter` (optional, int64 like sorted) gives each row's order; `right`: after
// equal boundaries. NaN sorts last.
struct SearchSortedArgs {
  aclDataType dtype = ACL_FLOAT;
  int64_t rows = 1, n = 0, perRow = 0;
  bool sharedRow = true, right = false, out32 = false;
  const void* sorted = nullptr;
  const void* values = nullptr;
  const void* sorter = nullptr;
  void* out = nullptr;
};
ASCENDC_SIM_INTERNAL_API aclError LaunchSearchSorted(const SearchSortedArgs& args, aclrtStream stream);
// hist [bins] (x's dtype, floating) = the counts of x's n elements in the bins of
// [min, max] (edges: bins + 1 values of x's compute type, scratch).
ASCENDC_SIM_INTERNAL_API aclError LaunchHistc(aclDataType dtype, const void* x, int64_t n, void* hist, void* edges,
                                              int64_t bins, double min, double max, aclrtStream stream);

// unique (unique_kernel.cpp): y = the distinct values of x (dense, n elements of dtype)
// in ascending order (NaN last, each NaN distinct), or with `consecutive` the first of
// each run of equal neighbours; inverse (int64 [n], optional) = the group of each
// element, counts (int64 [n], optional) = the group sizes; total[0] = the number of
// groups. order: n int64 of scratch.
struct UniqueArgs {
  aclDataType dtype = ACL_FLOAT;
  int64_t n = 0;
  bool consecutive = false;
  const void* x = nullptr;
  void* y = nullptr;
  void* inverse = nullptr;
  void* counts = nullptr;
  void* order = nullptr;
  void* total = nullptr;
};
ASCENDC_SIM_INTERNAL_API aclError LaunchUnique(const UniqueArgs& args, aclrtStream stream);

// Advanced indexing (advanced_index_kernel.cpp): out (ndim dimensions of `shape`)
// reads self (dense) at sum(c_d * selfStrides[d]) plus, for each of the `count`
// index tensors (dense int64 of the broadcast shape, out's dimensions [bStart,
// bStart + bRank)), index_j[b] * indexSelfStride[j] (negative indices count from
// the end of indexDimSize[j]; outside fails the kernel naming `op`). put: self at
// those offsets = values (dense, out's shape), += with accumulate (float32
// arithmetic for 16-bit floats), in row-major order. Every kernel type.
struct AdvancedIndexArgs {
  aclDataType dtype = ACL_DT_UNDEFINED;
  bool put = false, accumulate = false;
  int32_t ndim = 0, bStart = 0, bRank = 0, count = 0;
  int64_t shape[kMaxViewDims] = {};
  int64_t selfStrides[kMaxViewDims] = {};
  const void* indices[kMaxViewDims] = {};
  int64_t indexSelfStride[kMaxViewDims] = {};
  int64_t indexDimSize[kMaxViewDims] = {};
  int32_t indexDim[kMaxViewDims] = {};
  void* self = nullptr;
  const void* values = nullptr;
  void* out = nullptr;
  const char* op = "index";
};
ASCENDC_SIM_INTERNAL_API aclError LaunchAdvancedIndex(const AdvancedIndexArgs& args, aclrtStream stream);
// The mapping of a dense self of `shape` indexed at the dimensions `positions` (ascending) by index
// tensors of the broadcast shape `broadcast`, as PyTorch lays the result out (adjacent indexed
// dimensions replaced in place by the broadcast ones, else the broadcast ones first): sets every
// field of *args but dtype, put, accumulate and the pointers, and *outShape; false when the
// result would have more than kMaxViewDims dimensions.
ASCENDC_SIM_INTERNAL_API bool PlanAdvancedIndex(const std::vector<int64_t>& shape, const std::vector<int32_t>& positions,
                                                const std::vector<int64_t>& broadcast, AdvancedIndexArgs* args,
                                                std::vector<int64_t>* outShape);

// Stream compaction over a dense bool `mask` of n elements (compress_kernel.cpp), in
// mask order: kCoordinates writes the row-major coordinates (of `shape`, ndim
// dimensions) of the true elements as int64 rows of out [limit, ndim]; kValues writes
// values[i] (of dtype) of the true elements into out [limit]; kExpand writes the
// next element of values (the source, `limit` elements) into out[i] for each true i
// (more true elements than limit fail the kernel naming `op`). Positions past limit
// are counted, not written. counts: kCompressMaxBlocks + 1 int64 of scratch; the
// number of true elements ends in counts[blocks], blocks = CompressBlocks(n).
constexpr int64_t kCompressMaxBlocks = 64;
enum class CompressMode { kCoordinates, kValues, kExpand };
struct CompressArgs {
  CompressMode mode = CompressMode::kCoordinates;
  aclDataType dtype = ACL_INT64;
  int64_t n = 0, limit = 0;
  int32_t ndim = 0;
  int64_t shape[kMaxViewDims] = {};
  const void* mask = nullptr;
  const void* values = nullptr;
  void* out = nullptr;
  void* counts = nullptr;
  const char* op = "nonzero";
};
ASCENDC_SIM_INTERNAL_API aclError LaunchCompress(const CompressArgs& args, aclrtStream stream);
// The slot of counts that holds the total after LaunchCompress of n elements.
ASCENDC_SIM_INTERNAL_API int64_t CompressTotalSlot(int64_t n);

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
