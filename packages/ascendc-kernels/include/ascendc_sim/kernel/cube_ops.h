// The cube path: LoadData (L1 -> L0A/L0B), Mmad (L0A x L0B -> L0C) and
// Fixpipe (L0C -> global memory).
//
// Simplification of the hardware's fractal (zZ/nZ) layouts: a matrix tile in
// L1, L0A, L0B and L0C is row-major (ND) with every row padded to whole
// 32-byte blocks -- the layout DataCopyPad produces -- so its row pitch is
// AlignUp(columns, 32 / sizeof(T)) elements. Mmad runs on the simulated cube
// unit (aclsimCubeMmad in libascendcl: float16/bfloat16/float32 in, float32
// accumulated). A transposed operand is brought into an L0 tile by
// LoadDataWithTranspose. Mmad's bias (isBias) is one float32 row of n values
// (the bias table, C2) added to every row of the product; Fixpipe can scale the
// accumulator on its way out (quantPre DEQF16 with the float in deqScalar).
#ifndef ASCENDC_SIM_KERNEL_CUBE_OPS_H
#define ASCENDC_SIM_KERNEL_CUBE_OPS_H

#include <stdint.h>
#include <string.h>

#include <type_traits>

#include "ascendc_sim/kernel/arith.h"
#include "ascendc_sim/kernel/fp_types.h"
#include "ascendc_sim/kernel/tensor.h"
#include "ascendc_sim/kernel/trap.h"
#include "ascendc_sim/launch.h"

