// matmul_custom: c[b] = a[b] (M x K) * b[b] (K x N), row-major, float32 /
// float16 / bfloat16 (float32 accumulation on the cube unit).
//
// Tiling (host): the output is cut into baseM x baseN tiles (128 x 128: the
// float32 accumulator tile fills half of L0C), K into baseK slices that fill
// L0A/L0B (64 KiB: 128 float32 or 256 half); the batch x mTiles x nTiles tiles
// are spread over min(cores, tiles) blocks in contiguous runs (so consecutive
// tiles of a block share their A row panel); a few tiles are made narrower so
// that both cores get work. sumBatch sums the batch products into one output:
// the K loop of a tile runs through every batch. Per tile and K slice: GM -> A1/B1
// (DataCopyPad, double-buffered queues in L1), A1 -> A2 / B1 -> B2 (LoadData),
// Mmad into CO1 (the first slice initialises it), then Fixpipe to GM.
// A transposed operand (stored k x m / n x k) is copied as stored and turned
// in L1 -> L0 by LoadDataWithTranspose, so t() views are never copied in GM.
// Bias: a row (addmm's 1-D bias, F.linear) goes GM -> UB (cast to float32,
// scaled) -> the bias table (C2) and enters the first Mmad (isBias); a matrix
// bias initialises CO1 the same way, row by row. Fixpipe applies outScale
// (DEQF16) on the way out.
#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "kernels/dtype_dispatch.h"
#include "kernels/kernel_api.h"
#include "kernel_operator.h"

