// Element-wise reductions of the collectives.
#include "hccl/reduce.h"

#include <stdint.h>

#include <cmath>
#include <type_traits>

#include "ascendc_sim/kernel/fp_types.h"

namespace ascendc_sim {
namespace hccl {
namespace {

template <typename T>
struct Native {
  using Storage = T;
  using Compute = T;
  static T Load(T v) { return v; }
  static T Store(T v) { return v; }
};

struct Half {
  using Storage = uint16_t;
  using Compute = float;
  static float Load(uint16_t v) { return HalfBitsToFloat(v); }
  static uint16_t Store(float v) { return FloatToHalfBits(v); }
};

struct BFloat16 {
  using Storage = uint16_t;
  using Compute = float;
  static float Load(uint16_t v) { return Bf16BitsToFloat(v); }
  static uint16_t Store(float v) { return FloatToBf16Bits(v); }
};

template <typename C>
C Sum(C a, C b) {
  if constexpr (std::is_integral_v<C>) {
    return static_cast<C>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));  // wraps, no overflow
  } else {
    return a + b;
  }
}

template <typename C>
C Prod(C a, C b) {
  if constexpr (std::is_integral_v<C>) {
    return static_cast<C>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
  } else {
    return a * b;
  }
}

// A NaN operand wins, as in PyTorch's max and min.
template <typename C>
C Max(C a, C b) {
  if constexpr (std::is_floating_point_v<C>) {
    if (std::isnan(a) || std::isnan(b)) return a + b;
  }
  return a < b ? b : a;
}

template <typename C>
C Min(C a, C b) {
  if constexpr (std::is_floating_point_v<C>) {
    if (std::isnan(a) || std::isnan(b)) return a + b;
  }
  return b < a ? b : a;
}

template <typename Codec, typename Op>
void Loop(void* out, const void* first, const void* second, size_t n, Op op) {
  using S = typename Codec::Storage;
  auto* o = static_cast<S*>(out);
  const auto* a = static_cast<const S*>(first);
  const auto* b = static_cast<const S*>(second);
  for (size_t i = 0; i < n; ++i) o[i] = Codec::Store(op(Codec::Load(a[i]), Codec::Load(b[i])));
}

template <typename Codec>
void Reduce(void* out, const void* first, const void* second, size_t n, HcclReduceOp op) {
  using C = typename Codec::Compute;
  switch (op) {
    case HCCL_REDUCE_SUM: return Loop<Codec>(out, first, second, n, Sum<C>);
    case HCCL_REDUCE_PROD: return Loop<Codec>(out, first, second, n, Prod<C>);
    case HCCL_REDUCE_MAX: return Loop<Codec>(out, first, second, n, Max<C>);
    case HCCL_REDUCE_MIN: return Loop<Codec>(out, first, second, n, Min<C>);
    default: return;
  }
}

}  // namespace

void ReduceTo(void* out, const void* first, const void* second, size_t count, HcclDataType dt, HcclReduceOp op) {
  switch (dt) {
    case HCCL_DATA_TYPE_INT8: return Reduce<Native<int8_t>>(out, first, second, count, op);
    case HCCL_DATA_TYPE_INT16: return Reduce<Native<int16_t>>(out, first, second, count, op);
    case HCCL_DATA_TYPE_INT32: return Reduce<Native<int32_t>>(out, first, second, count, op);
    case HCCL_DATA_TYPE_INT64: return Reduce<Native<int64_t>>(out, first, second, count, op);
    case HCCL_DATA_TYPE_UINT8: return Reduce<Native<uint8_t>>(out, first, second, count, op);
    case HCCL_DATA_TYPE_UINT16: return Reduce<Native<uint16_t>>(out, first, second, count, op);
    case HCCL_DATA_TYPE_UINT32: return Reduce<Native<uint32_t>>(out, first, second, count, op);
    case HCCL_DATA_TYPE_UINT64: return Reduce<Native<uint64_t>>(out, first, second, count, op);
    case HCCL_DATA_TYPE_FP32: return Reduce<Native<float>>(out, first, second, count, op);
    case HCCL_DATA_TYPE_FP64: return Reduce<Native<double>>(out, first, second, count, op);
    case HCCL_DATA_TYPE_FP16: return Reduce<Half>(out, first, second, count, op);
    case HCCL_DATA_TYPE_BFP16: return Reduce<BFloat16>(out, first, second, count, op);
    default: return;
  }
}

void ReduceInto(void* acc, const void* in, size_t count, HcclDataType dt, HcclReduceOp op) {
  ReduceTo(acc, acc, in, count, dt, op);
}

}  // namespace hccl
}  // namespace ascendc_sim
