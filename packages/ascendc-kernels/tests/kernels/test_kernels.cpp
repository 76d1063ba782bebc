// User kernels built as their own shared library against kernel_operator.h,
// the way a team's custom Ascend C kernel is built; the tests load it with
// ctypes. Each host function launches one kernel and returns the aclError.
#include "kernel_operator.h"

using namespace AscendC;

namespace {

constexpr int32_t BUFFER_NUM = 2;

// The seed's add_custom: each block adds its slice (z = x + y, float), tiles
// of TILE_LENGTH elements through double-buffered queues.
class KernelAdd {
 public:
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t totalLength) {
    const uint32_t blockLength = totalLength / GetBlockNum();
    xGm.SetGlobalBuffer((__gm__ float*)x + blockLength * GetBlockIdx(), blockLength);
    yGm.SetGlobalBuffer((__gm__ float*)y + blockLength * GetBlockIdx(), blockLength);
    zGm.SetGlobalBuffer((__gm__ float*)z + blockLength * GetBlockIdx(), blockLength);
    tileNum = blockLength / TILE_LENGTH;
    pipe.InitBuffer(inQueueX, BUFFER_NUM, TILE_LENGTH * sizeof(float));
    pipe.InitBuffer(inQueueY, BUFFER_NUM, TILE_LENGTH * sizeof(float));
    pipe.InitBuffer(outQueueZ, BUFFER_NUM, TILE_LENGTH * sizeof(float));
  }
  __aicore__ inline void Process() {
    for (uint32_t i = 0; i < tileNum; i++) {
      CopyIn(i);
      Compute();
      CopyOut(i);
    }
  }

 private:
  static constexpr uint32_t TILE_LENGTH = 64;

  __aicore__ inline void CopyIn(uint32_t progress) {
    LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
    LocalTensor<float> yLocal = inQueueY.AllocTensor<float>();
    DataCopy(xLocal, xGm[progress * TILE_LENGTH], TILE_LENGTH);
    DataCopy(yLocal, yGm[progress * TILE_LENGTH], TILE_LENGTH);
    inQueueX.EnQue(xLocal);
    inQueueY.EnQue(yLocal);
  }
  __aicore__ inline void Compute() {
    LocalTensor<float> xLocal = inQueueX.DeQue<float>();
    LocalTensor<float> yLocal = inQueueY.DeQue<float>();
    LocalTensor<float> zLocal = outQueueZ.AllocTensor<float>();
    Add(zLocal, xLocal, yLocal, TILE_LENGTH);
    outQueueZ.EnQue<float>(zLocal);
    inQueueX.FreeTensor(xLocal);
    inQueueY.FreeTensor(yLocal);
  }
  __aicore__ inline void CopyOut(uint32_t progress) {
    LocalTensor<float> zLocal = outQueueZ.DeQue<float>();
    DataCopy(zGm[progress * TILE_LENGTH], zLocal, TILE_LENGTH);
    outQueueZ.FreeTensor(zLocal);
  }

  TPipe pipe;
  TQue<QuePosition::VECIN, BUFFER_NUM> inQueueX, inQueueY;
  TQue<QuePosition::VECOUT, BUFFER_NUM> outQueueZ;
  GlobalTensor<float> xGm, yGm, zGm;
  uint32_t tileNum = 0;
};

}  // namespace

extern "C" __global__ __aicore__ void user_add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t totalLength) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
  KernelAdd op;
  op.Init(x, y, z, totalLength);
  op.Process();
}

// Asks the pipe for twice the unified buffer.
extern "C" __global__ __aicore__ void over_ub_kernel(GM_ADDR unused) {
  (void)unused;
  TPipe pipe;
  TQue<QuePosition::VECIN, BUFFER_NUM> queue;
  const uint32_t half = static_cast<uint32_t>(aclsimGetUbSize());
  pipe.InitBuffer(queue, BUFFER_NUM, half + 32);
}

// Block 1 reports an error; every block writes its index first.
extern "C" __global__ __aicore__ void report_error_kernel(GM_ADDR out) {
  GlobalTensor<int32_t> outGm;
  outGm.SetGlobalBuffer((__gm__ int32_t*)out, GetBlockNum());
  outGm.SetValue(GetBlockIdx(), static_cast<int32_t>(GetBlockIdx()) + 100);
  if (GetBlockIdx() == 1) aclsimReportKernelError("block 1 found a negative length");
}

