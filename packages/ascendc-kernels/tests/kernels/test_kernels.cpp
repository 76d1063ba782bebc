// User kernels built as their own shared library against kernel_operator.h,
// the way a team's custom Ascend C kernel is built; the tests load it with
// ctypes. Each host function launches one kernel and returns the aclError.
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "kernel_operator.h"
#include "toolchain/prof_api.h"

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

// Compare/Select/reductions/Rsqrt on N floats: out rows (N each) are
// [Select(a < b ? a : b), Select(a > 0 ? a : -1), Rsqrt(|a| + 1), mask bytes as floats,
//  [ReduceSum, ReduceMax, ReduceMax index, ReduceMin, ReduceMin index, 0...]].
extern "C" __global__ __aicore__ void compare_reduce_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR out, uint32_t n) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> inBuf, resultBuf, maskBuf, workBuf;
  const uint32_t padded = (n + 7) / 8 * 8;
  pipe.InitBuffer(inBuf, 2 * padded * sizeof(float));
  pipe.InitBuffer(resultBuf, 5 * padded * sizeof(float));
  pipe.InitBuffer(maskBuf, padded);
  pipe.InitBuffer(workBuf, padded * sizeof(float));
  GlobalTensor<float> xGm, yGm, outGm;
  xGm.SetGlobalBuffer((__gm__ float*)x, n);
  yGm.SetGlobalBuffer((__gm__ float*)y, n);
  outGm.SetGlobalBuffer((__gm__ float*)out, 5 * n);
  LocalTensor<float> a = inBuf.Get<float>();
  LocalTensor<float> b = a[padded];
  DataCopyExtParams copy{1, n * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
  DataCopyPad(a, xGm, copy, DataCopyPadExtParams<float>{});
  DataCopyPad(b, yGm, copy, DataCopyPadExtParams<float>{});
  LocalTensor<float> r = resultBuf.Get<float>();
  LocalTensor<uint8_t> mask = maskBuf.Get<uint8_t>();
  LocalTensor<float> work = workBuf.Get<float>();
  Compare(mask, a, b, CMPMODE::LT, n);
  Select(r, mask, a, b, SELMODE::VSEL_TENSOR_TENSOR_MODE, n);
  CompareScalar(mask, a, 0.0f, CMPMODE::GT, n);
  Select(r[padded], mask, a, -1.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE, n);
  for (uint32_t i = 0; i < n; ++i) r.SetValue(3 * padded + i, static_cast<float>(mask.GetValue(i / 8)));
  Abs(r[2 * padded], a, n);
  Adds(r[2 * padded], r[2 * padded], 1.0f, n);
  Rsqrt(r[2 * padded], r[2 * padded], n);
  LocalTensor<float> red = r[4 * padded];
  Duplicate(red, 0.0f, padded);
  LocalTensor<float> tmp = work;
  ReduceSum(tmp, a, work, static_cast<int32_t>(n));
  red.SetValue(0, tmp.GetValue(0));
  ReduceMax(tmp, a, work, static_cast<int32_t>(n), true);
  red.SetValue(1, tmp.GetValue(0));
  red.SetValue(2, static_cast<float>(tmp.ReinterpretCast<uint32_t>().GetValue(1)));
  ReduceMin(tmp, a, work, static_cast<int32_t>(n), true);
  red.SetValue(3, tmp.GetValue(0));
  red.SetValue(4, static_cast<float>(tmp.ReinterpretCast<uint32_t>().GetValue(1)));
  for (uint32_t row = 0; row < 5; ++row) {
    DataCopyPad(outGm[row * n], r[row * padded], copy);
  }
}

