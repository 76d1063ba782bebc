// Bitwise vector instructions on LocalTensors of integer (and bool) elements: And, Or (Ascend C's
// basic API) and Xor (its math library), `calCount` elements from the start of each operand.
// dst may be one of the sources (same start). On bool elements they are the logical operations.
#ifndef ASCENDC_SIM_KERNEL_BITWISE_OPS_H
#define ASCENDC_SIM_KERNEL_BITWISE_OPS_H

#include <stdint.h>

#include <type_traits>

#include "ascendc_sim/kernel/tensor.h"
#include "ascendc_sim/kernel/vector_ops.h"

namespace AscendC {
namespace detail {

template <typename T>
constexpr void CheckBitwiseType() {
  static_assert(std::is_integral<T>::value, "bitwise instructions take integer or bool elements");
}

}  // namespace detail

template <typename T>
__aicore__ inline void And(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                           uint32_t calCount) {
  detail::CheckBitwiseType<T>();
  detail::CheckBinary("And", dst, src0, src1, calCount);
  detail::BinaryLoop(dst, src0, src1, calCount, [](T a, T b) { return static_cast<T>(a & b); });
}

template <typename T>
__aicore__ inline void Or(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                          uint32_t calCount) {
  detail::CheckBitwiseType<T>();
  detail::CheckBinary("Or", dst, src0, src1, calCount);
  detail::BinaryLoop(dst, src0, src1, calCount, [](T a, T b) { return static_cast<T>(a | b); });
}

template <typename T>
__aicore__ inline void Xor(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                           uint32_t calCount) {
  detail::CheckBitwiseType<T>();
  detail::CheckBinary("Xor", dst, src0, src1, calCount);
  detail::BinaryLoop(dst, src0, src1, calCount, [](T a, T b) { return static_cast<T>(a ^ b); });
}

}  // namespace AscendC

#endif  // ASCENDC_SIM_KERNEL_BITWISE_OPS_H
