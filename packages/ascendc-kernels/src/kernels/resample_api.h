// Host entry points of the resampling kernels (resample_kernel.cpp): pooling, interpolation and
// padding over planes of up to three spatial axes (D, H, W; 1-D and 2-D problems have leading
// axes of size 1). Every tensor is dense row-major [planes, D, H, W]; pointers are device memory;
// nothing is queued for an empty problem.
//
// The sum family is separable: along each axis an output coordinate o reads `taps` input
// coordinates with weights (the axis' rule, below), so
//   y[p, od, oh, ow] = (sum_d wd * (sum_h wh * (sum_w ww * x[p, id, ih, iw]))) / divisor
// with divisor = divisorOverride when it is not 0 (PyTorch allows a negative one), else the product of the axes' divisors (1
// for interpolation and padding; an empty window makes the output 0). A first kernel writes the
// per-axis tap tables into a workspace region, the second reads them; the backward kernel adds
// every gradOutput element, with the same weights, into a float32 (float64 for double) gradient.
#ifndef ASCENDC_SIM_KERNELS_RESAMPLE_API_H
#define ASCENDC_SIM_KERNELS_RESAMPLE_API_H

#include <stdint.h>

#include "acl/acl_base.h"
#include "common/visibility.h"

namespace ascendc_sim {
namespace kernels {

constexpr int kResampleAxes = 3;

// How an axis maps output coordinates to input coordinates (PyTorch's CPU formulas).
enum class AxisRule : int32_t {
  kIdentity,         // o -> o (an axis of size 1, or in == out)
  kNearest,          // upsample_nearest: floor(o * s), s = 1/scale or in/out (float); in==out, in*2==out exact
  kNearestExact,     // _upsample_nearest_exact: floor((o + 0.5) * s)
  kLinear,           // linear/bilinear/trilinear: two taps, align_corners
  kCubic,            // bicubic (A = -0.75): four taps, indices clamped to the axis
  kAntialiasLinear,  // _upsample_bilinear2d_aa: triangle filter stretched by the downscale factor
  kAntialiasCubic,   // _upsample_bicubic2d_aa: cubic filter (a = -0.5) stretched likewise
  kAvgWindow,        // avg_pool: kernel/stride/pad, ceil_mode in `out`, count_include_pad
  kAdaptive,         // adaptive pooling: [floor(o * in / out), ceil((o + 1) * in / out))
  kReflect,          // reflection_pad (pad: the leading padding, negative crops)
  kReplicate,        // replication_pad
  kMaxWindow,        // max pooling windows (kernel/stride/pad/dilation); max kernel only
};

struct ResampleAxis {
  AxisRule rule = AxisRule::kIdentity;
  int64_t in = 1, out = 1;
  double scale = 0.0;  // interpolation: the caller's scale factor (<= 0: none, in/out is used)
  bool alignCorners = false;
  int64_t kernel = 1, stride = 1, pad = 0, dilation = 1;
  bool countIncludePad = true;
};

// The taps an axis' rule reads per output coordinate (for the tap tables).
ASCENDC_SIM_INTERNAL_API int64_t ResampleAxisTaps(const ResampleAxis& axis, aclDataType dtype);

struct ResampleArgs {
  aclDataType dtype = ACL_DT_UNDEFINED;  // of x and y (forward) or of gradOutput (backward)
  int64_t planes = 0;                    // batch * channels
  ResampleAxis axis[kResampleAxes];      // D, H, W
  int64_t divisorOverride = 0;
  const char* op = "resample";           // names the operator in kernel errors
  const void* x = nullptr;               // forward: input; backward: gradOutput
  void* y = nullptr;                     // forward: output; backward: gradInput (float32 / float64)
  void* taps = nullptr;                  // ResampleTapsBytes(args) of workspace
};

// Workspace bytes of the tap tables.
ASCENDC_SIM_INTERNAL_API uint64_t ResampleTapsBytes(const ResampleArgs& args);
// The compute type of the backward gradient: ACL_DOUBLE for double, else ACL_FLOAT.
ASCENDC_SIM_INTERNAL_API aclDataType ResampleAccumulateType(aclDataType dtype);

// Forward: float32, float16, bfloat16, double; the padding rules (one tap of weight 1 on every
// axis) copy elements of any kernel type.
ASCENDC_SIM_INTERNAL_API aclError LaunchResample(const ResampleArgs& args, aclrtStream stream);
// Backward: gradOutput (args.x, of args.dtype, the output's shape) into gradInput (args.y,
// ResampleAccumulateType, the input's shape).
ASCENDC_SIM_INTERNAL_API aclError LaunchResampleBackward(const ResampleArgs& args, aclrtStream stream);

// Max pooling over windows (kMaxWindow or kAdaptive axes): y and int64 indices (the flat
// position d * H * W + h * W + w within the input plane). NaN wins; a window's first position
// starts at -inf. float32, float16, bfloat16, double.
ASCENDC_SIM_INTERNAL_API aclError LaunchWindowMax(const ResampleArgs& args, void* indices, aclrtStream stream);

// Scatter by plane indices: kAdd: y [planes, inner] (ResampleAccumulateType, zeroed first) +=
// x [planes, count] at indices [planes, count] (max pooling's backward); kStore: y (of dtype,
// zeroed first) at the indices = x (max_unpool). An index outside [0, inner) fails the kernel,
// naming `op`.
enum class PlaneScatterMode : int32_t { kAdd, kStore };
struct PlaneScatterArgs {
  PlaneScatterMode mode = PlaneScatterMode::kAdd;
  aclDataType dtype = ACL_DT_UNDEFINED;
  int64_t planes = 0, count = 0, inner = 0;
  const char* op = "scatter";
  const void* x = nullptr;
  const void* indices = nullptr;  // int64
  void* y = nullptr;
};
ASCENDC_SIM_INTERNAL_API aclError LaunchPlaneScatter(const PlaneScatterArgs& args, aclrtStream stream);

}  // namespace kernels
}  // namespace ascendc_sim

#endif  // ASCENDC_SIM_KERNELS_RESAMPLE_API_H
