// repeat_interleave_custom: out = i repeated repeats[i] times, for the 1-D repeats
// (int32/int64). One block walks repeats in order (the position of each run is the
// sum of the repeats before it), staging each run in the unified buffer with
// Duplicate and writing it out. A negative repeat, or repeats that do not sum to the
// output size, fail the kernel.
#include <algorithm>
#include <type_traits>

#include "ascendc_sim/kernel/trap.h"
#include "ascendc_sim/launch.h"
#include "common/error.h"
#include "kernels/index_kernel_api.h"
#include "kernels/kernel_helpers.h"

namespace ascendc_sim {
namespace kernels {
namespace {

struct RepeatInterleaveTiling {
  int64_t count = 0, outputSize = 0;
  uint32_t tile = 0;
};

template <typename T>
__global__ __aicore__ void repeat_interleave_custom(GM_ADDR repeats, GM_ADDR out, RepeatInterleaveTiling t) {
  const T* r = reinterpret_cast<const T*>(repeats);
  AscendC::GlobalTensor<T> outGm;
  outGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(out), static_cast<uint64_t>(t.outputSize));
  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> queue;
  pipe.InitBuffer(queue, BUFFER_NUM, t.tile * sizeof(T));
  int64_t position = 0;
  for (int64_t i = 0; i < t.count; ++i) {
    const int64_t n = static_cast<int64_t>(r[i]);
    if (n < 0) KernelFail("repeat_interleave: repeats can not be negative (repeats[%lld] = %lld)",
                          static_cast<long long>(i), static_cast<long long>(n));
    if (position + n > t.outputSize) {
      KernelFail("repeat_interleave: the repeats sum past output_size %lld", static_cast<long long>(t.outputSize));
    }
    for (int64_t done = 0; done < n; done += t.tile) {
      const uint32_t len = static_cast<uint32_t>(std::min<int64_t>(t.tile, n - done));
      AscendC::LocalTensor<T> tile = queue.AllocTensor<T>();
      AscendC::Duplicate(tile, static_cast<T>(i), len);
      queue.EnQue(tile);
      AscendC::LocalTensor<T> ready = queue.DeQue<T>();
      CopyTileOut(outGm[static_cast<uint64_t>(position + done)], ready, len);
      queue.FreeTensor(ready);
    }
    position += n;
  }
  if (position != t.outputSize) {
    KernelFail("repeat_interleave: the repeats sum to %lld, not output_size %lld", static_cast<long long>(position),
               static_cast<long long>(t.outputSize));
  }
}

}  // namespace

aclError LaunchRepeatInterleave(aclDataType dtype, const void* repeats, int64_t count, void* out, int64_t outputSize,
                                aclrtStream stream) {
  RepeatInterleaveTiling t;
  t.count = count;
  t.outputSize = outputSize;
  t.tile = 2048;
  if (dtype == ACL_INT64) {
    return LaunchKernel("repeat_interleave_custom", 1, stream, repeat_interleave_custom<int64_t>, repeats, out, t);
  }
  if (dtype == ACL_INT32) {
    return LaunchKernel("repeat_interleave_custom", 1, stream, repeat_interleave_custom<int32_t>, repeats, out, t);
  }
  return RaiseError(ACL_ERROR_UNSUPPORTED_DATA_TYPE, "kernel 'repeat_interleave_custom': repeats must be int32 or "
                    "int64");
}

}  // namespace kernels
}  // namespace ascendc_sim
