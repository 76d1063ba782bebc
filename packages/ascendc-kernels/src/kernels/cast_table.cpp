// The tile conversion table: AscendC::Cast between every pair of kernel types,
// with PyTorch's conversion rules (to bool: != 0; floating to integral:
// truncation; to float16/bfloat16: round to nearest even). Complex types
// convert as PyTorch converts them: a real value becomes (value, 0); a complex
// one becomes its real part (to bool: real or imaginary part non-zero); between
// complex64 and complex128 both parts convert.
#include "kernels/cast_table.h"

#include <string.h>

#include <algorithm>
#include <type_traits>

#include "kernel_operator.h"
#include "kernels/dtype_dispatch.h"

namespace ascendc_sim {
namespace kernels {
namespace {

template <typename D, typename S>
void CastTile(void* dst, const void* src, uint32_t count) {
  if constexpr (std::is_same<D, S>::value) {
    memcpy(dst, src, count * sizeof(D));
  } else {
    AscendC::LocalTensor<D> d(static_cast<D*>(dst), count);
    AscendC::LocalTensor<S> s(static_cast<S*>(const_cast<void*>(src)), count);
    AscendC::Cast(d, s, AscendC::RoundMode::CAST_NONE, count);
  }
}

// Parts are staged through a small buffer of this many elements.
constexpr uint32_t kPartChunk = 256;

// complex (parts P) -> real or bool D.
template <typename D, typename P>
void ComplexToRealTile(void* dst, const void* src, uint32_t count) {
  const P* in = static_cast<const P*>(src);
  D* out = static_cast<D*>(dst);
  if constexpr (std::is_same<D, bool>::value) {
    for (uint32_t j = 0; j < count; ++j) out[j] = in[2 * j] != P(0) || in[2 * j + 1] != P(0);
  } else {
    P parts[kPartChunk];
    for (uint32_t start = 0; start < count; start += kPartChunk) {
      const uint32_t n = std::min(kPartChunk, count - start);
      for (uint32_t j = 0; j < n; ++j) parts[j] = in[2 * (start + j)];
      CastTile<D, P>(out + start, parts, n);
    }
  }
}

// real or bool S -> complex (parts P).
template <typename P, typename S>
void RealToComplexTile(void* dst, const void* src, uint32_t count) {
  const S* in = static_cast<const S*>(src);
  P* out = static_cast<P*>(dst);
  P parts[kPartChunk];
  for (uint32_t start = 0; start < count; start += kPartChunk) {
    const uint32_t n = std::min(kPartChunk, count - start);
    CastTile<P, S>(parts, in + start, n);
    for (uint32_t j = 0; j < n; ++j) {
      out[2 * (start + j)] = parts[j];
      out[2 * (start + j) + 1] = P(0);
    }
  }
}

// complex (parts PS) -> complex (parts PD): both parts convert.
template <typename PD, typename PS>
void ComplexToComplexTile(void* dst, const void* src, uint32_t count) {
  CastTile<PD, PS>(dst, src, 2 * count);
}

template <typename F>
aclError DispatchComplexPart(aclDataType dtype, F&& f) {
  return dtype == ACL_COMPLEX64 ? f(TypeTag<float>{}) : f(TypeTag<double>{});
}

}  // namespace

CastTileFn LookupCastTile(aclDataType src, aclDataType dst) {
  CastTileFn fn = nullptr;
  if (!IsCopyType(src) || !IsCopyType(dst)) return nullptr;
  if (IsComplexType(src) && IsComplexType(dst)) {
    DispatchComplexPart(src, [&](auto srcTag) -> aclError {
      return DispatchComplexPart(dst, [&](auto dstTag) -> aclError {
        fn = &ComplexToComplexTile<typename decltype(dstTag)::type, typename decltype(srcTag)::type>;
        return ACL_SUCCESS;
      });
    });
  } else if (IsComplexType(src)) {
    DispatchComplexPart(src, [&](auto srcTag) -> aclError {
      return DispatchKernelType(dst, "cast", [&](auto dstTag) -> aclError {
        fn = &ComplexToRealTile<typename decltype(dstTag)::type, typename decltype(srcTag)::type>;
        return ACL_SUCCESS;
      });
    });
  } else if (IsComplexType(dst)) {
    DispatchKernelType(src, "cast", [&](auto srcTag) -> aclError {
      return DispatchComplexPart(dst, [&](auto dstTag) -> aclError {
        fn = &RealToComplexTile<typename decltype(dstTag)::type, typename decltype(srcTag)::type>;
        return ACL_SUCCESS;
      });
    });
  } else {
    DispatchKernelType(src, "cast", [&](auto srcTag) -> aclError {
      return DispatchKernelType(dst, "cast", [&](auto dstTag) -> aclError {
        fn = &CastTile<typename decltype(dstTag)::type, typename decltype(srcTag)::type>;
        return ACL_SUCCESS;
      });
    });
  }
  return fn;
}

}  // namespace kernels
}  // namespace ascendc_sim
