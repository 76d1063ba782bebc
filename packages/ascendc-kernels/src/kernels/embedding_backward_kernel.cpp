// embedding_dense_backward_custom: gradWeight[w, :] = sum of grad[i, :] over the
// i with indices[i] == w (float32 accumulation), skipping paddingIdx; with
// scaleGradByFreq each row is divided by its number of occurrences.
//
// Blocks split the embedding dimension into column ranges, so every block owns
// its columns of every weight row: the accumulation order is the index order
// in every block (deterministic, no atomics). Per index a block stages its
// segment of the grad row in the unified buffer and adds it to the weight row.
// The occurrence counts come from a first single-block kernel.
#include <algorithm>

#include "ascendc_sim/kernel/trap.h"
#include "ascendc_sim/launch.h"
#include "kernels/dtype_dispatch.h"
#include "kernels/index_kernel_api.h"
#include "kernels/kernel_helpers.h"

namespace ascendc_sim {
namespace kernels {
namespace {

struct EmbeddingTiling {
  int64_t numIndices = 0, numWeights = 0, dim = 0, paddingIdx = -1;
  int64_t colsPerBlock = 0;
  uint32_t chunk = 0;  // columns per unified-buffer tile
  bool index64 = true;
  bool scale = false;
};

__aicore__ inline int64_t ReadIndex(GM_ADDR indices, bool index64, int64_t i, int64_t numWeights) {
  const int64_t v = index64 ? reinterpret_cast<const int64_t*>(indices)[i]
                            : static_cast<int64_t>(reinterpret_cast<const int32_t*>(indices)[i]);
  if (v < 0 || v >= numWeights) {
    KernelFail("embedding_dense_backward: index %lld is out of range for %lld embeddings", static_cast<long long>(v),
               static_cast<long long>(numWeights));
  }
  return v;
}

// counts[w] = occurrences of w in indices (float32), one block.
__global__ __aicore__ void embedding_count_custom(GM_ADDR indices, GM_ADDR counts, EmbeddingTiling t) {
  AscendC::GlobalTensor<float> countGm;
  countGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(counts), static_cast<uint64_t>(t.numWeights));
  for (int64_t w = 0; w < t.numWeights; ++w) countGm.SetValue(static_cast<uint64_t>(w), 0.0f);
  for (int64_t i = 0; i < t.numIndices; ++i) {
    const uint64_t w = static_cast<uint64_t>(ReadIndex(indices, t.index64, i, t.numWeights));
    countGm.SetValue(w, countGm.GetValue(w) + 1.0f);
  }
}

template <typename T>
__global__ __aicore__ void embedding_dense_backward_custom(GM_ADDR grad, GM_ADDR indices, GM_ADDR counts,
                                                           GM_ADDR gradWeight, EmbeddingTiling t) {
  const int64_t c0 = static_cast<int64_t>(AscendC::GetBlockIdx()) * t.colsPerBlock;
  const int64_t c1 = std::min(t.dim, c0 + t.colsPerBlock);
  if (c0 >= c1) return;
  AscendC::GlobalTensor<T> gradGm;
  AscendC::GlobalTensor<float> weightGm;
  gradGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(grad), static_cast<uint64_t>(t.numIndices * t.dim));
  weightGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(gradWeight), static_cast<uint64_t>(t.numWeights * t.dim));
  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQueue;
  AscendC::TBuf<AscendC::TPosition::VECCALC> accBuf;
  pipe.InitBuffer(inQueue, BUFFER_NUM, t.chunk * sizeof(T));
  pipe.InitBuffer(accBuf, t.chunk * sizeof(float));
  AscendC::LocalTensor<float> acc = accBuf.Get<float>();
  // Zero this block's columns of every weight row.
  for (int64_t c = c0; c < c1; c += t.chunk) {
    const uint32_t n = static_cast<uint32_t>(std::min<int64_t>(t.chunk, c1 - c));
    AscendC::Duplicate(acc, 0.0f, n);
    for (int64_t w = 0; w < t.numWeights; ++w) CopyTileOut(weightGm[static_cast<uint64_t>(w * t.dim + c)], acc, n);
  }
  for (int64_t i = 0; i < t.numIndices; ++i) {
    const int64_t w = ReadIndex(indices, t.index64, i, t.numWeights);
    if (w == t.paddingIdx) continue;
    const float scale =
        t.scale ? 1.0f / reinterpret_cast<const float*>(counts)[w] : 1.0f;
    for (int64_t c = c0; c < c1; c += t.chunk) {
      const uint32_t n = static_cast<uint32_t>(std::min<int64_t>(t.chunk, c1 - c));
      AscendC::LocalTensor<T> g = inQueue.AllocTensor<T>();
      CopyTileIn(g, gradGm[static_cast<uint64_t>(i * t.dim + c)], n);
      inQueue.EnQue(g);
      AscendC::LocalTensor<T> gIn = inQueue.DeQue<T>();
      const AscendC::GlobalTensor<float> row = weightGm[static_cast<uint64_t>(w * t.dim + c)];
      CopyTileIn(acc, row, n);
      for (uint32_t k = 0; k < n; ++k) acc.SetValue(k, acc.GetValue(k) + static_cast<float>(gIn.GetValue(k)) * scale);
      inQueue.FreeTensor(gIn);
      CopyTileOut(row, acc, n);
    }
  }
}

}  // namespace

