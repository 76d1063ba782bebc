// linspace_custom / logspace_custom: y[i] of an evenly spaced sequence of n
// values from start to end (logspace: base raised to them). As PyTorch does, the
// first half counts up from start and the second half down from end, so both
// ends are exact: v(i) = i < n / 2 ? start + step * i : end - step * (n - 1 - i),
// step = (end - start) / (n - 1). The step and the values are computed in the
// element type for float32 (float arithmetic, as CPU), in float for float16 and
// bfloat16 (step rounded to the type first), in double for double and integral
// types (then truncated). Each block fills its range of y tile by tile in the
// unified buffer and writes each tile out.
#include <math.h>

#include <type_traits>

#include "kernels/dtype_dispatch.h"
#include "kernels/index_kernel_api.h"
#include "kernels/kernel_helpers.h"
#include "kernels/tiling.h"

namespace ascendc_sim {
namespace kernels {
namespace {

struct SequenceTiling {
  ElementwiseTiling tiling;
  int64_t steps = 0;
  double start = 0, end = 0, step = 0;
  double base = 10.0;
  bool log = false;
};

template <typename T>
__aicore__ inline T SequenceValue(const SequenceTiling& t, int64_t i) {
  const int64_t halfway = t.steps / 2;
  if constexpr (std::is_same<T, double>::value || std::is_integral<T>::value) {
    const double v = i < halfway ? t.start + t.step * static_cast<double>(i)
                                 : t.end - t.step * static_cast<double>(t.steps - 1 - i);
    if (t.log) return static_cast<T>(pow(t.base, v));
    return static_cast<T>(v);
  } else {
    // float32 arithmetic (the step already rounded to T for 16-bit types)
    const float start = static_cast<float>(t.start), end = static_cast<float>(t.end), step = static_cast<float>(t.step);
    const float v = i < halfway ? start + step * static_cast<float>(i)
                                : end - step * static_cast<float>(t.steps - 1 - i);
    if (t.log) {
      return static_cast<T>(static_cast<float>(pow(t.base, static_cast<double>(v))));
    }
    return static_cast<T>(v);
  }
}

template <typename T>
__global__ __aicore__ void sequence_custom(GM_ADDR y, SequenceTiling t) {
  const uint64_t block = static_cast<uint64_t>(AscendC::GetBlockIdx());
  const uint64_t start = t.tiling.BlockOffset(block);
  const uint64_t length = t.tiling.BlockElements(block);
  AscendC::GlobalTensor<T> yGm;
  yGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(y), t.tiling.totalLength);
  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> queue;
  pipe.InitBuffer(queue, BUFFER_NUM, t.tiling.tileLength * sizeof(T));
  const uint32_t tileLength = t.tiling.tileLength;
  const uint64_t tiles = (length + tileLength - 1) / tileLength;
  for (uint64_t k = 0; k < tiles; ++k) {
    const uint64_t first = start + k * tileLength;
    const uint32_t n = static_cast<uint32_t>(k + 1 < tiles ? tileLength : length - k * tileLength);
    AscendC::LocalTensor<T> tile = queue.AllocTensor<T>();
    for (uint32_t j = 0; j < n; ++j) tile.SetValue(j, SequenceValue<T>(t, static_cast<int64_t>(first + j)));
    queue.EnQue(tile);
    AscendC::LocalTensor<T> out = queue.DeQue<T>();
    CopyTileOut(yGm[first], out, n);
    queue.FreeTensor(out);
  }
}

}  // namespace

aclError LaunchSequence(aclDataType dtype, void* y, int64_t steps, double start, double end, bool log, double base,
                        aclrtStream stream) {
  const char* name = log ? "logspace_custom" : "linspace_custom";
  return DispatchKernelType(dtype, name, [&](auto tag) -> aclError {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same<T, bool>::value) {
      return RaiseError(ACL_ERROR_UNSUPPORTED_DATA_TYPE, "kernel '%s' does not support data type ACL_BOOL", name);
    } else {
      if (steps <= 0) return ACL_SUCCESS;
      SequenceTiling t;
      t.tiling = ComputeElementwiseTiling(static_cast<uint64_t>(steps), static_cast<uint32_t>(BUFFER_NUM * sizeof(T)),
                                          sizeof(T));
      t.steps = steps;
      t.log = log;
      t.base = base;
      t.start = start;
      t.end = steps == 1 ? start : end;  // one step is start (PyTorch)
      const double step = steps > 1 ? (end - start) / static_cast<double>(steps - 1) : 0.0;
      if constexpr (std::is_same<T, float>::value) {
        // CPU: the bounds in float, the step a float quotient.
        const float fs = static_cast<float>(start), fe = static_cast<float>(end);
        t.step = steps > 1 ? static_cast<double>((fe - fs) / static_cast<float>(steps - 1)) : 0.0;
      } else if constexpr (std::is_same<T, half>::value || std::is_same<T, bfloat16_t>::value) {
        t.step = static_cast<double>(static_cast<float>(static_cast<T>(static_cast<float>(step))));
      } else {
        t.step = step;
      }
      return LaunchKernel(name, t.tiling.blockDim, stream, sequence_custom<T>, y, t);
    }
  });
}

}  // namespace kernels
}  // namespace ascendc_sim
