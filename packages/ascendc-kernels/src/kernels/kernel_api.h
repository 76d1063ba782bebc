// Host entry points of the simulator's own Ascend C kernels. Each computes its
// tiling and queues the kernel on `stream` (nothing is queued for 0 elements).
// All pointers are device memory. Used by the acl_op executor and by libopapi.
#ifndef ASCENDC_SIM_KERNELS_KERNEL_API_H
#define ASCENDC_SIM_KERNELS_KERNEL_API_H

#include <stdint.h>

#include <vector>

#include "acl/acl_base.h"
#include "common/visibility.h"
#include "kernels/philox_args.h"

namespace ascendc_sim {
namespace kernels {

// A scalar operand (alpha, fill value), converted to the kernel's type on use.
struct ScalarValue {
  bool isFloating = false;
  double f = 0.0;
  int64_t i = 0;

  static ScalarValue Floating(double v) {
    ScalarValue s;
    s.isFloating = true;
    s.f = v;
    // NaN, an infinity or a value past int64 has no integral value (the cast would be undefined).
    s.i = v > -9.2e18 && v < 9.2e18 ? static_cast<int64_t>(v) : 0;
    return s;
  }
  static ScalarValue Integral(int64_t v) {
    ScalarValue s;
    s.isFloating = false;
    s.i = v;
    s.f = static_cast<double>(v);
    return s;
  }
};

// `s` as a tensor of `dtype` stores it: a floating value rounded to float16/bfloat16 for those dtypes (ATen's
// add and sub take alpha in the tensor's dtype, then compute in float32), else `s` unchanged.
ASCENDC_SIM_INTERNAL_API ScalarValue StoredAs(aclDataType dtype, ScalarValue s);

// The elementwise operators (add, mul, abs, muls, clamp_min, ...) are op codes of one kernel:
// kernels/elementwise_api.h. Fill and cast move data rather than compute on it:
// y = value
ASCENDC_SIM_INTERNAL_API aclError LaunchFill(aclDataType dtype, void* y, uint64_t n, ScalarValue value,
                                             aclrtStream stream);
// y = cast(x); same types: a copy.
ASCENDC_SIM_INTERNAL_API aclError LaunchCast(aclDataType srcType, const void* x, aclDataType dstType, void* y,
                                             uint64_t n, aclrtStream stream);

// Random kernels (kernels/philox.h): element i draws from Philox block i of
// (rng.seed, rng.offset). Uniform and normal: float, float16, bfloat16, double;
// Bernoulli: every kernel type (1 with probability p, else 0).
ASCENDC_SIM_INTERNAL_API aclError LaunchUniform(aclDataType dtype, void* y, uint64_t n, double from, double to,
                                                PhiloxArgs rng, aclrtStream stream);
ASCENDC_SIM_INTERNAL_API aclError LaunchNormal(aclDataType dtype, void* y, uint64_t n, double mean, double std,
                                               PhiloxArgs rng, aclrtStream stream);
ASCENDC_SIM_INTERNAL_API aclError LaunchBernoulli(aclDataType dtype, void* y, uint64_t n, double p, PhiloxArgs rng,
                                                  aclrtStream stream);
// Per-element probabilities `prob` (dense, n elements of ACL_FLOAT or ACL_DOUBLE).
ASCENDC_SIM_INTERNAL_API aclError LaunchBernoulliTensor(aclDataType dtype, void* y, aclDataType probType,
                                                        const void* prob, uint64_t n, PhiloxArgs rng,
                                                        aclrtStream stream);
// Distributions by inversion of element i's uniform draw (kernels/random_kernel.cpp):
// kExponential (a = lambda), kCauchy (a = median, b = sigma), kLogNormal (a = mean,
// b = std; float types) and kGeometric (a = p; also integer types).
enum class RandomTransform { kExponential, kCauchy, kLogNormal, kGeometric };
ASCENDC_SIM_INTERNAL_API aclError LaunchRandomTransform(aclDataType dtype, void* y, uint64_t n, RandomTransform kind,
                                                        double a, double b, PhiloxArgs rng, aclrtStream stream);
// y = from + (64 random bits of element i mod range), converted to dtype; range 0 is 2^64.
ASCENDC_SIM_INTERNAL_API aclError LaunchRandomInteger(aclDataType dtype, void* y, uint64_t n, int64_t from,
                                                      uint64_t range, PhiloxArgs rng, aclrtStream stream);
// Dropout bit mask of `elements` into `maskBytes` bytes (bit 1 = keep, probability 1 - prob).
ASCENDC_SIM_INTERNAL_API aclError LaunchDropoutGenMask(void* mask, uint64_t maskBytes, uint64_t elements,
                                                       double prob, PhiloxArgs rng, aclrtStream stream);
// y = bit ? x / (1 - prob) : 0 over n elements (float, float16, bfloat16).
ASCENDC_SIM_INTERNAL_API aclError LaunchDropoutDoMask(aclDataType dtype, const void* x, const void* mask, void* y,
                                                      uint64_t n, double prob, aclrtStream stream);

constexpr int kMaxViewDims = 8;

// A strided view of device memory (strides and offset in elements of dtype).
struct ViewLayout {
  void* data = nullptr;
  aclDataType dtype = ACL_DT_UNDEFINED;
  int64_t offset = 0;
  int64_t strides[kMaxViewDims] = {};
};

// dst[i] = cast(src[i]) for every multi-index i of `shape`. A src stride of 0
// broadcasts; strides may be anything (the caller checked the bounds).
struct ViewCopyArgs {
  int32_t ndim = 0;
  int64_t shape[kMaxViewDims] = {};
  ViewLayout src;
  ViewLayout dst;
};

ASCENDC_SIM_INTERNAL_API aclError LaunchViewCopy(const ViewCopyArgs& args, aclrtStream stream);

// Re-layouts for the acl op "TransData" (see trans_data_kernel.cpp for the layouts).
enum class TransDataKind { kNdToNz, kNzToNd, kNchwToNc1hwc0, kNc1hwc0ToNchw };

// FRACTAL_NZ: the ND side is [batch, rows, cols] (rows = M, cols = N of the
// last two dimensions), the NZ side [batch, ceil(cols / C0), ceil(rows / 16), 16, C0].
// NC1HWC0: the NCHW side is [batch, rows, cols] (N, C, H * W), the 5HD side
// [batch, ceil(rows / C0), cols, C0]. Padding is written as zeros.
struct TransDataArgs {
  TransDataKind kind = TransDataKind::kNdToNz;
  aclDataType dtype = ACL_DT_UNDEFINED;
  int64_t batch = 0;
  int64_t rows = 0;
  int64_t cols = 0;
  const void* src = nullptr;
  void* dst = nullptr;
};

// C0 of the internal layouts: 32 for 1-byte types, 16 for 2- and 4-byte types
// (as CANN's cube size), 0 for types without an internal layout.
ASCENDC_SIM_INTERNAL_API int64_t TransDataC0(aclDataType dtype);
ASCENDC_SIM_INTERNAL_API aclError LaunchTransData(const TransDataArgs& args, aclrtStream stream);

// c[i] = outScale * (op(a[i]) (m x k) * op(b[i]) (k x n) + biasScale * bias[i])
// for i < batch, row-major, dense; op transposes an operand stored as its
// transpose (transA: a[i] is k x m; transB: b[i] is n x k); a batch stride of 0
// broadcasts that operand. bias (optional, of dtype) is a row of n values
// (kBiasRow: Mmad's bias table) or an m x n matrix (kBiasMatrix: the
// accumulator's initial value). float32, float16, bfloat16 (float32
// accumulation); m, n, k below 2^31 and every dimension below 65536 rows per tile copy.
enum class MatmulBias { kNone, kBiasRow, kBiasMatrix };
struct MatmulArgs {
  aclDataType dtype = ACL_DT_UNDEFINED;
  uint64_t batch = 1;
  int64_t m = 0, n = 0, k = 0;
  uint64_t aBatchStride = 0, bBatchStride = 0;
  bool transA = false, transB = false;
  bool sumBatch = false;  // c (m x n) = the sum of the batch products (no bias)
  bool floatOutput = false;  // c is float32 whatever the operands (the accumulator unrounded)
  MatmulBias biasKind = MatmulBias::kNone;
  uint64_t biasBatchStride = 0;
  float biasScale = 1.0f, outScale = 1.0f;
  const void* a = nullptr;
  const void* b = nullptr;
  const void* bias = nullptr;
  void* c = nullptr;
};
ASCENDC_SIM_INTERNAL_API aclError LaunchMatmul(const MatmulArgs& args, aclrtStream stream);

// y[r] = softmax(x[r]) (log: log_softmax(x[r])) over rows of `cols` elements
// (float32, float16, bfloat16; computed in float32).
ASCENDC_SIM_INTERNAL_API aclError LaunchSoftmax(aclDataType dtype, const void* x, void* y, uint64_t rows,
                                                uint64_t cols, bool log, aclrtStream stream);
// The softmax backward per row from the output y and the gradient g:
// dx = y * (g - sum(g * y)); log: dx = g - exp(y) * sum(g).
ASCENDC_SIM_INTERNAL_API aclError LaunchSoftmaxGrad(aclDataType dtype, const void* g, const void* y, void* dx,
                                                    uint64_t rows, uint64_t cols, bool log, aclrtStream stream);

// Layer norm over rows of `cols` elements: y = (x - mean) * rstd * gamma + beta
// (gamma/beta optional, may be null, of `dtype`); mean and rstd per row (float32
// when x is float32, else x's dtype as in CANN; may be null).
struct LayerNormArgs {
  aclDataType dtype = ACL_DT_UNDEFINED;
  aclDataType statsDtype = ACL_DT_UNDEFINED;
  uint64_t rows = 0, cols = 0;
  double eps = 1e-5;
  const void* x = nullptr;
  const void* gamma = nullptr;
  const void* beta = nullptr;
  void* y = nullptr;
  void* mean = nullptr;
  void* rstd = nullptr;
};
ASCENDC_SIM_INTERNAL_API aclError LaunchLayerNorm(const LayerNormArgs& args, aclrtStream stream);

// y[r] = sum, mean (sum / cols), max or min (NaN wins) of row r of x (rows x
// cols, cols > 0 for max/min/mean); x and y float32, float16 or bfloat16,
// computed in float32.
// kAll (1 when no element of the row is zero) is reduce_exact_custom's only.
enum class RowReduceOp { kSum, kMean, kMax, kMin, kAll };
ASCENDC_SIM_INTERNAL_API aclError LaunchRowReduce(aclDataType xType, const void* x, aclDataType yType, void* y,
                                                  uint64_t rows, uint64_t cols, RowReduceOp op, aclrtStream stream);
// The same, exact, for x of any integer type, bool or double (and, for kAll,
// any dtype), read as it is: accumulated by the scalar unit in
// ExactReduceAccType(xType, op), which is y's dtype (mean: the sum divided by
// cols in that type).
ASCENDC_SIM_INTERNAL_API aclDataType ExactReduceAccType(aclDataType xType, RowReduceOp op);
ASCENDC_SIM_INTERNAL_API aclError LaunchRowReduceExact(aclDataType xType, const void* x, void* y, uint64_t rows,
                                                       uint64_t cols, RowReduceOp op, aclrtStream stream);
// The same over a strided view read in place: row r is the multi-index number r of
// the kept dimensions (row-major), its elements those of the reduced dimensions;
// element offsets are sum(index * stride) from x (strides in elements, >= 0).
struct StridedRows {
  int32_t keptDims = 0;
  int64_t keptSizes[kMaxViewDims] = {};
  int64_t keptStrides[kMaxViewDims] = {};
  int32_t reducedDims = 0;
  int64_t reducedSizes[kMaxViewDims] = {};
  int64_t reducedStrides[kMaxViewDims] = {};
};
ASCENDC_SIM_INTERNAL_API aclError LaunchStridedReduceExact(aclDataType xType, const void* x, const StridedRows& layout,
                                                           void* y, RowReduceOp op, aclrtStream stream);

// y[c] = sum over the rows of column c of x (rows x cols, dense), accumulated in
// float32; x and y float32, float16 or bfloat16.
ASCENDC_SIM_INTERNAL_API aclError LaunchColumnSum(aclDataType xType, const void* x, aclDataType yType, void* y,
                                                  uint64_t rows, uint64_t cols, aclrtStream stream);
// y[b, c] = sum or mean (kSum, kMean) over the rows of x[b, :, c] (batch x rows x cols, dense), in
// float32 as LaunchColumnSum: a reduction over dimensions that are not the last ones, read in place.
ASCENDC_SIM_INTERNAL_API aclError LaunchColumnReduce(aclDataType xType, const void* x, aclDataType yType, void* y,
                                                     uint64_t batch, uint64_t rows, uint64_t cols, RowReduceOp op,
                                                     aclrtStream stream);
// A dense x of `shape` reduced over the dimensions flagged in `reduced` is a column reduction when those
// (size-1 dimensions aside) are one run followed by kept ones: its batch x rows x cols, else false.
struct ColumnReduceShape {
  uint64_t batch = 1, rows = 1, cols = 1;
};
ASCENDC_SIM_INTERNAL_API bool ColumnReduceShapeOf(const std::vector<int64_t>& shape, const std::vector<bool>& reduced,
                                                  ColumnReduceShape* out);

// Layer norm backward over rows of `cols` elements, with the forward's per-row
// mean and rstd (statsDtype) and optional gamma: dx = rstd * (gg - mean(gg) -
// xhat * mean(gg * xhat)) with gg = dy * gamma, xhat = (x - mean) * rstd; dx may
// be null. `dyXhat` (float32, rows x cols, may be null) receives dy * xhat.
struct LayerNormGradArgs {
  aclDataType dtype = ACL_DT_UNDEFINED;
  aclDataType statsDtype = ACL_DT_UNDEFINED;
  uint64_t rows = 0, cols = 0;
  const void* dy = nullptr;
  const void* x = nullptr;
  const void* mean = nullptr;
  const void* rstd = nullptr;
  const void* gamma = nullptr;
  void* dx = nullptr;
  void* dyXhat = nullptr;
};
ASCENDC_SIM_INTERNAL_API aclError LaunchLayerNormGrad(const LayerNormGradArgs& args, aclrtStream stream);

// Group normalization of x (n, c, hw) in `groups` groups (c % groups == 0): y of x's
// dtype, mean/rstd (n * groups, statsDtype: x's or float32) may be null, gamma/beta
// (c, x's dtype) may be null.
struct GroupNormArgs {
  aclDataType dtype = ACL_DT_UNDEFINED;
  aclDataType statsDtype = ACL_DT_UNDEFINED;
  uint64_t n = 0, c = 0, hw = 0, groups = 1;
  double eps = 1e-5;
  const void* x = nullptr;
  const void* gamma = nullptr;
  const void* beta = nullptr;
  void* y = nullptr;
  void* mean = nullptr;
  void* rstd = nullptr;
  void* variance = nullptr;  // optional: the population variance (CANN's GroupNorm type returns it)
};
ASCENDC_SIM_INTERNAL_API aclError LaunchGroupNorm(const GroupNormArgs& args, aclrtStream stream);
// Its gradients from the forward's mean and rstd: dx, dgamma, dbeta may be null; ds/db
// (float32 n * c scratch) are needed for dgamma/dbeta.
struct GroupNormGradArgs {
  aclDataType dtype = ACL_DT_UNDEFINED;
  aclDataType statsDtype = ACL_DT_UNDEFINED;
  uint64_t n = 0, c = 0, hw = 0, groups = 1;
  const void* dy = nullptr;
  const void* x = nullptr;
  const void* mean = nullptr;
  const void* rstd = nullptr;
  const void* gamma = nullptr;
  void* dx = nullptr;
  void* dgamma = nullptr;
  void* dbeta = nullptr;
  void* ds = nullptr;
  void* db = nullptr;
};
ASCENDC_SIM_INTERNAL_API aclError LaunchGroupNormGrad(const GroupNormGradArgs& args, aclrtStream stream);

// NLL loss of rows of x (n x c) at int64 targets (weight optional, of dtype):
// reduction 0 none (y: n), 1 mean, 2 sum (y and totalWeight: 1 element).
struct NllLossArgs {
  aclDataType dtype = ACL_DT_UNDEFINED;
  uint64_t n = 0, c = 0;
  int64_t reduction = 1;
  int64_t ignoreIndex = -100;
  const void* x = nullptr;
  const void* target = nullptr;
  const void* weight = nullptr;
  void* y = nullptr;
  void* totalWeight = nullptr;
};
ASCENDC_SIM_INTERNAL_API aclError LaunchNllLoss(const NllLossArgs& args, aclrtStream stream);
// Writes the nonzero elements of the NLL loss gradient into gradInput (n x c),
// which the caller has zeroed.
struct NllLossGradArgs {
  aclDataType dtype = ACL_DT_UNDEFINED;
  uint64_t n = 0, c = 0;
  int64_t reduction = 1;
  int64_t ignoreIndex = -100;
  const void* gradOutput = nullptr;
  const void* target = nullptr;
  const void* weight = nullptr;
  const void* totalWeight = nullptr;
  void* gradInput = nullptr;
};
ASCENDC_SIM_INTERNAL_API aclError LaunchNllLossGrad(const NllLossGradArgs& args, aclrtStream stream);

// The elementwise losses of x against target (both dense, n elements of dtype; weight optional,
// binary cross entropy only): reduction 0 none (y: n), 1 mean, 2 sum (y: 1 element). param is
// smooth_l1's beta or huber's delta.
enum class PointwiseLossKind : int32_t { kMse, kSmoothL1, kHuber, kBinaryCrossEntropy };
struct PointwiseLossArgs {
  aclDataType dtype = ACL_DT_UNDEFINED;
  PointwiseLossKind kind = PointwiseLossKind::kMse;
  uint64_t n = 0;
  int64_t reduction = 1;
  float param = 0.0f;
  const void* x = nullptr;
  const void* target = nullptr;
  const void* weight = nullptr;
  void* y = nullptr;
  // A reduced loss: PointwiseLossPartialBytes(n) bytes of scratch (null when that is 0) for
  // the blocks' partial sums, added in block order by a second launch.
  void* partials = nullptr;
};
ASCENDC_SIM_INTERNAL_API uint64_t PointwiseLossPartialBytes(uint64_t n);
ASCENDC_SIM_INTERNAL_API aclError LaunchPointwiseLoss(const PointwiseLossArgs& args, aclrtStream stream);
// gradInput (n) = the gradient of the loss with respect to x for gradOutput (n elements: a
// reduced loss's gradient broadcast); a mean's gradient is divided by meanCount.
struct PointwiseLossGradArgs {
  aclDataType dtype = ACL_DT_UNDEFINED;
  PointwiseLossKind kind = PointwiseLossKind::kMse;
  uint64_t n = 0;
  int64_t reduction = 1;
  float param = 0.0f;
  const void* gradOutput = nullptr;
  const void* x = nullptr;
  const void* target = nullptr;
  const void* weight = nullptr;
  void* gradInput = nullptr;
  uint64_t meanCount = 0;
};
ASCENDC_SIM_INTERNAL_API aclError LaunchPointwiseLossGrad(const PointwiseLossGradArgs& args, aclrtStream stream);

// Batch norm of x viewed as (n, c, l) per channel (batch_norm_custom): training
// uses the batch statistics (saveMean/saveInvstd written when not null; the
// running stats, when given, updated into runningMeanOut/runningVarOut with
// momentum and the unbiased variance), eval the running stats. x/y of dtype;
// weight, bias, running and saved stats float32 (c elements, may be null).
struct BatchNormArgs {
  aclDataType dtype = ACL_DT_UNDEFINED;
  uint64_t n = 0, c = 0, l = 0;
  bool training = false;
  double momentum = 0.1, eps = 1e-5;
  const void* x = nullptr;
  const void* weight = nullptr;
  const void* bias = nullptr;
  const void* runningMean = nullptr;
  const void* runningVar = nullptr;
  void* y = nullptr;
  void* runningMeanOut = nullptr;
  void* runningVarOut = nullptr;
  void* saveMean = nullptr;
  void* saveInvstd = nullptr;
};
ASCENDC_SIM_INTERNAL_API aclError LaunchBatchNorm(const BatchNormArgs& args, aclrtStream stream);
// Its gradients: mean/invstdOrVar are the saved mean and invstd (training) or the
// running mean and variance (eval); dx, dweight, dbias may be null.
struct BatchNormGradArgs {
  aclDataType dtype = ACL_DT_UNDEFINED;
  uint64_t n = 0, c = 0, l = 0;
  bool training = false;
  double eps = 1e-5;
  const void* dy = nullptr;
  const void* x = nullptr;
  const void* weight = nullptr;
  const void* mean = nullptr;
  const void* invstdOrVar = nullptr;
  void* dx = nullptr;
  void* dweight = nullptr;
  void* dbias = nullptr;
};
ASCENDC_SIM_INTERNAL_API aclError LaunchBatchNormGrad(const BatchNormGradArgs& args, aclrtStream stream);

// --- masks for attention: tril ---
// y = tril(x, diagonal) for `batch` dense (m x n) matrices: element (i, j) kept
// where j <= i + diagonal, else zero. Any kernel dtype.
ASCENDC_SIM_INTERNAL_API aclError LaunchTril(aclDataType dtype, const void* x, void* y, uint64_t batch, uint64_t m,
                                             uint64_t n, int64_t diagonal, aclrtStream stream);
// y = triu(x, diagonal): element (i, j) kept where j >= i + diagonal, else zero.
ASCENDC_SIM_INTERNAL_API aclError LaunchTriu(aclDataType dtype, const void* x, void* y, uint64_t batch, uint64_t m,
                                             uint64_t n, int64_t diagonal, aclrtStream stream);

}  // namespace kernels
}  // namespace ascendc_sim

#endif  // ASCENDC_SIM_KERNELS_KERNEL_API_H