namespace ascendc_sim {
namespace kernels {
namespace {

using namespace AscendC;

struct MatmulTiling {
  uint64_t batch = 0;
  uint32_t m = 0, n = 0, k = 0;
  uint64_t aBatchStride = 0, bBatchStride = 0;  // elements; 0 broadcasts
  uint8_t transA = 0, transB = 0;
  uint8_t sumBatch = 0;
  uint8_t biasKind = 0;  // MatmulBias
  uint64_t biasBatchStride = 0;
  float biasScale = 1.0f, outScale = 1.0f;
  uint32_t baseM = 0, baseN = 0, baseK = 0;
  uint32_t mTiles = 0, nTiles = 0;
  uint64_t tiles = 0;
  uint64_t tilesPerBlock = 0;
  uint32_t blockDim = 0;
};

template <typename T, typename O>  // operands T, output O (T, or float32 for an unrounded product)
class MatmulKernel {
 public:
  __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, const MatmulTiling& tiling) {
    t_ = tiling;
    const uint64_t aElems = t_.aBatchStride * (t_.batch - 1) + static_cast<uint64_t>(t_.m) * t_.k;
    const uint64_t bElems = t_.bBatchStride * (t_.batch - 1) + static_cast<uint64_t>(t_.k) * t_.n;
    aGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(a), aElems);
    bGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(b), bElems);
    cGm_.SetGlobalBuffer(reinterpret_cast<__gm__ O*>(c), (t_.sumBatch ? 1 : t_.batch) * t_.m * t_.n);
    const uint32_t aBytes = AlignFractal(t_.baseM * TileRowPitch<T>(t_.baseK) * sizeof(T));
    const uint32_t bBytes = AlignFractal(t_.baseK * TileRowPitch<T>(t_.baseN) * sizeof(T));
    // A transposed operand sits in L1 as stored (k x m / n x k rows).
    const uint32_t a1Bytes = t_.transA ? AlignFractal(t_.baseK * TileRowPitch<T>(t_.baseM) * sizeof(T)) : aBytes;
    const uint32_t b1Bytes = t_.transB ? AlignFractal(t_.baseN * TileRowPitch<T>(t_.baseK) * sizeof(T)) : bBytes;
    pipe_.InitBuffer(inA1_, 2, a1Bytes);
    pipe_.InitBuffer(inB1_, 2, b1Bytes);
    pipe_.InitBuffer(inA2_, 1, aBytes);
    pipe_.InitBuffer(inB2_, 1, bBytes);
    pipe_.InitBuffer(outCO1_, 1, t_.baseM * TileRowPitch<float>(t_.baseN) * sizeof(float));
    if (t_.biasKind != 0) {
      const uint32_t rows = t_.biasKind == static_cast<uint8_t>(MatmulBias::kBiasRow) ? 1 : t_.baseM;
      const uint64_t biasElems = t_.biasBatchStride * (t_.batch - 1) +
                                 (rows == 1 ? t_.n : static_cast<uint64_t>(t_.m) * t_.n);
      biasGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(bias), biasElems);
      pipe_.InitBuffer(biasIn_, 1, rows * TileRowPitch<T>(t_.baseN) * sizeof(T));
      pipe_.InitBuffer(biasFloat_, TileRowPitch<float>(t_.baseN) * sizeof(float));
      pipe_.InitBuffer(biasTable_, TileRowPitch<float>(t_.baseN) * sizeof(float));
    }
  }

  __aicore__ inline void Process() {
    const uint64_t first = static_cast<uint64_t>(GetBlockIdx()) * t_.tilesPerBlock;
    const uint64_t last = std::min<uint64_t>(t_.tiles, first + t_.tilesPerBlock);
    for (uint64_t tile = first; tile < last; ++tile) ComputeTile(tile);
  }

 private:
  static constexpr uint32_t AlignFractal(uint64_t bytes) {
    return static_cast<uint32_t>((bytes + kFractalBytes - 1) / kFractalBytes * kFractalBytes);
  }

  __aicore__ inline void ComputeTile(uint64_t tile) {
    const uint64_t perBatch = static_cast<uint64_t>(t_.mTiles) * t_.nTiles;
    const uint64_t batch = t_.sumBatch ? 0 : tile / perBatch;
    const uint32_t mt = static_cast<uint32_t>(tile % perBatch / t_.nTiles);
    const uint32_t nt = static_cast<uint32_t>(tile % t_.nTiles);
    const uint32_t m0 = mt * t_.baseM, n0 = nt * t_.baseN;
    const uint32_t mLen = std::min(t_.baseM, t_.m - m0), nLen = std::min(t_.baseN, t_.n - n0);
    LocalTensor<float> c1 = outCO1_.AllocTensor<float>();
    const uint32_t kSteps = (t_.k + t_.baseK - 1) / t_.baseK;
    // Summed batches continue the K loop: step s is K slice s % kSteps of batch s / kSteps.
    const uint64_t steps = kSteps * (t_.sumBatch ? t_.batch : 1);
    const bool biasRow = t_.biasKind == static_cast<uint8_t>(MatmulBias::kBiasRow);
    const bool biasMatrix = t_.biasKind == static_cast<uint8_t>(MatmulBias::kBiasMatrix);
    if (biasRow) LoadBiasRow(batch, n0, nLen);
    if (biasMatrix) LoadBiasMatrix(c1, batch, m0, n0, mLen, nLen);
    if (steps > 0) CopyStep(batch, 0, kSteps, m0, n0, mLen, nLen);
    for (uint64_t s = 0; s < steps; ++s) {
      if (s + 1 < steps) CopyStep(batch, s + 1, kSteps, m0, n0, mLen, nLen);  // double buffering
      const uint32_t kLen = std::min(t_.baseK, t_.k - static_cast<uint32_t>(s % kSteps) * t_.baseK);
      LocalTensor<T> a1 = inA1_.DeQue<T>();
      LocalTensor<T> b1 = inB1_.DeQue<T>();
      LocalTensor<T> a2 = inA2_.AllocTensor<T>();
      LocalTensor<T> b2 = inB2_.AllocTensor<T>();
      if (t_.transA) {
        LoadDataWithTranspose(a2, a1, LoadData2dTransposeParams{static_cast<uint16_t>(kLen), static_cast<uint16_t>(mLen)});
      } else {
        LoadData(a2, a1, Fractals(mLen * TileRowPitch<T>(kLen) * sizeof(T)));
      }
      if (t_.transB) {
        LoadDataWithTranspose(b2, b1, LoadData2dTransposeParams{static_cast<uint16_t>(nLen), static_cast<uint16_t>(kLen)});
      } else {
        LoadData(b2, b1, Fractals(kLen * TileRowPitch<T>(nLen) * sizeof(T)));
      }
      inA1_.FreeTensor(a1);
      inB1_.FreeTensor(b1);
      MmadParams mm;
      mm.m = static_cast<uint16_t>(mLen);
      mm.n = static_cast<uint16_t>(nLen);
      mm.k = static_cast<uint16_t>(kLen);
      mm.cmatrixInitVal = s == 0 && !biasMatrix;
      if (s == 0 && biasRow) {
        mm.isBias = true;
        Mmad(c1, a2, b2, biasTable_.Get<float>(), mm);
      } else {
        Mmad(c1, a2, b2, mm);
      }
      inA2_.FreeTensor(a2);
      inB2_.FreeTensor(b2);
    }
    if (kSteps == 0 && !biasMatrix) {  // K = 0: zeros (plus the bias row)
      Duplicate(c1, 0.0f, mLen * TileRowPitch<float>(nLen));
      if (biasRow) {
        MmadParams mm;
        mm.m = static_cast<uint16_t>(mLen);
        mm.n = static_cast<uint16_t>(nLen);
        mm.isBias = true;
        Mmad(c1, inA2Empty(), inB2Empty(), biasTable_.Get<float>(), mm);
      }
    }
    outCO1_.EnQue(c1);
    c1 = outCO1_.DeQue<float>();
    FixpipeParamsV220 fix;
    fix.mSize = static_cast<uint16_t>(mLen);
    fix.nSize = static_cast<uint16_t>(nLen);
    fix.dstStride = t_.n;
    if (t_.outScale != 1.0f) {
      fix.quantPre = DEQF16;
      fix.deqScalar = DeqScalarOf(t_.outScale);
    }
    Fixpipe(cGm_[batch * t_.m * t_.n + static_cast<uint64_t>(m0) * t_.n + n0], c1, fix);
    outCO1_.FreeTensor(c1);
  }

  static __aicore__ inline LoadData2DParams Fractals(uint64_t bytes) {
    LoadData2DParams p;
    p.repeatTimes = static_cast<uint8_t>((bytes + kFractalBytes - 1) / kFractalBytes);
    p.srcStride = 1;
    return p;
  }

  // An empty L0 operand (K = 0 with a bias: the product is the bias alone).
  __aicore__ inline LocalTensor<T> inA2Empty() { return LocalTensor<T>(); }
  __aicore__ inline LocalTensor<T> inB2Empty() { return LocalTensor<T>(); }

  // `count` bias values of T (UB) -> float32 * biasScale into dst.
  __aicore__ inline void BiasToFloat(const LocalTensor<float>& dst, const LocalTensor<T>& src, uint32_t count) {
    if constexpr (std::is_same<T, float>::value) {
      Muls(dst, src, t_.biasScale, count);
    } else {
      Cast(dst, src, RoundMode::CAST_NONE, count);
      if (t_.biasScale != 1.0f) Muls(dst, dst, t_.biasScale, count);
    }
  }

  // bias[batch][n0 : n0 + nLen] -> the bias table (float32).
  __aicore__ inline void LoadBiasRow(uint64_t batch, uint32_t n0, uint32_t nLen) {
    LocalTensor<T> in = biasIn_.AllocTensor<T>();
    DataCopyExtParams copy{1, static_cast<uint32_t>(nLen * sizeof(T)), 0, 0, 0};
    DataCopyPad(in, biasGm_[batch * t_.biasBatchStride + n0], copy, DataCopyPadExtParams<T>{});
    biasIn_.EnQue(in);
    in = biasIn_.DeQue<T>();
    LocalTensor<float> row = biasFloat_.Get<float>();
    BiasToFloat(row, in, nLen);
    biasIn_.FreeTensor(in);
    DataCopy(biasTable_.Get<float>(), row, TileRowPitch<float>(nLen));
  }

  // The matrix bias tile (mLen x nLen at m0, n0) as the accumulator's initial value.
  __aicore__ inline void LoadBiasMatrix(const LocalTensor<float>& c1, uint64_t batch, uint32_t m0, uint32_t n0,
                                        uint32_t mLen, uint32_t nLen) {
    LocalTensor<T> in = biasIn_.AllocTensor<T>();
    DataCopyExtParams copy{static_cast<uint16_t>(mLen), static_cast<uint32_t>(nLen * sizeof(T)),
                           static_cast<uint32_t>((t_.n - nLen) * sizeof(T)), 0, 0};
    DataCopyPad(in, biasGm_[batch * t_.biasBatchStride + static_cast<uint64_t>(m0) * t_.n + n0], copy,
                DataCopyPadExtParams<T>{});
    biasIn_.EnQue(in);
    in = biasIn_.DeQue<T>();
    const uint32_t inPitch = TileRowPitch<T>(nLen), outPitch = TileRowPitch<float>(nLen);
    for (uint32_t r = 0; r < mLen; ++r) BiasToFloat(c1[r * outPitch], in[r * inPitch], nLen);
    biasIn_.FreeTensor(in);
  }

  // The operands of step s (K slice s % kSteps of batch `batch` + s / kSteps) into L1.
  __aicore__ inline void CopyStep(uint64_t batch, uint64_t s, uint32_t kSteps, uint32_t m0, uint32_t n0,
                                  uint32_t mLen, uint32_t nLen) {
    const uint64_t b = batch + s / kSteps;
    CopyIn(aGm_[b * t_.aBatchStride], bGm_[b * t_.bBatchStride], m0, n0, mLen, nLen,
           static_cast<uint32_t>(s % kSteps) * t_.baseK);
  }

  __aicore__ inline void CopyIn(const GlobalTensor<T>& aBatch, const GlobalTensor<T>& bBatch, uint32_t m0, uint32_t n0,
                                uint32_t mLen, uint32_t nLen, uint32_t k0) {
    const uint32_t kLen = std::min(t_.baseK, t_.k - k0);
    LocalTensor<T> a1 = inA1_.AllocTensor<T>();
    LocalTensor<T> b1 = inB1_.AllocTensor<T>();
    if (t_.transA) {  // stored k x m
      DataCopyExtParams aCopy{static_cast<uint16_t>(kLen), static_cast<uint32_t>(mLen * sizeof(T)),
                              static_cast<uint32_t>((t_.m - mLen) * sizeof(T)), 0, 0};
      DataCopyPad(a1, aBatch[static_cast<uint64_t>(k0) * t_.m + m0], aCopy, DataCopyPadExtParams<T>{});
    } else {
      DataCopyExtParams aCopy{static_cast<uint16_t>(mLen), static_cast<uint32_t>(kLen * sizeof(T)),
                              static_cast<uint32_t>((t_.k - kLen) * sizeof(T)), 0, 0};
      DataCopyPad(a1, aBatch[static_cast<uint64_t>(m0) * t_.k + k0], aCopy, DataCopyPadExtParams<T>{});
    }
    if (t_.transB) {  // stored n x k
      DataCopyExtParams bCopy{static_cast<uint16_t>(nLen), static_cast<uint32_t>(kLen * sizeof(T)),
                              static_cast<uint32_t>((t_.k - kLen) * sizeof(T)), 0, 0};
      DataCopyPad(b1, bBatch[static_cast<uint64_t>(n0) * t_.k + k0], bCopy, DataCopyPadExtParams<T>{});
    } else {
      DataCopyExtParams bCopy{static_cast<uint16_t>(kLen), static_cast<uint32_t>(nLen * sizeof(T)),
                              static_cast<uint32_t>((t_.n - nLen) * sizeof(T)), 0, 0};
      DataCopyPad(b1, bBatch[static_cast<uint64_t>(k0) * t_.n + n0], bCopy, DataCopyPadExtParams<T>{});
    }
    inA1_.EnQue(a1);
    inB1_.EnQue(b1);
  }

  MatmulTiling t_;
  TPipe pipe_;
  TQue<TPosition::A1, 2> inA1_;
  TQue<TPosition::B1, 2> inB1_;
  TQue<TPosition::A2, 1> inA2_;
  TQue<TPosition::B2, 1> inB2_;
  TQue<TPosition::CO1, 1> outCO1_;
  TQue<TPosition::VECIN, 1> biasIn_;
  TBuf<TPosition::VECCALC> biasFloat_;
  TBuf<TPosition::C2> biasTable_;  // the bias table (a unified-buffer region in the simulator)
  GlobalTensor<T> aGm_, bGm_, biasGm_;
  GlobalTensor<O> cGm_;
};

