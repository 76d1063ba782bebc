// Kernel launch on the simulated device: the part of the toolkit that a
// bisheng-compiled `kernel<<<blockDim, l2ctrl, stream>>>(args)` or a generated
// ACLRT_LAUNCH_KERNEL(name)(blockDim, stream, args...) would do on hardware.
//
// A launch is queued on `stream`. When it runs, the simulator executes blocks
// 0..blockDim-1 on its simulated AI cores (host threads), each block with its
// own unified buffer; a block reads its index with aclsimGetBlockIdx().
#ifndef ASCENDC_SIM_LAUNCH_H
#define ASCENDC_SIM_LAUNCH_H

#include "acl/acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

// Runs one block of a kernel. `ctx` is the launch's argument pack.
typedef void (*aclsimBlockFn)(void* ctx);
typedef void (*aclsimCtxDestroyFn)(void* ctx);

// Queues `blockDim` blocks of `fn` on `stream`. The simulator owns `ctx` from
// here on and calls `destroy(ctx)` (if not null) after the last block ran.
// (A refused launch - an error returned here - has already destroyed ctx.)
ACL_FUNC_VISIBILITY aclError aclsimLaunchKernel(const char* kernelName, uint32_t blockDim, aclrtStream stream,
                                               aclsimBlockFn fn, void* ctx, aclsimCtxDestroyFn destroy);

// Inside a block: its index and the launch's block count.
ACL_FUNC_VISIBILITY uint32_t aclsimGetBlockIdx(void);
ACL_FUNC_VISIBILITY uint32_t aclsimGetBlockNum(void);
// Inside a block: the current AI core's unified buffer and its size in bytes.
ACL_FUNC_VISIBILITY void* aclsimGetUnifiedBuffer(uint64_t* size);
// Inside a block: fails the running launch with `msg`; remaining blocks are
// skipped and the error surfaces at the next synchronising call on the stream.
ACL_FUNC_VISIBILITY void aclsimReportKernelError(const char* msg);
// Number of simulated vector (AIV) cores of the current device; tiling derives
// block counts from it. ASCEND_SIM_AICORE_NUM overrides the default.
ACL_FUNC_VISIBILITY uint32_t aclsimGetCoreNumAiv(void);
// Unified buffer bytes per core (ASCEND_SIM_UB_SIZE, default 192 KiB).
ACL_FUNC_VISIBILITY uint64_t aclsimGetUbSize(void);

// The local memories of a simulated AI core (Atlas A2 sizes): the unified
// buffer (vector unit), L1 (cube inputs A1/B1), L0A (A2), L0B (B2), L0C (CO1).
typedef enum {
  ACLSIM_MEM_UB = 0,
  ACLSIM_MEM_L1 = 1,
  ACLSIM_MEM_L0A = 2,
  ACLSIM_MEM_L0B = 3,
  ACLSIM_MEM_L0C = 4,
} aclsimLocalMemory;

// Inside a block: the current core's local memory `kind` and its size in bytes
// (UB: as aclsimGetUnifiedBuffer; L1 512 KiB, L0A 64 KiB, L0B 64 KiB, L0C 128 KiB).
ACL_FUNC_VISIBILITY void* aclsimGetLocalMemory(aclsimLocalMemory kind, uint64_t* size);

// The cube unit: c[m x n] (+)= a[m x k] * b[k x n], row-major with row pitches
// lda, ldb, ldc (elements); a and b of `abType` (ACL_FLOAT, ACL_FLOAT16,
// ACL_BF16), c float32 (the accumulator). `accumulate` 0 overwrites c. Returns
// ACL_ERROR_INVALID_PARAM for another type.
ACL_FUNC_VISIBILITY aclError aclsimCubeMmad(float* c, const void* a, const void* b, uint32_t m, uint32_t n,
                                           uint32_t k, uint32_t lda, uint32_t ldb, uint32_t ldc,
                                           aclDataType abType, int accumulate);
// The cube unit's transposing L1 -> L0 load (LoadDataWithTranspose) of elements of
// `elementBytes` (2 or 4): dst[c * dstPitch + r] = src[r * srcPitch + c] for r < rows, c < cols
// (pitches in elements); 4-byte 8 x 8 blocks in AVX2 registers where the host has them. The
// bits are moved unchanged. Returns ACL_ERROR_INVALID_PARAM for another element size.
ACL_FUNC_VISIBILITY aclError aclsimCubeTranspose(void* dst, uint32_t dstPitch, const void* src, uint32_t srcPitch,
                                                 uint32_t rows, uint32_t cols, uint32_t elementBytes);

// The vector unit's float32 exp (AscendC::Exp on float): dst[i] = e^src[i]
// with the polynomial of AscendC::detail::ExpFloat, run with the widest SIMD
// the host has (AVX-512, AVX2, else SSE2), chosen at run time.
ACL_FUNC_VISIBILITY void aclsimVectorExpF32(float* dst, const float* src, uint32_t n);