namespace AscendC {

// Elements of T in one row of a 32-byte padded tile of `cols` columns.
template <typename T>
__aicore__ constexpr uint32_t TileRowPitch(uint32_t cols) {
  return (cols * static_cast<uint32_t>(sizeof(T)) + ONE_BLK_SIZE - 1) / ONE_BLK_SIZE * ONE_BLK_SIZE /
         static_cast<uint32_t>(sizeof(T));
}

struct MmadParams {
  uint16_t m = 0;
  uint16_t n = 0;
  uint16_t k = 0;
  bool isBias = false;
  int32_t fmOffset = 0;
  bool enSsparse = false;
  bool enWinogradA = false;
  bool enWinogradB = false;
  uint8_t unitFlag = 0;
  bool kDirectionAlign = false;
  bool cmatrixSource = false;
  // true: dst = fm * filter; false: dst += fm * filter.
  bool cmatrixInitVal = true;
};

// Copies `repeatTimes` fractals of 512 bytes: source fractal startIndex + i *
// srcStride to destination fractal i * (1 + dstGap).
struct LoadData2DParams {
  uint16_t startIndex = 0;
  uint8_t repeatTimes = 0;
  uint16_t srcStride = 0;
  uint8_t sid = 0;
  uint16_t dstGap = 0;
  bool ifTranspose = false;
  uint8_t addrMode = 0;
};

// CO1 -> GM: mSize x nSize of the L0C tile (row pitch srcStride elements, 0:
// TileRowPitch<float>(nSize)) to global rows of pitch dstStride elements,
// converted to the destination type (round to nearest even); reluEn clamps at 0.
// Fixpipe's conversion on the way out: NoQuant converts only; DEQF16 multiplies by
// the float32 scale held in the low 32 bits of deqScalar first (see DeqScalarOf).
enum QuantMode_t : uint8_t { NoQuant = 0, DEQF16 = 1 };

inline uint64_t DeqScalarOf(float scale) {
  uint32_t bits;
  memcpy(&bits, &scale, sizeof(bits));
  return bits;
}

// LoadDataWithTranspose: the row-major padded tile of srcRows x srcCols in
// src becomes its transpose (srcCols x srcRows, row pitch TileRowPitch<T>(srcRows)) in dst.
struct LoadData2dTransposeParams {
  uint16_t srcRows = 0;
  uint16_t srcCols = 0;
};

struct FixpipeParamsV220 {
  uint16_t nSize = 0;
  uint16_t mSize = 0;
  uint16_t srcStride = 0;
  uint32_t dstStride = 0;
  uint8_t quantPre = 0;
  uint64_t deqScalar = 0;
  uint16_t ndNum = 1;
  uint16_t srcNdStride = 0;
  uint16_t dstNdStride = 0;
  bool reluEn = false;
  uint8_t unitFlag = 0;
  bool isChannelSplit = false;
};

constexpr uint32_t kFractalBytes = 512;

template <typename T>
__aicore__ inline void LoadData(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                                const LoadData2DParams& params) {
  if (params.ifTranspose) ascendc_sim::KernelFail("LoadData: ifTranspose is not supported by the simulator's ND tiles");
  if (params.repeatTimes == 0) return;
  const uint64_t srcEnd = (static_cast<uint64_t>(params.startIndex) +
                           static_cast<uint64_t>(params.repeatTimes - 1) * params.srcStride + 1) * kFractalBytes;
  const uint64_t dstEnd = (static_cast<uint64_t>(params.repeatTimes - 1) * (1u + params.dstGap) + 1) * kFractalBytes;
  if (srcLocal.GetPhyAddr() == nullptr || dstLocal.GetPhyAddr() == nullptr) {
    ascendc_sim::KernelFail("LoadData: local tensor is not allocated");
  }
  if (srcEnd > srcLocal.GetLength() || dstEnd > dstLocal.GetLength()) {
    ascendc_sim::KernelFail("LoadData: %u fractals need %llu source and %llu destination bytes, the tensors have %u and %u",
                            params.repeatTimes, static_cast<unsigned long long>(srcEnd),
                            static_cast<unsigned long long>(dstEnd), srcLocal.GetLength(), dstLocal.GetLength());
  }
  const uint8_t* s = reinterpret_cast<const uint8_t*>(srcLocal.GetPhyAddr());
  uint8_t* d = reinterpret_cast<uint8_t*>(dstLocal.GetPhyAddr());
  if (params.srcStride == 1 && params.dstGap == 0) {
    memcpy(d, s + static_cast<uint64_t>(params.startIndex) * kFractalBytes,
           static_cast<uint64_t>(params.repeatTimes) * kFractalBytes);
    return;
  }
  for (uint32_t i = 0; i < params.repeatTimes; ++i) {
    memcpy(d + static_cast<uint64_t>(i) * (1u + params.dstGap) * kFractalBytes,
           s + (static_cast<uint64_t>(params.startIndex) + static_cast<uint64_t>(i) * params.srcStride) * kFractalBytes,
           kFractalBytes);
  }
}

template <typename T>
__aicore__ inline void LoadDataWithTranspose(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                                             const LoadData2dTransposeParams& params) {
  const uint32_t rows = params.srcRows, cols = params.srcCols;
  if (rows == 0 || cols == 0) return;
  const uint32_t srcPitch = TileRowPitch<T>(cols), dstPitch = TileRowPitch<T>(rows);
  if (srcLocal.GetPhyAddr() == nullptr || dstLocal.GetPhyAddr() == nullptr) {
    ascendc_sim::KernelFail("LoadDataWithTranspose: local tensor is not allocated");
  }
  const uint64_t needSrc = static_cast<uint64_t>(rows - 1) * srcPitch + cols;
  const uint64_t needDst = static_cast<uint64_t>(cols - 1) * dstPitch + rows;
  if (needSrc > srcLocal.GetSize() || needDst > dstLocal.GetSize()) {
    ascendc_sim::KernelFail("LoadDataWithTranspose: %u x %u needs %llu source and %llu destination elements, the "
                            "tensors have %u and %u", rows, cols, static_cast<unsigned long long>(needSrc),
                            static_cast<unsigned long long>(needDst), srcLocal.GetSize(), dstLocal.GetSize());
  }
  const aclError rc = aclsimCubeTranspose(dstLocal.GetPhyAddr(), dstPitch, srcLocal.GetPhyAddr(), srcPitch, rows, cols,
                                          static_cast<uint32_t>(sizeof(T)));
  if (rc != ACL_SUCCESS) {
    ascendc_sim::KernelFail("LoadDataWithTranspose: elements of %u bytes", static_cast<uint32_t>(sizeof(T)));
  }
}

// dst (L0C, float32) (+)= fm (L0A, m x k) * filter (L0B, k x n); see the
// layout note at the top.
template <typename DstT, typename SrcT>
__aicore__ inline void Mmad(const LocalTensor<DstT>& dstLocal, const LocalTensor<SrcT>& fmLocal,
                            const LocalTensor<SrcT>& filterLocal, const MmadParams& params) {
  static_assert(std::is_same<DstT, float>::value, "Mmad accumulates into float32 (L0C)");
  static_assert(std::is_same<SrcT, float>::value || std::is_same<SrcT, half>::value ||
                    std::is_same<SrcT, bfloat16_t>::value,
                "Mmad takes float32, float16 or bfloat16 operands");
  if (params.isBias) ascendc_sim::KernelFail("Mmad: isBias needs the bias table operand (the Mmad overload taking biasLocal)");
  const uint32_t lda = TileRowPitch<SrcT>(params.k);
  const uint32_t ldb = TileRowPitch<SrcT>(params.n);
  const uint32_t ldc = TileRowPitch<float>(params.n);
  const uint64_t needA = params.m == 0 ? 0 : static_cast<uint64_t>(params.m - 1) * lda + params.k;
  const uint64_t needB = params.k == 0 ? 0 : static_cast<uint64_t>(params.k - 1) * ldb + params.n;
  const uint64_t needC = params.m == 0 ? 0 : static_cast<uint64_t>(params.m - 1) * ldc + params.n;
  if (fmLocal.GetPhyAddr() == nullptr || filterLocal.GetPhyAddr() == nullptr || dstLocal.GetPhyAddr() == nullptr) {
    ascendc_sim::KernelFail("Mmad: an operand is not an allocated local tensor");
  }
  if (needA > fmLocal.GetSize() || needB > filterLocal.GetSize() || needC > dstLocal.GetSize()) {
    ascendc_sim::KernelFail("Mmad: m=%u n=%u k=%u needs %llu/%llu/%llu elements of fm/filter/dst, they have %u/%u/%u",
                            params.m, params.n, params.k, static_cast<unsigned long long>(needA),
                            static_cast<unsigned long long>(needB), static_cast<unsigned long long>(needC),
                            fmLocal.GetSize(), filterLocal.GetSize(), dstLocal.GetSize());
  }
  const aclDataType type = std::is_same<SrcT, float>::value  ? ACL_FLOAT
                           : std::is_same<SrcT, half>::value ? ACL_FLOAT16
                                                             : ACL_BF16;
  const aclError rc = aclsimCubeMmad(dstLocal.GetPhyAddr(), fmLocal.GetPhyAddr(), filterLocal.GetPhyAddr(), params.m,
                                     params.n, params.k, lda, ldb, ldc, type, params.cmatrixInitVal ? 0 : 1);
  if (rc != ACL_SUCCESS) ascendc_sim::KernelFail("Mmad: the cube unit refused the operands (error %d)", rc);
}

// dst (L0C) = bias (one float32 row of n values, broadcast over the m rows) +
// fm * filter when params.isBias; otherwise as the Mmad above.
template <typename DstT, typename SrcT>
__aicore__ inline void Mmad(const LocalTensor<DstT>& dstLocal, const LocalTensor<SrcT>& fmLocal,
                            const LocalTensor<SrcT>& filterLocal, const LocalTensor<float>& biasLocal,
                            const MmadParams& params) {
  MmadParams plain = params;
  plain.isBias = false;
  if (!params.isBias) {
    Mmad(dstLocal, fmLocal, filterLocal, plain);
    return;
  }
  const uint32_t ldc = TileRowPitch<float>(params.n);
  if (biasLocal.GetPhyAddr() == nullptr || dstLocal.GetPhyAddr() == nullptr) {
    ascendc_sim::KernelFail("Mmad: the bias or destination local tensor is not allocated");
  }
  if (params.n > biasLocal.GetSize() ||
      (params.m > 0 && static_cast<uint64_t>(params.m - 1) * ldc + params.n > dstLocal.GetSize())) {
    ascendc_sim::KernelFail("Mmad: m=%u n=%u with bias needs %u bias and %llu dst elements, they have %u/%u", params.m,
                            params.n, params.n, static_cast<unsigned long long>(params.m == 0 ? 0 : (params.m - 1) * ldc + params.n),
                            biasLocal.GetSize(), dstLocal.GetSize());
  }
  for (uint32_t r = 0; r < params.m; ++r) {
    memcpy(dstLocal.GetPhyAddr() + static_cast<uint64_t>(r) * ldc, biasLocal.GetPhyAddr(), params.n * sizeof(float));
  }
  plain.cmatrixInitVal = false;  // accumulate onto the bias rows
  if (params.k > 0) Mmad(dstLocal, fmLocal, filterLocal, plain);
}

template <typename DstT, typename SrcT>
__aicore__ inline void Fixpipe(const GlobalTensor<DstT>& dstGlobal, const LocalTensor<SrcT>& srcLocal,
                               const FixpipeParamsV220& params) {
  static_assert(std::is_same<SrcT, float>::value, "Fixpipe reads the float32 L0C");
  if (params.mSize == 0 || params.nSize == 0) return;
  const uint32_t srcPitch = params.srcStride != 0 ? params.srcStride : TileRowPitch<float>(params.nSize);
  const uint64_t dstPitch = params.dstStride != 0 ? params.dstStride : params.nSize;
  const uint64_t needSrc = static_cast<uint64_t>(params.mSize - 1) * srcPitch + params.nSize;
  if (srcLocal.GetPhyAddr() == nullptr) ascendc_sim::KernelFail("Fixpipe: local tensor is not allocated");
  if (needSrc > srcLocal.GetSize()) {
    ascendc_sim::KernelFail("Fixpipe: %u x %u needs %llu elements of the L0C tensor, it has %u", params.mSize,
                            params.nSize, static_cast<unsigned long long>(needSrc), srcLocal.GetSize());
  }
  dstGlobal.CheckRange("Fixpipe", 0, static_cast<uint64_t>(params.mSize - 1) * dstPitch + params.nSize);
  using A = detail::Arith<DstT>;
  if (params.quantPre != NoQuant && params.quantPre != DEQF16) {
    ascendc_sim::KernelFail("Fixpipe: quantPre %u is not supported by the simulator", params.quantPre);
  }
  float scale = 1.0f;
  if (params.quantPre == DEQF16) {
    const uint32_t bits = static_cast<uint32_t>(params.deqScalar);
    memcpy(&scale, &bits, sizeof(scale));
  }
  for (uint32_t r = 0; r < params.mSize; ++r) {
    const float* __restrict s = srcLocal.GetPhyAddr() + static_cast<uint64_t>(r) * srcPitch;
    typename A::Storage* __restrict d =
        reinterpret_cast<typename A::Storage*>(dstGlobal.GetPhyAddr() + static_cast<uint64_t>(r) * dstPitch);
    if (params.quantPre == DEQF16) {
      for (uint32_t j = 0; j < params.nSize; ++j) {
        const float v = s[j] * scale;
        d[j] = A::Store(static_cast<typename A::Compute>(params.reluEn && !(v > 0.0f) ? 0.0f : v));
      }
    } else if (params.reluEn) {
      for (uint32_t j = 0; j < params.nSize; ++j) d[j] = A::Store(static_cast<typename A::Compute>(s[j] > 0.0f ? s[j] : 0.0f));
    } else {
      for (uint32_t j = 0; j < params.nSize; ++j) d[j] = A::Store(static_cast<typename A::Compute>(s[j]));
    }
  }
}

}  // namespace AscendC

#endif  // ASCENDC_SIM_KERNEL_CUBE_OPS_H