template <typename T, typename O>
__global__ __aicore__ void matmul_custom(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, MatmulTiling tiling) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
  MatmulKernel<T, O> op;
  op.Init(a, b, bias, c, tiling);
  op.Process();
}

// The tile width (a multiple of 16 up to 128) whose tiles, in contiguous runs per block, leave the
// busiest block the least work: few wide tiles would otherwise leave a core idle (n = 144: 128 + 16).
uint32_t BalancedBaseN(uint64_t rowTiles, uint32_t n, uint64_t cores) {
  constexpr uint32_t kWidest = 128, kStep = 16, kTileOverhead = 32;  // overhead in columns' worth of work
  const uint64_t widest = rowTiles * ((n + kWidest - 1) / kWidest);
  if (widest == 0 || widest >= 8 * cores) return kWidest;
  uint32_t best = kWidest;
  uint64_t bestLoad = UINT64_MAX;
  for (uint32_t base = kWidest; base >= kStep; base -= kStep) {
    const uint64_t nTiles = (n + base - 1) / base, tiles = rowTiles * nTiles;
    const uint64_t perBlock = (tiles + std::min(cores, tiles) - 1) / std::min(cores, tiles);
    uint64_t load = 0;
    for (uint64_t first = 0; first < tiles; first += perBlock) {
      uint64_t blockLoad = 0;
      for (uint64_t tile = first; tile < std::min(tiles, first + perBlock); ++tile) {
        const uint64_t nt = tile % nTiles;
        blockLoad += std::min<uint64_t>(base, n - nt * base) + kTileOverhead;
      }
      load = std::max(load, blockLoad);
    }
    if (load < bestLoad) {
      bestLoad = load;
      best = base;
    }
  }
  return best;
}

}  // namespace