aclError LaunchEmbeddingDenseBackward(const EmbeddingBackwardArgs& args, aclrtStream stream) {
  if (args.indexDtype != ACL_INT64 && args.indexDtype != ACL_INT32) {
    return RaiseError(ACL_ERROR_UNSUPPORTED_DATA_TYPE,
                      "kernel 'embedding_dense_backward_custom': indices must be int32 or int64, got %s",
                      DataTypeName(args.indexDtype));
  }
  if (args.numWeights == 0 || args.dim == 0) return ACL_SUCCESS;
  EmbeddingTiling t;
  t.numIndices = args.numIndices;
  t.numWeights = args.numWeights;
  t.dim = args.dim;
  t.paddingIdx = args.paddingIdx;
  t.index64 = args.indexDtype == ACL_INT64;
  t.scale = args.scaleGradByFreq;
  // Column blocks of at least 64 columns, at most one per core.
  const int64_t cores = std::max<uint32_t>(1, aclsimGetCoreNumAiv());
  const int64_t blocks = std::max<int64_t>(1, std::min<int64_t>(cores, args.dim / 64));
  t.colsPerBlock = (args.dim + blocks - 1) / blocks;
  t.chunk = static_cast<uint32_t>(std::min<int64_t>(2048, (t.colsPerBlock + 31) / 32 * 32));
  const uint32_t blockDim = static_cast<uint32_t>((args.dim + t.colsPerBlock - 1) / t.colsPerBlock);
  if (t.scale && t.numIndices > 0) {
    aclError rc = LaunchKernel("embedding_count_custom", 1, stream, embedding_count_custom, args.indices,
                               args.counts, t);
    if (rc != ACL_SUCCESS) return rc;
  }
  const void* grad = args.grad;
  const void* indices = args.indices;
  const void* counts = args.counts;
  void* gradWeight = args.gradWeight;
  return DispatchKernelType(args.dtype, "embedding_dense_backward_custom", [&](auto tag) -> aclError {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same<T, float>::value || std::is_same<T, half>::value ||
                  std::is_same<T, bfloat16_t>::value) {
      return LaunchKernel("embedding_dense_backward_custom", blockDim, stream, embedding_dense_backward_custom<T>,
                          grad, indices, counts, gradWeight, t);
    } else {
      return RaiseError(ACL_ERROR_UNSUPPORTED_DATA_TYPE,
                        "kernel 'embedding_dense_backward_custom' does not support data type %s",
                        DataTypeName(args.dtype));
    }
  });
}

}  // namespace kernels
}  // namespace ascendc_sim