// The vector unit's float32 arithmetic (AscendC::Add/Sub/Mul/Div/Max/Min, Adds/Muls
// and ReduceSum on float), same SIMD choice. dst may be a source (same start).
// Max/Min keep a NaN of src1 and drop one of src0 (as `a > b ? a : b`); the sum
// adds in 64 lanes then pairwise, so its result does not depend on the SIMD width.
typedef enum {
  ACLSIM_VEC_ADD = 0,
  ACLSIM_VEC_SUB = 1,
  ACLSIM_VEC_MUL = 2,
  ACLSIM_VEC_DIV = 3,
  ACLSIM_VEC_MAX = 4,
  ACLSIM_VEC_MIN = 5,
} aclsimVectorOp;
ACL_FUNC_VISIBILITY void aclsimVectorBinaryF32(aclsimVectorOp op, float* dst, const float* src0, const float* src1,
                                               uint32_t n);
// dst = src op scalar (ACLSIM_VEC_ADD: Adds, ACLSIM_VEC_MUL: Muls).
ACL_FUNC_VISIBILITY void aclsimVectorScalarF32(aclsimVectorOp op, float* dst, const float* src, float scalar,
                                               uint32_t n);
ACL_FUNC_VISIBILITY float aclsimVectorReduceSumF32(const float* src, uint32_t n);
// Max (isMax != 0) or min of n > 0 values ignoring NaNs; *sawNan is set to 1 when
// a NaN may be among them (also set by infinities: the caller then scans).
ACL_FUNC_VISIBILITY float aclsimVectorReduceExtremeF32(const float* src, uint32_t n, int isMax, int* sawNan);

// The vector unit's float32 math functions (AscendC::Sin, Cos, Tan, Ln, Log2, Log10, Log1p,
// Exp2, Expm1, Tanh, Erf, Erfc, Sinh, Cosh, Asinh, Acosh, Atanh, Atan, Asin, Acos and Power
// on float): dst[i] = f(src[i]) within 1 ulp of the correctly rounded value, with libm's
// special values; same SIMD choice, same bits on every ISA. dst may be a source (same start).
typedef enum {
  ACLSIM_MATH_SIN = 0,
  ACLSIM_MATH_COS = 1,
  ACLSIM_MATH_TAN = 2,
  ACLSIM_MATH_LOG = 3,
  ACLSIM_MATH_LOG2 = 4,
  ACLSIM_MATH_LOG10 = 5,
  ACLSIM_MATH_LOG1P = 6,
  ACLSIM_MATH_EXP2 = 7,
  ACLSIM_MATH_EXPM1 = 8,
  ACLSIM_MATH_TANH = 9,
  ACLSIM_MATH_ERF = 10,
  ACLSIM_MATH_ERFC = 11,
  ACLSIM_MATH_SINH = 12,
  ACLSIM_MATH_COSH = 13,
  ACLSIM_MATH_ASINH = 14,
  ACLSIM_MATH_ACOSH = 15,
  ACLSIM_MATH_ATANH = 16,
  ACLSIM_MATH_ATAN = 17,
  ACLSIM_MATH_ASIN = 18,
  ACLSIM_MATH_ACOS = 19,
  ACLSIM_MATH_GELU = 20,  // x Phi(x), the exact (erf) GELU
} aclsimMathFunction;
ACL_FUNC_VISIBILITY void aclsimVectorMathF32(aclsimMathFunction fn, float* dst, const float* src, uint32_t n);
// dst[i] = pow(base[i], exponent[i]) (std::pow's special values).
ACL_FUNC_VISIBILITY void aclsimVectorPowF32(float* dst, const float* base, const float* exponent, uint32_t n);
// dst[i] = pow(base[i], exponent) with the exponent in double (std::pow's special values).
ACL_FUNC_VISIBILITY void aclsimVectorPowScalarF32(float* dst, const float* base, double exponent, uint32_t n);

// Float32 values accumulated in double (variance moments), same SIMD choice and
// a lane order independent of it: sum of src, and sum of (src - mean)^2.
ACL_FUNC_VISIBILITY double aclsimVectorSumF32AsF64(const float* src, uint32_t n);
ACL_FUNC_VISIBILITY double aclsimVectorSquaredDeviationF32(const float* src, uint32_t n, double mean);

// Normalization rows in one pass each, same SIMD choice, the bits of the instructions they
// replace: dst = (src - mean) * rstd [* gamma] [+ beta] (gamma/beta may be null; Adds, Muls,
// Mul, Add); dst = exp(src - shift) returning the sum of dst (Adds, Exp, ReduceSum).
ACL_FUNC_VISIBILITY void aclsimVectorNormalizeF32(float* dst, const float* src, float mean, float rstd,
                                                  const float* gamma, const float* beta, uint32_t n);
ACL_FUNC_VISIBILITY float aclsimVectorExpShiftSumF32(float* dst, const float* src, float shift, uint32_t n);