aclError LaunchMatmul(const MatmulArgs& args, aclrtStream stream) {
  auto launch = [&](auto tag) -> aclError {
    using T = typename decltype(tag)::type;
    MatmulTiling t;
    t.batch = args.batch;
    t.m = static_cast<uint32_t>(args.m);
    t.n = static_cast<uint32_t>(args.n);
    t.k = static_cast<uint32_t>(args.k);
    t.aBatchStride = args.aBatchStride;
    t.bBatchStride = args.bBatchStride;
    t.transA = args.transA ? 1 : 0;
    t.transB = args.transB ? 1 : 0;
    t.biasKind = args.bias == nullptr ? 0 : static_cast<uint8_t>(args.biasKind);
    t.biasBatchStride = args.biasBatchStride;
    t.biasScale = args.biasScale;
    t.outScale = args.outScale;
    t.sumBatch = args.sumBatch ? 1 : 0;
    t.baseM = 128;
    t.baseK = static_cast<uint32_t>((64u << 10) / (t.baseM * sizeof(T)));
    t.mTiles = (t.m + t.baseM - 1) / t.baseM;
    const uint64_t outputs = t.sumBatch ? 1 : t.batch;
    const uint64_t cores = std::max<uint32_t>(1, aclsimGetCoreNumAiv());
    t.baseN = BalancedBaseN(outputs * t.mTiles, t.n, cores);
    t.nTiles = (t.n + t.baseN - 1) / t.baseN;
    t.tiles = outputs * t.mTiles * t.nTiles;
    if (t.tiles == 0) return ACL_SUCCESS;
    const uint64_t blocks = std::min<uint64_t>(cores, t.tiles);
    t.tilesPerBlock = (t.tiles + blocks - 1) / blocks;
    t.blockDim = static_cast<uint32_t>((t.tiles + t.tilesPerBlock - 1) / t.tilesPerBlock);
    if (args.floatOutput) {
      return LaunchKernel("matmul_custom", t.blockDim, stream, matmul_custom<T, float>, args.a, args.b, args.bias,
                          args.c, t);
    }
    return LaunchKernel("matmul_custom", t.blockDim, stream, matmul_custom<T, T>, args.a, args.b, args.bias, args.c, t);
  };
  switch (args.dtype) {
    case ACL_FLOAT: return launch(TypeTag<float>{});
    case ACL_FLOAT16: return launch(TypeTag<half>{});
    case ACL_BF16: return launch(TypeTag<bfloat16_t>{});
    default:
      return RaiseError(ACL_ERROR_UNSUPPORTED_DATA_TYPE, "kernel 'matmul_custom' does not support data type %s",
                        DataTypeName(args.dtype));
  }
}

}  // namespace kernels
}  // namespace ascendc_sim
