// max_pool2d_custom over x [batch, channels, h, w] (the backward is plane_scatter_custom).
//
// Blocks take ranges of (batch, channel) planes. Per output row a unified-buffer
// tile of values and one of int64 indices (h * w + col within the plane; padding
// reads as -inf, NaN wins as in PyTorch), each written with DataCopy.
#include <math.h>

#include <algorithm>
#include <type_traits>

#include "ascendc_sim/kernel/trap.h"
#include "ascendc_sim/launch.h"
#include "kernels/dtype_dispatch.h"
#include "kernels/index_kernel_api.h"
#include "kernels/kernel_helpers.h"

namespace ascendc_sim {
namespace kernels {
namespace {

struct PoolTiling {
  WindowGeometry g;
  int64_t planes = 0, planesPerBlock = 0;
  uint32_t chunk = 0;
};

constexpr uint32_t kMaxChunk = 4096;

template <typename T>
__global__ __aicore__ void max_pool2d_custom(GM_ADDR x, GM_ADDR y, GM_ADDR indices, PoolTiling t) {
  using C = typename std::conditional<std::is_same<T, double>::value, double, float>::type;
  const WindowGeometry& g = t.g;
  const int64_t first = static_cast<int64_t>(AscendC::GetBlockIdx()) * t.planesPerBlock;
  const int64_t last = std::min(t.planes, first + t.planesPerBlock);
  const int64_t hw = g.h * g.w;
  AscendC::GlobalTensor<T> xGm, yGm;
  AscendC::GlobalTensor<int64_t> iGm;
  xGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(x), static_cast<uint64_t>(t.planes * hw));
  yGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(y), static_cast<uint64_t>(t.planes * g.outH * g.outW));
  iGm.SetGlobalBuffer(reinterpret_cast<__gm__ int64_t*>(indices), static_cast<uint64_t>(t.planes * g.outH * g.outW));
  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> valueQueue, indexQueue;
  pipe.InitBuffer(valueQueue, BUFFER_NUM, t.chunk * sizeof(T));
  pipe.InitBuffer(indexQueue, BUFFER_NUM, t.chunk * sizeof(int64_t));
  const T* xp = xGm.GetPhyAddr();
  for (int64_t p = first; p < last; ++p) {
    const T* plane = xp + p * hw;
    for (int64_t oh = 0; oh < g.outH; ++oh) {
      const int64_t h0 = oh * g.sh - g.ph;
      for (int64_t c0 = 0; c0 < g.outW; c0 += t.chunk) {
        const uint32_t n = static_cast<uint32_t>(std::min<int64_t>(t.chunk, g.outW - c0));
        AscendC::LocalTensor<T> values = valueQueue.AllocTensor<T>();
        AscendC::LocalTensor<int64_t> index = indexQueue.AllocTensor<int64_t>();
        for (uint32_t k = 0; k < n; ++k) {
          const int64_t w0 = (c0 + k) * g.sw - g.pw;
          // As PyTorch's CPU kernel: the first element of the window starts, a larger one
          // or any NaN (the last NaN) replaces it.
          C best = -INFINITY;
          int64_t bestIndex = -1;
          for (int64_t i = 0; i < g.kh; ++i) {
            const int64_t h = h0 + i * g.dh;
            if (h < 0 || h >= g.h) continue;
            for (int64_t j = 0; j < g.kw; ++j) {
              const int64_t w = w0 + j * g.dw;
              if (w < 0 || w >= g.w) continue;
              const int64_t at = h * g.w + w;
              const C v = static_cast<C>(plane[at]);
              if (bestIndex < 0 || v > best || isnan(v)) {
                best = v;
                bestIndex = at;
              }
            }
          }
          values.SetValue(k, bestIndex < 0 ? static_cast<T>(-INFINITY) : plane[bestIndex]);
          index.SetValue(k, bestIndex < 0 ? h0 * g.w + w0 : bestIndex);
        }
        valueQueue.EnQue(values);
        indexQueue.EnQue(index);
        const uint64_t at = static_cast<uint64_t>((p * g.outH + oh) * g.outW + c0);
        AscendC::LocalTensor<T> vOut = valueQueue.DeQue<T>();
        CopyTileOut(yGm[at], vOut, n);
        valueQueue.FreeTensor(vOut);
        AscendC::LocalTensor<int64_t> iOut = indexQueue.DeQue<int64_t>();
        CopyTileOut(iGm[at], iOut, n);
        indexQueue.FreeTensor(iOut);
      }
    }
  }
}

PoolTiling MakeTiling(const WindowGeometry& g, int64_t innerElements) {
  PoolTiling t;
  t.g = g;
  t.planes = g.batch * g.channels;
  const int64_t cores = std::max<uint32_t>(1, aclsimGetCoreNumAiv());
  const int64_t bytes = t.planes * std::max<int64_t>(1, g.h * g.w) * 4;
  const int64_t blocks = std::max<int64_t>(1, std::min<int64_t>({cores, t.planes, bytes / (64 * 1024)}));
  t.planesPerBlock = (t.planes + blocks - 1) / blocks;
  t.chunk = static_cast<uint32_t>(std::min<int64_t>(kMaxChunk, (std::max<int64_t>(1, innerElements) + 31) / 32 * 32));
  return t;
}

template <typename F>
aclError DispatchPoolType(aclDataType dtype, const char* kernel, F&& f) {
  return DispatchKernelType(dtype, kernel, [&](auto tag) -> aclError {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same<T, float>::value || std::is_same<T, half>::value ||
                  std::is_same<T, bfloat16_t>::value || std::is_same<T, double>::value) {
      return f(tag);
    } else {
      return RaiseError(ACL_ERROR_UNSUPPORTED_DATA_TYPE, "kernel '%s' does not support data type %s", kernel,
                        DataTypeName(dtype));
    }
  });
}

}  // namespace

aclError LaunchMaxPool2d(aclDataType dtype, const WindowGeometry& g, const void* x, void* y, void* indices,
                         aclrtStream stream) {
  const PoolTiling t = MakeTiling(g, g.outW);
  if (t.planes == 0 || g.outH * g.outW == 0) return ACL_SUCCESS;
  const uint32_t blockDim = static_cast<uint32_t>((t.planes + t.planesPerBlock - 1) / t.planesPerBlock);
  return DispatchPoolType(dtype, "max_pool2d_custom", [&](auto tag) -> aclError {
    using T = typename decltype(tag)::type;
    return LaunchKernel("max_pool2d_custom", blockDim, stream, max_pool2d_custom<T>, x, y, indices, t);
  });
}

}  // namespace kernels
}  // namespace ascendc_sim