// out[2 * b] = block index, out[2 * b + 1] = block count.
extern "C" __global__ __aicore__ void block_ids_kernel(GM_ADDR out) {
  GlobalTensor<int32_t> outGm;
  outGm.SetGlobalBuffer((__gm__ int32_t*)out, 2 * GetBlockNum());
  outGm.SetValue(2 * GetBlockIdx(), static_cast<int32_t>(GetBlockIdx()));
  outGm.SetValue(2 * GetBlockIdx() + 1, static_cast<int32_t>(GetBlockNum()));
}

// DataCopy of 3 floats (12 bytes): not whole 32-byte blocks.
extern "C" __global__ __aicore__ void misaligned_copy_kernel(GM_ADDR x) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 64);
  GlobalTensor<float> xGm;
  xGm.SetGlobalBuffer((__gm__ float*)x, 3);
  LocalTensor<float> local = buf.Get<float>();
  DataCopy(local, xGm, 3);
}

// Every vector instruction on one tile of 64 floats: out[k * 64 + i] is
// instruction k applied to x[i] (and y[i]); see test_ascendc_api.py for the order.
extern "C" __global__ __aicore__ void vector_ops_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR out) {
  constexpr uint32_t N = 64;
  constexpr uint32_t OPS = 16;
  TPipe pipe;
  TBuf<TPosition::VECCALC> inBuf, resultBuf, halfBuf;
  pipe.InitBuffer(inBuf, 2 * N * sizeof(float));
  pipe.InitBuffer(resultBuf, OPS * N * sizeof(float));
  pipe.InitBuffer(halfBuf, N * sizeof(half));
  GlobalTensor<float> xGm, yGm, outGm;
  xGm.SetGlobalBuffer((__gm__ float*)x, N);
  yGm.SetGlobalBuffer((__gm__ float*)y, N);
  outGm.SetGlobalBuffer((__gm__ float*)out, OPS * N);
  LocalTensor<float> in = inBuf.Get<float>();
  LocalTensor<float> a = in;
  LocalTensor<float> b = in[N];
  DataCopy(a, xGm, N);
  DataCopy(b, yGm, N);
  LocalTensor<float> r = resultBuf.Get<float>();
  Add(r[0 * N], a, b, N);
  Sub(r[1 * N], a, b, N);
  Mul(r[2 * N], a, b, N);
  Div(r[3 * N], a, b, N);
  Max(r[4 * N], a, b, N);
  Min(r[5 * N], a, b, N);
  Abs(r[6 * N], a, N);
  Exp(r[7 * N], a, N);
  Abs(r[8 * N], a, N);
  Adds(r[8 * N], r[8 * N], 1.0f, N);
  Ln(r[8 * N], r[8 * N], N);  // ln(|x| + 1)
  Abs(r[9 * N], a, N);
  Sqrt(r[9 * N], r[9 * N], N);
  Relu(r[10 * N], a, N);
  Adds(r[11 * N], a, 2.0f, N);
  Muls(r[12 * N], a, 3.0f, N);
  LocalTensor<half> h = halfBuf.Get<half>();
  Cast(h, a, RoundMode::CAST_NONE, N);
  Cast(r[13 * N], h, RoundMode::CAST_NONE, N);  // through float16
  Duplicate(r[14 * N], 7.0f, N);
  DataCopy(r[15 * N], a, N);
  Axpy(r[15 * N], b, 0.5f, N);  // x + 0.5 * y
  DataCopy(outGm, r, OPS * N);
}

extern "C" {

int test_launch_vector_ops(void* x, void* y, void* out, aclrtStream stream) {
  return ACLRT_LAUNCH_KERNEL(vector_ops_kernel)(1, stream, x, y, out);
}

int test_launch_user_add(void* x, void* y, void* z, uint32_t totalLength, uint32_t blockDim, aclrtStream stream) {
  return ACLRT_LAUNCH_KERNEL(user_add_custom)(blockDim, stream, x, y, z, totalLength);
}

int test_launch_over_ub(aclrtStream stream) {
  return ascendc_sim::LaunchKernel("over_ub_kernel", 1, stream, over_ub_kernel, nullptr);
}

int test_launch_report_error(void* out, uint32_t blockDim, aclrtStream stream) {
  return ascendc_sim::LaunchKernel("report_error_kernel", blockDim, stream, report_error_kernel, out);
}

int test_launch_block_ids(void* out, uint32_t blockDim, aclrtStream stream) {
  return ACLRT_LAUNCH_KERNEL(block_ids_kernel)(blockDim, stream, out);
}

int test_launch_misaligned_copy(void* x, aclrtStream stream) {
  return ACLRT_LAUNCH_KERNEL(misaligned_copy_kernel)(1, stream, x);
}

}  // extern "C"
