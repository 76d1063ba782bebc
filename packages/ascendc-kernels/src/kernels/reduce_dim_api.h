// Host entry points of the dimension reductions, scans and sorts beyond
// sum/mean/max/min (kernels/reduce_dim_kernel.cpp, scan_kernel.cpp,
// sort_kernel.cpp). Every kernel reads x as `rows` dense rows of `cols`
// elements of its compute type, ACL_FLOAT (float32, float16 and bfloat16 are
// computed in float32), ACL_DOUBLE or ACL_INT64 (integers and bool); the aclnn
// layer moves the reduced dimensions innermost and converts before, and casts
// the results into the outputs after. Rows are split over the cores; a block
// streams its rows chunk by chunk through the unified buffer.
#ifndef ASCENDC_SIM_KERNELS_REDUCE_DIM_API_H
#define ASCENDC_SIM_KERNELS_REDUCE_DIM_API_H

#include <stdint.h>

#include "acl/acl_base.h"
#include "common/visibility.h"

namespace ascendc_sim {
namespace kernels {

// Per row r of x:
//   kSum, kProd, kNanSum (NaN counted as 0): y0[r] (compute type)
//   kVar: y0[r] = sum((x - mean)^2) / max(0, cols - correction) (its square root when
//         takeSqrt), y1[r] = mean (y1 may be null); Welford's update in double
//   kAny: y0[r] = 1 when an element is nonzero (NaN is), else 0 (int64)
//   kArgMax / kArgMin: y0[r] = the extreme value, y1[r] = the index of its first
//         occurrence (int64); NaN is the extreme of both; either output may be null
//   kMinMax: y0[r] = min, y1[r] = max (NaN wins)
//   kNorm: y0[r] = (sum |x|^p)^(1/p); p = 0: count of nonzeros, +-inf: max/min |x|; one
//         element: |x| for every p but 0
//   kEqual: y0[0] = 1 when x and x2 (both rows x cols) are equal everywhere (one row)
//   kRenorm: y0 (rows x cols) = row r scaled by maxnorm / (norm + 1e-7) when its p-norm
//         is above maxnorm (torch.renorm), else copied
// An empty row gives the identity (0, 1, NaN for kVar); kArgMax/kArgMin/kMinMax need cols > 0.
enum class DimReduceOp : int32_t {
  kSum, kProd, kNanSum, kVar, kAny, kArgMax, kArgMin, kMinMax, kNorm, kEqual, kRenorm
};
struct DimReduceArgs {
  DimReduceOp op = DimReduceOp::kSum;
  aclDataType dtype = ACL_FLOAT;  // ACL_FLOAT, ACL_DOUBLE or ACL_INT64
  const void* x = nullptr;
  const void* x2 = nullptr;  // kEqual
  void* y0 = nullptr;
  void* y1 = nullptr;
  uint64_t rows = 0;
  uint64_t cols = 0;
  double correction = 1.0;  // kVar
  bool takeSqrt = false;    // kVar: standard deviation
  double p = 2.0;           // kNorm, kRenorm
  double maxnorm = 0.0;     // kRenorm
};
ASCENDC_SIM_INTERNAL_API aclError LaunchDimReduce(const DimReduceArgs& args, aclrtStream stream);
// The kernel's compute type (DimReduceArgs::dtype) for values of dtype `t`: float32 for the 16/32-bit
// floats, double, else int64.
ASCENDC_SIM_INTERNAL_API aclDataType DimReduceComputeType(aclDataType t);

// y (rows x cols, compute type) = the inclusive scan of each row of x, accumulated in double
// (int64 for integers) as PyTorch's CPU kernels; idx (int64,
// kCumMax/kCumMin only) = the index where the running extreme was taken (the latest
// of equal values, a NaN once seen stays, as PyTorch's CPU kernels).
enum class ScanOp : int32_t { kCumSum, kCumProd, kCumMax, kCumMin, kLogCumSumExp };
struct ScanArgs {
  ScanOp op = ScanOp::kCumSum;
  aclDataType dtype = ACL_FLOAT;
  const void* x = nullptr;
  void* y = nullptr;
  void* idx = nullptr;
  uint64_t rows = 0;
  uint64_t cols = 0;
};
ASCENDC_SIM_INTERNAL_API aclError LaunchScan(const ScanArgs& args, aclrtStream stream);

// Each row of x sorted (NaN above every number), or a selection from it, with PyTorch's CPU
// algorithms (equal values come out in CPU's order, with CPU's indices):
//   kSort: values/indices (rows x cols) = the sorted row (stable or not)
//   kTopk: values/indices (rows x k) = the first k of the order (descending = largest)
//   kKth: values/indices (rows) = the k-th smallest
//   kMedian: the lower median; a row holding NaN gives its first NaN
//   kNanMedian: the lower median of the row's numbers (NaN when it has none)
// wholeTensor (one row, median()/nanmedian()): only the value, as CPU's full median.
enum class SortSelect : int32_t { kSort, kTopk, kKth, kMedian, kNanMedian };
struct SortArgs {
  SortSelect select = SortSelect::kSort;
  aclDataType dtype = ACL_FLOAT;
  const void* x = nullptr;
  void* values = nullptr;   // may be null
  void* indices = nullptr;  // may be null
  uint64_t rows = 0;
  uint64_t cols = 0;
  uint64_t k = 0;
  bool descending = false;
  bool stable = false;
  bool wholeTensor = false;
};
ASCENDC_SIM_INTERNAL_API aclError LaunchSort(const SortArgs& args, aclrtStream stream);

}  // namespace kernels
}  // namespace ascendc_sim

#endif  // ASCENDC_SIM_KERNELS_REDUCE_DIM_API_H