// The cube path on one tile: c[m x n] = a[m x k] * b[k x n] (float32, row-major
// in GM, m, n, k <= 64): GM -> A1/B1 (DataCopyPad), A1 -> A2 / B1 -> B2
// (LoadData), Mmad into CO1 (k split in two halves to exercise accumulation),
// Fixpipe to GM.
extern "C" __global__ __aicore__ void mmad_tile_kernel(GM_ADDR a, GM_ADDR b, GM_ADDR c, uint32_t m, uint32_t n,
                                                       uint32_t k) {
  TPipe pipe;
  TQue<TPosition::A1, 1> inA1;
  TQue<TPosition::B1, 1> inB1;
  TQue<TPosition::A2, 1> inA2;
  TQue<TPosition::B2, 1> inB2;
  TQue<TPosition::CO1, 1> outCO1;
  const uint32_t ldk = TileRowPitch<float>(k);
  const uint32_t ldn = TileRowPitch<float>(n);
  const uint32_t aBytes = (m * ldk * 4 + 511) / 512 * 512;
  const uint32_t bBytes = (k * ldn * 4 + 511) / 512 * 512;
  pipe.InitBuffer(inA1, 1, aBytes);
  pipe.InitBuffer(inB1, 1, bBytes);
  pipe.InitBuffer(inA2, 1, aBytes);
  pipe.InitBuffer(inB2, 1, bBytes);
  pipe.InitBuffer(outCO1, 1, m * ldn * 4);
  GlobalTensor<float> aGm, bGm, cGm;
  aGm.SetGlobalBuffer((__gm__ float*)a, m * k);
  bGm.SetGlobalBuffer((__gm__ float*)b, k * n);
  cGm.SetGlobalBuffer((__gm__ float*)c, m * n);
  LocalTensor<float> a1 = inA1.AllocTensor<float>();
  LocalTensor<float> b1 = inB1.AllocTensor<float>();
  DataCopyPad(a1, aGm, DataCopyExtParams{static_cast<uint16_t>(m), k * 4, 0, 0, 0}, DataCopyPadExtParams<float>{});
  DataCopyPad(b1, bGm, DataCopyExtParams{static_cast<uint16_t>(k), n * 4, 0, 0, 0}, DataCopyPadExtParams<float>{});
  inA1.EnQue(a1);
  inB1.EnQue(b1);
  a1 = inA1.DeQue<float>();
  b1 = inB1.DeQue<float>();
  LocalTensor<float> a2 = inA2.AllocTensor<float>();
  LocalTensor<float> b2 = inB2.AllocTensor<float>();
  LoadData(a2, a1, LoadData2DParams{0, static_cast<uint8_t>(aBytes / 512), 1, 0, 0, false, 0});
  LoadData(b2, b1, LoadData2DParams{0, static_cast<uint8_t>(bBytes / 512), 1, 0, 0, false, 0});
  inA1.FreeTensor(a1);
  inB1.FreeTensor(b1);
  LocalTensor<float> c1 = outCO1.AllocTensor<float>();
  // k = k0 + (k - k0): the second Mmad accumulates the rows of b after k0.
  const uint32_t k0 = k / 2;
  MmadParams first;
  first.m = static_cast<uint16_t>(m);
  first.n = static_cast<uint16_t>(n);
  first.k = static_cast<uint16_t>(k0);
  // The first k0 columns of a: a's row pitch stays ldk, so copy them into a k0-wide tile first.
  LocalTensor<float> part = inA1.AllocTensor<float>();
  const uint32_t ldk0 = TileRowPitch<float>(k0);
  for (uint32_t i = 0; i < m; ++i) {
    for (uint32_t p = 0; p < k0; ++p) part.SetValue(i * ldk0 + p, a2.GetValue(i * ldk + p));
  }
  Mmad(c1, part, b2, first);
  inA1.FreeTensor(part);
  LocalTensor<float> tailA = inA1.AllocTensor<float>();
  LocalTensor<float> tailB = inB1.AllocTensor<float>();
  const uint32_t k1 = k - k0;
  const uint32_t ldk1 = TileRowPitch<float>(k1);
  for (uint32_t i = 0; i < m; ++i) {
    for (uint32_t p = 0; p < k1; ++p) tailA.SetValue(i * ldk1 + p, a2.GetValue(i * ldk + k0 + p));
  }
  for (uint32_t p = 0; p < k1; ++p) {
    for (uint32_t j = 0; j < n; ++j) tailB.SetValue(p * ldn + j, b2.GetValue((k0 + p) * ldn + j));
  }
  MmadParams second = first;
  second.k = static_cast<uint16_t>(k1);
  second.cmatrixInitVal = false;
  Mmad(c1, tailA, tailB, second);
  outCO1.EnQue(c1);
  c1 = outCO1.DeQue<float>();
  FixpipeParamsV220 fix;
  fix.mSize = static_cast<uint16_t>(m);
  fix.nSize = static_cast<uint16_t>(n);
  fix.dstStride = n;
  Fixpipe(cGm, c1, fix);
  outCO1.FreeTensor(c1);
  inA2.FreeTensor(a2);
  inB2.FreeTensor(b2);
}

