// linspace_custom / logspace_custom: y[i] of an evenly spaced sequence of n
// values from start to end (logspace: base raised to them). As PyTorch does, the
// first half counts up from start and the second half down from end, so both
// ends are exact: v(i) = i < n / 2 ? start + step * i : end - step * (n - 1 - i),
// step = (end - start) / (n - 1), from the bounds stored in the element type.
// linspace computes as CPU's does: in float for float32, in float rounded to the
// type after each operation for float16 and bfloat16, in double for double and
// integral types (then truncated). logspace computes as CPU's logspace for every
// type: the difference of the bounds taken in the type, the rest in double (base ^ v
// in double, then stored; one step is base ^ start, start unstored). Each block
// fills its range of y tile by tile in the unified buffer and writes each tile out.
// Given positions (LogSpaceD's assist), the i-th value is the one at position
// positions[i] (in y's type) rather than at i.
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
  bool positioned = false;
};

// The value at position p (an index: exact in float up to 2^24, in double up to 2^53).
template <typename T>
__aicore__ inline T SequenceValue(const SequenceTiling& t, double p) {
  const double halfway = static_cast<double>(t.steps / 2);
  const double fromEnd = static_cast<double>(t.steps - 1) - p;
  if (t.log) {
    const double power = pow(t.base, p < halfway ? t.start + t.step * p : t.end - t.step * fromEnd);
    if constexpr (std::is_same<T, double>::value || std::is_integral<T>::value) {
      return static_cast<T>(power);
    } else {
      return static_cast<T>(static_cast<float>(power));  // through float, as a double reaches half on CPU
    }
  }
  if constexpr (std::is_same<T, double>::value || std::is_integral<T>::value) {
    return static_cast<T>(p < halfway ? t.start + t.step * p : t.end - t.step * fromEnd);
  } else if constexpr (std::is_same<T, float>::value) {
    const float start = static_cast<float>(t.start), end = static_cast<float>(t.end), step = static_cast<float>(t.step);
    return p < halfway ? start + step * static_cast<float>(p) : end - step * static_cast<float>(fromEnd);
  } else {
    // c10's 16-bit arithmetic: each operation in float, rounded to T (the position too)
    const auto r = [](float x) { return static_cast<float>(static_cast<T>(x)); };
    const float start = static_cast<float>(t.start), end = static_cast<float>(t.end), step = static_cast<float>(t.step);
    return static_cast<T>(p < halfway ? r(start + r(step * r(static_cast<float>(p))))
                                      : r(end - r(step * r(static_cast<float>(fromEnd)))));
  }
}

template <typename T>
__global__ __aicore__ void sequence_custom(GM_ADDR y, GM_ADDR positions, SequenceTiling t) {
  const uint64_t block = static_cast<uint64_t>(AscendC::GetBlockIdx());
  const uint64_t start = t.tiling.BlockOffset(block);
  const uint64_t length = t.tiling.BlockElements(block);
  AscendC::GlobalTensor<T> yGm;
  yGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(y), t.tiling.totalLength);
  AscendC::GlobalTensor<T> positionsGm;
  if (t.positioned) positionsGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(positions), t.tiling.totalLength);
  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> queue;
  pipe.InitBuffer(queue, BUFFER_NUM, t.tiling.tileLength * sizeof(T));
  const uint32_t tileLength = t.tiling.tileLength;
  const uint64_t tiles = (length + tileLength - 1) / tileLength;
  for (uint64_t k = 0; k < tiles; ++k) {
    const uint64_t first = start + k * tileLength;
    const uint32_t n = static_cast<uint32_t>(k + 1 < tiles ? tileLength : length - k * tileLength);
    AscendC::LocalTensor<T> tile = queue.AllocTensor<T>();
    for (uint32_t j = 0; j < n; ++j) {
      const double p = t.positioned ? static_cast<double>(positionsGm.GetValue(first + j)) : static_cast<double>(first + j);
      tile.SetValue(j, SequenceValue<T>(t, p));
    }
    queue.EnQue(tile);
    AscendC::LocalTensor<T> out = queue.DeQue<T>();
    CopyTileOut(yGm[first], out, n);
    queue.FreeTensor(out);
  }
}

// `x` stored in T and read back (integers truncated; 16-bit types through float, as c10 converts a double).
template <typename T>
double StoredIn(double x) {
  if constexpr (std::is_integral<T>::value || std::is_same<T, double>::value) {
    return static_cast<double>(static_cast<T>(x));
  } else {
    return static_cast<double>(static_cast<float>(static_cast<T>(static_cast<float>(x))));
  }
}

// logspace's bounds and step as CPU's kernel has them: start and end stored in T, end - start taken in T.
template <typename T>
void LogspaceBounds(SequenceTiling* t, double start, double end) {
  if (t->steps == 1) {  // base ^ start, start not stored in T
    t->start = t->end = start;
    t->step = 0.0;
    return;
  }
  t->start = StoredIn<T>(start);
  t->end = StoredIn<T>(end);
  double difference = 0.0;
  if constexpr (std::is_integral<T>::value) {
    difference = static_cast<double>(static_cast<int64_t>(t->end) - static_cast<int64_t>(t->start));
  } else if constexpr (std::is_same<T, double>::value) {
    difference = t->end - t->start;
  } else {
    difference = StoredIn<T>(static_cast<float>(t->end) - static_cast<float>(t->start));
  }
  t->step = difference / static_cast<double>(t->steps - 1);
}

}  // namespace

aclError LaunchSequence(aclDataType dtype, void* y, int64_t steps, double start, double end, bool log, double base,
                        aclrtStream stream, const void* positions) {
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
      t.positioned = positions != nullptr;
      t.start = start;
      t.end = steps == 1 ? start : end;  // one step is start (PyTorch)
      if (log) {
        LogspaceBounds<T>(&t, start, end);
        return LaunchKernel(name, t.tiling.blockDim, stream, sequence_custom<T>, y, const_cast<void*>(positions), t);
      }
      // CPU's linspace: the bounds stored in T first (one step: start, stored), the step taken in T
      // (in double for integral types)
      start = StoredIn<T>(start);
      end = StoredIn<T>(end);
      t.start = start;
      t.end = steps == 1 ? start : end;
      const float fs = static_cast<float>(start), fe = static_cast<float>(end), gaps = static_cast<float>(steps - 1);
      if (steps <= 1) {
        t.step = 0.0;
      } else if constexpr (std::is_same<T, float>::value) {
        t.step = static_cast<double>((fe - fs) / gaps);
      } else if constexpr (std::is_same<T, half>::value || std::is_same<T, bfloat16_t>::value) {
        t.step = StoredIn<T>(static_cast<float>(StoredIn<T>(fe - fs)) / static_cast<float>(StoredIn<T>(gaps)));
      } else {
        t.step = (end - start) / static_cast<double>(steps - 1);
      }
      return LaunchKernel(name, t.tiling.blockDim, stream, sequence_custom<T>, y, const_cast<void*>(positions), t);
    }
  });
}

}  // namespace kernels
}  // namespace ascendc_sim
