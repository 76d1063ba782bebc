// Compare / Select (bit masks) and the reductions ReduceSum / ReduceMax /
// ReduceMin. A mask is a LocalTensor<uint8_t>: bit i % 8 of byte i / 8 is
// element i's result. The reductions leave their result in dst[0]
// (ReduceMax/Min with calIndex: the index, as uint32_t bits, in dst[1]) and
// accumulate in lanes (16; float sums: 64 on the simulated vector unit), so
// float sums are in a different order than a sequential loop -- as on the
// vector unit.
#ifndef ASCENDC_SIM_KERNEL_COMPARE_REDUCE_H
#define ASCENDC_SIM_KERNEL_COMPARE_REDUCE_H

#include <stdint.h>
#include <string.h>

#include <type_traits>


#include "ascendc_sim/kernel/arith.h"
#include "ascendc_sim/kernel/tensor.h"
#include "ascendc_sim/kernel/trap.h"
#include "ascendc_sim/kernel/vector_ops.h"
#include "ascendc_sim/launch.h"

namespace AscendC {

enum class CMPMODE : uint8_t { LT = 0, GT, EQ, LE, GE, NE };
enum class SELMODE : uint8_t { VSEL_CMPMASK_SPR = 0, VSEL_TENSOR_SCALAR_MODE, VSEL_TENSOR_TENSOR_MODE };

namespace detail {

template <typename U>
inline void CheckMask(const char* op, const LocalTensor<U>& mask, uint32_t count) {
  static_assert(std::is_same<U, uint8_t>::value || std::is_same<U, uint16_t>::value ||
                    std::is_same<U, uint32_t>::value,
                "a mask tensor holds uint8_t, uint16_t or uint32_t");
  if (mask.GetPhyAddr() == nullptr) ascendc_sim::KernelFail("%s: mask is not an allocated local tensor", op);
  if ((static_cast<uint64_t>(count) + 7) / 8 > mask.GetLength()) {
    ascendc_sim::KernelFail("%s: %u elements need %u mask bytes, the mask has %u", op, count, (count + 7) / 8,
                            mask.GetLength());
  }
}

// Packs pred(i) for i < count into mask bits (bit i of byte i / 8), eight per byte.
template <typename P>
inline void PackBits(uint8_t* m, uint32_t count, P pred) {
  const uint32_t full = count / 8;
  for (uint32_t b = 0; b < full; ++b) {
    uint8_t v = 0;
    for (uint32_t k = 0; k < 8; ++k) v |= static_cast<uint8_t>(pred(b * 8 + k) ? 1u << k : 0u);
    m[b] = v;
  }
  if (count % 8 != 0) {
    uint8_t v = 0;
    for (uint32_t i = full * 8; i < count; ++i) v |= static_cast<uint8_t>(pred(i) ? 1u << (i % 8) : 0u);
    m[full] = v;
  }
}

// The comparison of `mode` as a predicate over indices (the mode switch taken once, not per element).
template <typename L, typename R>
inline void PackCompare(uint8_t* m, uint32_t count, CMPMODE mode, L lhs, R rhs) {
  switch (mode) {
    case CMPMODE::LT: PackBits(m, count, [&](uint32_t i) { return lhs(i) < rhs(i); }); return;
    case CMPMODE::GT: PackBits(m, count, [&](uint32_t i) { return lhs(i) > rhs(i); }); return;
    case CMPMODE::EQ: PackBits(m, count, [&](uint32_t i) { return lhs(i) == rhs(i); }); return;
    case CMPMODE::LE: PackBits(m, count, [&](uint32_t i) { return lhs(i) <= rhs(i); }); return;
    case CMPMODE::GE: PackBits(m, count, [&](uint32_t i) { return lhs(i) >= rhs(i); }); return;
    default: PackBits(m, count, [&](uint32_t i) { return lhs(i) != rhs(i); }); return;
  }
}

}  // namespace detail

// dst bit i = src0[i] <cmpMode> src1[i]
template <typename T, typename U>
__aicore__ inline void Compare(const LocalTensor<U>& dstLocal, const LocalTensor<T>& src0Local,
                               const LocalTensor<T>& src1Local, CMPMODE cmpMode, uint32_t calCount) {
  detail::CheckMask("Compare", dstLocal, calCount);
  detail::CheckOperand("Compare", "src0", src0Local, calCount);
  detail::CheckOperand("Compare", "src1", src1Local, calCount);
  using A = detail::Arith<T>;
  const auto* a = detail::Raw(src0Local);
  const auto* b = detail::Raw(src1Local);
  uint8_t* m = reinterpret_cast<uint8_t*>(dstLocal.GetPhyAddr());
  if constexpr (std::is_same<T, float>::value) {
    aclsimVectorCompareF32(static_cast<int>(cmpMode), m, a, b, 0.0f, calCount);  // the simulator's vector unit
    return;
  }
  detail::PackCompare(
      m, calCount, cmpMode, [&](uint32_t i) { return A::Load(a[i]); }, [&](uint32_t i) { return A::Load(b[i]); });
}

// dst bit i = src0[i] <cmpMode> src1Scalar
template <typename T, typename U>
__aicore__ inline void CompareScalar(const LocalTensor<U>& dstLocal, const LocalTensor<T>& src0Local, const T src1Scalar,
                                     CMPMODE cmpMode, uint32_t calCount) {
  detail::CheckMask("CompareScalar", dstLocal, calCount);
  detail::CheckOperand("CompareScalar", "src0", src0Local, calCount);
  using A = detail::Arith<T>;
  const auto* a = detail::Raw(src0Local);
  const auto s = detail::ToCompute<T>(src1Scalar);
  uint8_t* m = reinterpret_cast<uint8_t*>(dstLocal.GetPhyAddr());
  if constexpr (std::is_same<T, float>::value) {
    aclsimVectorCompareF32(static_cast<int>(cmpMode), m, a, nullptr, s, calCount);  // the simulator's vector unit
    return;
  }
  detail::PackCompare(
      m, calCount, cmpMode, [&](uint32_t i) { return A::Load(a[i]); }, [&](uint32_t) { return s; });
}

namespace detail {

template <size_t N> struct BitsOf {};
template <> struct BitsOf<1> { using type = uint8_t; };
template <> struct BitsOf<2> { using type = uint16_t; };
template <> struct BitsOf<4> { using type = uint32_t; };
template <> struct BitsOf<8> { using type = uint64_t; };

// d[i] = mask bit i ? a(i) : b(i), as a bitwise blend: a data-dependent branch per element
// mispredicts on half of random masks and costs more than the whole select.
template <typename S, typename A, typename B>
inline void SelectBits(S* d, const uint8_t* m, uint32_t count, A a, B b) {
  if constexpr (sizeof(S) == 1 || sizeof(S) == 2 || sizeof(S) == 4 || sizeof(S) == 8) {
    using W = typename BitsOf<sizeof(S)>::type;
    const uint32_t whole = count / 8 * 8;  // a mask byte at a time: constant shifts vectorise
    for (uint32_t i0 = 0; i0 < whole; i0 += 8) {
      const uint32_t bits = m[i0 / 8];
      for (uint32_t k = 0; k < 8; ++k) {
        const W take = static_cast<W>(W(0) - static_cast<W>((bits >> k) & 1u));
        const S va = a(i0 + k), vb = b(i0 + k);
        W wa, wb;
        memcpy(&wa, &va, sizeof(S));
        memcpy(&wb, &vb, sizeof(S));
        const W blended = static_cast<W>((wa & take) | (wb & static_cast<W>(~take)));
        memcpy(&d[i0 + k], &blended, sizeof(S));
      }
    }
    for (uint32_t i = whole; i < count; ++i) d[i] = ((m[i / 8] >> (i % 8)) & 1u) ? a(i) : b(i);
  } else {
    for (uint32_t i = 0; i < count; ++i) d[i] = ((m[i / 8] >> (i % 8)) & 1u) ? a(i) : b(i);
  }
}

}  // namespace detail

// dst[i] = mask bit i ? src0[i] : src1[i] (VSEL_TENSOR_TENSOR_MODE; the simulator
// takes the mask as an operand in VSEL_CMPMASK_SPR mode too).
template <typename T, typename U>
__aicore__ inline void Select(const LocalTensor<T>& dstLocal, const LocalTensor<U>& selMask,
                              const LocalTensor<T>& src0Local, const LocalTensor<T>& src1Local, SELMODE selMode,
                              uint32_t calCount) {
  if (selMode == SELMODE::VSEL_TENSOR_SCALAR_MODE) {
    ascendc_sim::KernelFail("Select: VSEL_TENSOR_SCALAR_MODE takes a scalar src1");
  }
  detail::CheckMask("Select", selMask, calCount);
  detail::CheckBinary("Select", dstLocal, src0Local, src1Local, calCount);
  auto* d = detail::Raw(dstLocal);
  const auto* a = detail::Raw(src0Local);
  const auto* b = detail::Raw(src1Local);
  const uint8_t* m = reinterpret_cast<const uint8_t*>(selMask.GetPhyAddr());
  if constexpr (sizeof(*d) == 4) {
    aclsimVectorSelectB32(d, m, a, b, 0, calCount);  // the simulator's vector unit
    return;
  }
  detail::SelectBits(d, m, calCount, [&](uint32_t i) { return a[i]; }, [&](uint32_t i) { return b[i]; });
}

// dst[i] = mask bit i ? src0[i] : src1Scalar (VSEL_TENSOR_SCALAR_MODE)
template <typename T, typename U>
__aicore__ inline void Select(const LocalTensor<T>& dstLocal, const LocalTensor<U>& selMask,
                              const LocalTensor<T>& src0Local, T src1Scalar, SELMODE selMode, uint32_t calCount) {
  if (selMode != SELMODE::VSEL_TENSOR_SCALAR_MODE) {
    ascendc_sim::KernelFail("Select: a scalar src1 needs VSEL_TENSOR_SCALAR_MODE");
  }
  detail::CheckMask("Select", selMask, calCount);
  detail::CheckUnary("Select", dstLocal, src0Local, calCount);
  using A = detail::Arith<T>;
  auto* d = detail::Raw(dstLocal);
  const auto* a = detail::Raw(src0Local);
  const auto s = A::Store(detail::ToCompute<T>(src1Scalar));
  const uint8_t* m = reinterpret_cast<const uint8_t*>(selMask.GetPhyAddr());
  if constexpr (sizeof(s) == 4) {
    uint32_t bits;
    memcpy(&bits, &s, sizeof(bits));
    aclsimVectorSelectB32(d, m, a, nullptr, bits, calCount);  // the simulator's vector unit
    return;
  }
  detail::SelectBits(d, m, calCount, [&](uint32_t i) { return a[i]; }, [&](uint32_t) { return s; });
}

namespace detail {

constexpr uint32_t kReduceLanes = 16;

template <typename T>
inline void CheckReduce(const char* op, const LocalTensor<T>& dst, const LocalTensor<T>& src,
                        const LocalTensor<T>& work, int32_t count, uint32_t dstElems) {
  if (count < 0) ascendc_sim::KernelFail("%s: count %d is negative", op, count);
  CheckOperand(op, "dst", dst, dstElems);
  CheckOperand(op, "src", src, static_cast<uint32_t>(count));
  if (work.GetPhyAddr() == nullptr) ascendc_sim::KernelFail("%s: workLocal is not an allocated local tensor", op);
}

// Sum of n values of T in the compute type, 16 lanes.
template <typename T>
inline ComputeOf<T> SumValues(const typename Arith<T>::Storage* __restrict a, uint32_t n) {
  using A = Arith<T>;
  using C = ComputeOf<T>;
  C lanes[kReduceLanes] = {};
  uint32_t i = 0;
  for (; i + kReduceLanes <= n; i += kReduceLanes) {
    for (uint32_t l = 0; l < kReduceLanes; ++l) lanes[l] = AddValues(lanes[l], A::Load(a[i + l]));
  }
  for (uint32_t l = 0; i + l < n; ++l) lanes[l] = AddValues(lanes[l], A::Load(a[i + l]));
  for (uint32_t w = kReduceLanes / 2; w > 0; w /= 2) {
    for (uint32_t l = 0; l < w; ++l) lanes[l] = AddValues(lanes[l], lanes[l + w]);
  }
  return lanes[0];
}

// Max (isMax) or min of n > 0 values; NaN wins (as torch.max). index: the
// first position of the result.
template <typename T>
inline ComputeOf<T> ExtremeValue(const typename Arith<T>::Storage* __restrict a, uint32_t n, bool isMax,
                                 uint32_t* index) {
  using A = Arith<T>;
  using C = ComputeOf<T>;
  C best = A::Load(a[0]);
  // float: the vector unit. Else 16 lanes of max/min, and 16 lanes of probe +=
  // v - v (NaN once a NaN or an infinity passed); NaN positions are looked for
  // only when a probe lane is NaN.
  C lanes[kReduceLanes];
  C probe[kReduceLanes] = {};
  for (uint32_t l = 0; l < kReduceLanes; ++l) lanes[l] = best;
  uint32_t i = 0;
  bool anyNan = false;
  if constexpr (std::is_same<T, float>::value) {  // the simulated vector unit
    int sawNan = 0;
    best = aclsimVectorReduceExtremeF32(a, n, isMax ? 1 : 0, &sawNan);
    anyNan = sawNan != 0;
    i = n;
    for (uint32_t l = 0; l < kReduceLanes; ++l) lanes[l] = best;
  } else if (isMax) {
    for (; i + kReduceLanes <= n; i += kReduceLanes) {
      for (uint32_t l = 0; l < kReduceLanes; ++l) {
        const C v = A::Load(a[i + l]);
        lanes[l] = v > lanes[l] ? v : lanes[l];
        if constexpr (kIsFloatLike<T>) probe[l] += v - v;
      }
    }
  } else {
    for (; i + kReduceLanes <= n; i += kReduceLanes) {
      for (uint32_t l = 0; l < kReduceLanes; ++l) {
        const C v = A::Load(a[i + l]);
        lanes[l] = v < lanes[l] ? v : lanes[l];
        if constexpr (kIsFloatLike<T>) probe[l] += v - v;
      }
    }
  }
  for (; i < n; ++i) {
    const C v = A::Load(a[i]);
    lanes[0] = isMax ? (v > lanes[0] ? v : lanes[0]) : (v < lanes[0] ? v : lanes[0]);
    anyNan |= v != v;
  }
  for (uint32_t l = 0; l < kReduceLanes; ++l) {
    best = isMax ? (lanes[l] > best ? lanes[l] : best) : (lanes[l] < best ? lanes[l] : best);
    anyNan |= probe[l] != probe[l];
  }
  anyNan |= best != best;
  uint32_t at = 0;
  bool nan = false;
  if constexpr (kIsFloatLike<T>) {
    for (uint32_t j = 0; anyNan && j < n; ++j) {
      const C v = A::Load(a[j]);
      if (v != v) {
        best = v;
        at = j;
        nan = true;
        break;
      }
    }
  }
  if (index != nullptr && !nan) {
    for (uint32_t i = 0; i < n; ++i) {
      if (A::Load(a[i]) == best) {
        at = i;
        break;
      }
    }
  }
  if (index != nullptr) *index = at;
  return best;
}

template <typename T>
inline void StoreIndex(const LocalTensor<T>& dst, uint32_t index) {
  if constexpr (sizeof(T) >= sizeof(uint32_t)) {
    memcpy(reinterpret_cast<uint8_t*>(dst.GetPhyAddr()) + sizeof(T), &index, sizeof(index));
  } else {
    const uint16_t narrow = static_cast<uint16_t>(index);
    memcpy(reinterpret_cast<uint8_t*>(dst.GetPhyAddr()) + sizeof(T), &narrow, sizeof(narrow));
  }
}

}  // namespace detail

// dst[0] = sum of src[0, count); workLocal is the scratch the hardware needs.
template <typename T>
__aicore__ inline void ReduceSum(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                                 const LocalTensor<T>& workLocal, const int32_t count) {
  detail::CheckReduce("ReduceSum", dstLocal, srcLocal, workLocal, count, 1);
  if constexpr (std::is_same<T, float>::value) {  // the vector unit (64 lanes)
    dstLocal.GetPhyAddr()[0] = aclsimVectorReduceSumF32(srcLocal.GetPhyAddr(), static_cast<uint32_t>(count));
    return;
  }
  using A = detail::Arith<T>;
  detail::Raw(dstLocal)[0] = A::Store(detail::SumValues<T>(detail::Raw(srcLocal), static_cast<uint32_t>(count)));
}

// dst[0] = max of src[0, count); with calIndex dst[1] holds its index (uint32_t bits).
template <typename T>
__aicore__ inline void ReduceMax(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                                 const LocalTensor<T>& workLocal, const int32_t count, bool calIndex = false) {
  detail::CheckReduce("ReduceMax", dstLocal, srcLocal, workLocal, count, calIndex ? 2 : 1);
  if (count == 0) ascendc_sim::KernelFail("ReduceMax: count is 0");
  using A = detail::Arith<T>;
  uint32_t index = 0;
  detail::Raw(dstLocal)[0] = A::Store(
      detail::ExtremeValue<T>(detail::Raw(srcLocal), static_cast<uint32_t>(count), true, calIndex ? &index : nullptr));
  if (calIndex) detail::StoreIndex(dstLocal, index);
}

template <typename T>
__aicore__ inline void ReduceMin(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                                 const LocalTensor<T>& workLocal, const int32_t count, bool calIndex = false) {
  detail::CheckReduce("ReduceMin", dstLocal, srcLocal, workLocal, count, calIndex ? 2 : 1);
  if (count == 0) ascendc_sim::KernelFail("ReduceMin: count is 0");
  using A = detail::Arith<T>;
  uint32_t index = 0;
  detail::Raw(dstLocal)[0] = A::Store(
      detail::ExtremeValue<T>(detail::Raw(srcLocal), static_cast<uint32_t>(count), false, calIndex ? &index : nullptr));
  if (calIndex) detail::StoreIndex(dstLocal, index);
}

}  // namespace AscendC

#endif  // ASCENDC_SIM_KERNEL_COMPARE_REDUCE_H