// The vector unit's conversions between float32 and the 2-byte floating types (AscendC::Cast
// between float and half or bfloat16_t), same SIMD choice, the same bits on every level:
// `type` is ACL_FLOAT16 or ACL_BF16 (src/dst hold their bits). To float32 is exact (a
// float16 signalling NaN comes out quiet); from float32 rounds to nearest even, overflows to
// inf and turns NaN into sign | 0x7e00 (float16) or its top half with the quiet bit (bfloat16).
ACL_FUNC_VISIBILITY void aclsimVectorCastToF32(aclDataType type, float* dst, const uint16_t* src, uint32_t n);
ACL_FUNC_VISIBILITY void aclsimVectorCastFromF32(aclDataType type, uint16_t* dst, const float* src, uint32_t n);
// dst = src0 * src1 + dst rounded once (AscendC::MulAddDst on float).
ACL_FUNC_VISIBILITY void aclsimVectorMulAddDstF32(float* dst, const float* src0, const float* src1, uint32_t n);
// AscendC::Compare / CompareScalar on float: mask bit i (bit i % 8 of byte i / 8) = src0[i] <cmpMode>
// src1[i], or <cmpMode> scalar when src1 is null; cmpMode in AscendC::CMPMODE's order (LT, GT, EQ, LE,
// GE, NE; NaN compares unequal); the last byte's unused bits are 0.
ACL_FUNC_VISIBILITY void aclsimVectorCompareF32(int cmpMode, uint8_t* mask, const float* src0, const float* src1,
                                                float scalar, uint32_t n);
// AscendC::Select on 4-byte elements: dst[i] = mask bit i ? src0[i] : src1[i] (src1 null: scalarBits).
// dst may be a source (same start).
// AscendC::Maxs (src < scalar ? scalar : src, NaN kept), Mins (src < scalar ? src : scalar),
// Reciprocal (1 / src), Ceil/Floor/Round (half to even)/Trunc and Sigmoid on float (scalar unused
// but by Maxs, Mins and Sigmoid). dst may be src (same start).
typedef enum {
  ACLSIM_VEC_MAXS = 0,
  ACLSIM_VEC_MINS = 1,
  ACLSIM_VEC_RECIPROCAL = 2,
  ACLSIM_VEC_CEIL = 3,
  ACLSIM_VEC_FLOOR = 4,
  ACLSIM_VEC_ROUND = 5,
  ACLSIM_VEC_TRUNC = 6,
  ACLSIM_VEC_SIGMOID = 7,  // 1 / (e^(src * scalar) + 1): Sigmoid with the scalar -1, in one pass
} aclsimVectorUnaryOp;
ACL_FUNC_VISIBILITY void aclsimVectorUnaryF32(aclsimVectorUnaryOp op, float* dst, const float* src, float scalar,
                                              uint32_t n);
// AscendC::FloorDivide: dst[i] = src0[i] // src1[i] as Python (and CPU) floor-divide floats, `type`
// ACL_FLOAT, or ACL_FLOAT16 / ACL_BF16 (their bits; each step rounded to the type, as CPU computes).
ACL_FUNC_VISIBILITY void aclsimVectorFloorDivide(aclDataType type, void* dst, const void* src0, const void* src1,
                                                 uint32_t n);
ACL_FUNC_VISIBILITY void aclsimVectorSelectB32(void* dst, const uint8_t* mask, const void* src0, const void* src1,
                                               uint32_t scalarBits, uint32_t n);

// AscendC::Add/Sub/Mul/Div/Max/Min on half or bfloat16_t (`type` ACL_FLOAT16 or ACL_BF16, src/dst
// their bits): each pair cast to float32, the float32 instruction, the result cast back, as
// aclsimVectorCastToF32, aclsimVectorBinaryF32 and aclsimVectorCastFromF32 in turn would give
// (for + - * / the correctly rounded 16-bit result). dst may be a source (same start).
ACL_FUNC_VISIBILITY void aclsimVectorBinaryB16(aclDataType type, aclsimVectorOp op, uint16_t* dst,
                                               const uint16_t* src0, const uint16_t* src1, uint32_t n);
// Clamp of half or bfloat16_t values to float32 bounds in one pass: each cast to float32, Maxs(lo),
// Mins(hi), a NaN of src kept (a Select), the result cast back; the bits of those steps. Bounds not NaN.
ACL_FUNC_VISIBILITY void aclsimVectorClampB16(aclDataType type, uint16_t* dst, const uint16_t* src, float lo,
                                              float hi, uint32_t n);
// AscendC::Ceil/Floor/Round/Trunc on half or bfloat16_t (op ACLSIM_VEC_CEIL..ACLSIM_VEC_TRUNC): the bits
// of the cast to float32, aclsimVectorUnaryF32's rounding and the cast back. dst may be src (same start).
ACL_FUNC_VISIBILITY void aclsimVectorRoundB16(aclDataType type, aclsimVectorUnaryOp op, uint16_t* dst,
                                              const uint16_t* src, uint32_t n);

#ifdef __cplusplus
}
#endif

#endif  // ASCENDC_SIM_LAUNCH_H