// Asks for 65 KiB of L0A (64 KiB).
extern "C" __global__ __aicore__ void over_l0a_kernel(GM_ADDR unused) {
  (void)unused;
  TPipe pipe;
  TQue<TPosition::A2, 1> queue;
  pipe.InitBuffer(queue, 1, 65 * 1024);
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

int test_launch_compare_reduce(void* x, void* y, void* out, uint32_t n, aclrtStream stream) {
  return ACLRT_LAUNCH_KERNEL(compare_reduce_kernel)(1, stream, x, y, out, n);
}

int test_launch_mmad_tile(void* a, void* b, void* c, uint32_t m, uint32_t n, uint32_t k, aclrtStream stream) {
  return ACLRT_LAUNCH_KERNEL(mmad_tile_kernel)(1, stream, a, b, c, m, n, k);
}

int test_launch_over_l0a(aclrtStream stream) {
  return ascendc_sim::LaunchKernel("over_l0a_kernel", 1, stream, over_l0a_kernel, nullptr);
}

// ---- a module that launches kernels itself and reports them to the profiler, as torch_npu's
// compiled-kernel launcher does: it learns from its handler whether task time is collected, and
// reports each launch (the host API call) and the launched node.

static uint32_t g_profiled_command = PROF_COMMANDHANDLE_TYPE_MAX;
static uint64_t g_profiled_switch = 0;
static uint32_t g_profiled_devices = 0;
static uint32_t g_profiled_calls = 0;

static int32_t ProfiledControl(uint32_t type, void* data, uint32_t len) {
  if (type != PROF_CTRL_SWITCH || data == nullptr || len != sizeof(MsprofCommandHandle)) return 1;
  const auto* handle = static_cast<const MsprofCommandHandle*>(data);
  g_profiled_command = handle->type;
  g_profiled_switch = handle->profSwitch;
  g_profiled_devices = handle->devNums;
  ++g_profiled_calls;
  return 0;
}

int test_profiled_register(uint32_t moduleId) { return MsprofRegisterCallback(moduleId, ProfiledControl); }
uint32_t test_profiled_command(void) { return g_profiled_command; }
uint64_t test_profiled_switch(void) { return g_profiled_switch; }
uint32_t test_profiled_devices(void) { return g_profiled_devices; }
uint32_t test_profiled_calls(void) { return g_profiled_calls; }

int test_profiled_launch_add(const char* name, void* x, void* y, void* z, uint32_t totalLength, uint32_t blockDim,
                             aclrtStream stream) {
  const uint64_t begin = MsprofSysCycleTime();
  const int ret = ACLRT_LAUNCH_KERNEL(user_add_custom)(blockDim, stream, x, y, z, totalLength);
  const uint64_t end = MsprofSysCycleTime();
  const uint64_t id = MsprofGetHashId(name, strlen(name));
  const uint32_t thread = static_cast<uint32_t>(syscall(SYS_gettid));
  MsprofApi api;
  api.level = MSPROF_REPORT_NODE_LEVEL;
  api.type = MSPROF_REPORT_NODE_LAUNCH_TYPE;
  api.threadId = thread;
  api.reserve = 0;
  api.beginTime = begin;
  api.endTime = end;
  api.itemId = id;
  if (int32_t err = MsprofReportApi(0, &api); err != MSPROF_ERROR_NONE) return err;
  MsprofCompactInfo node;
  memset(&node.data, 0, sizeof(node.data));
  node.level = MSPROF_REPORT_NODE_LEVEL;
  node.type = MSPROF_REPORT_NODE_BASIC_INFO_TYPE;
  node.threadId = thread;
  node.dataLen = 0;
  node.timeStamp = end;
  node.data.nodeBasicInfo.opName = id;
  node.data.nodeBasicInfo.taskType = 0;
  node.data.nodeBasicInfo.opType = id;
  node.data.nodeBasicInfo.blockDim = blockDim;
  node.data.nodeBasicInfo.opFlag = 0;
  if (int32_t err = MsprofReportCompactInfo(0, &node, sizeof(node)); err != MSPROF_ERROR_NONE) return err;
  MsprofAdditionalInfo extra;
  extra.level = MSPROF_REPORT_NODE_LEVEL;
  extra.type = 1;
  extra.threadId = thread;
  extra.dataLen = 4;
  extra.timeStamp = end;
  memcpy(extra.data, "tile", 4);
  if (int32_t err = MsprofReportAdditionalInfo(0, &extra, sizeof(extra)); err != MSPROF_ERROR_NONE) return err;
  return ret;
}

}  // extern "C"
