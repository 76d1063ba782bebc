// aclnnThnnFusedLstmCell(+Backward), aclnnThnnFusedGruCell(+Backward) (rnn_cell.decl) on the
// fused cell kernels (kernels/rnn_cell_api.h): operands are brought into dense tiles of the
// gates' dtype, the kernels run, outputs of another layout are written back.
#include <string>
#include <vector>

#include "aclnn/aclnn_common.h"
#include "aclnn/l0_ops.h"
#include "aclnnop/aclnn_rnn_cell.h"
#include "common/dtype.h"
#include "common/error.h"
#include "kernels/rnn_cell_api.h"
#include "meta/executor.h"

using namespace ascendc_sim::aclnn;
using ascendc_sim::RaiseError;
using ascendc_sim::ShapeToString;
namespace k = ascendc_sim::kernels;

namespace {

const std::initializer_list<aclDataType> kCellDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE};

#define RETURN_IF_ERROR(expr)             \
  do {                                    \
    const aclnnStatus rc_ = (expr);       \
    if (rc_ != ACLNN_SUCCESS) return rc_; \
  } while (0)

bool Present(const aclTensor* t) { return t != nullptr && t->Numel() > 0; }

// t (required) has `shape` and `dtype`.
aclnnStatus CheckOperand(const char* api, const aclTensor* t, const char* name, const std::vector<int64_t>& shape,
                         aclDataType dtype) {
  RETURN_IF_ERROR(CheckNotNull(api, t, name));
  RETURN_IF_ERROR(CheckTensor(api, t, name, kCellDtypes));
  if (t->dtype != dtype) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: %s has dtype %s, expected %s", api, name,
                      ascendc_sim::DataTypeName(t->dtype), ascendc_sim::DataTypeName(dtype));
  }
  if (t->viewDims != shape) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: %s has shape %s, expected %s", api, name,
                      ShapeToString(t->viewDims).c_str(), ShapeToString(shape).c_str());
  }
  return ACLNN_SUCCESS;
}

// The batch and hidden sizes from state [batch, hidden].
aclnnStatus ReadState(const char* api, const aclTensor* state, const char* name, int64_t* rows, int64_t* hidden) {
  RETURN_IF_ERROR(CheckNotNull(api, state, name));
  RETURN_IF_ERROR(CheckTensor(api, state, name, kCellDtypes));
  if (state->viewDims.size() != 2) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: %s must be 2-D [batch, hidden], got shape %s", api, name,
                      ShapeToString(state->viewDims).c_str());
  }
  *rows = state->viewDims[0];
  *hidden = state->viewDims[1];
  return ACLNN_SUCCESS;
}

aclnnStatus Forward(const char* api, k::RnnCellKind kind, const aclTensor* inputGates, const aclTensor* hiddenGates,
                    const aclTensor* state, const aclTensor* inputBias, const aclTensor* hiddenBias, aclTensor* hy,
                    aclTensor* cy, aclTensor* storage, uint64_t* workspaceSize, aclOpExecutor** executor) {
  RETURN_IF_ERROR(CheckNotNull(api, workspaceSize, "workspaceSize"));
  RETURN_IF_ERROR(CheckNotNull(api, executor, "executor"));
  const bool lstm = kind == k::RnnCellKind::kLstm;
  int64_t rows = 0, hidden = 0;
  RETURN_IF_ERROR(ReadState(api, state, lstm ? "cx" : "hx", &rows, &hidden));
  const aclDataType dtype = state->dtype;
  const int64_t gates = (lstm ? 4 : 3) * hidden;
  RETURN_IF_ERROR(CheckOperand(api, inputGates, "inputGates", {rows, gates}, dtype));
  RETURN_IF_ERROR(CheckOperand(api, hiddenGates, "hiddenGates", {rows, gates}, dtype));
  if (Present(inputBias)) RETURN_IF_ERROR(CheckOperand(api, inputBias, "inputBias", {gates}, dtype));
  if (Present(hiddenBias)) RETURN_IF_ERROR(CheckOperand(api, hiddenBias, "hiddenBias", {gates}, dtype));
  RETURN_IF_ERROR(CheckOperand(api, hy, "hy", {rows, hidden}, dtype));
  if (lstm) RETURN_IF_ERROR(CheckOperand(api, cy, "cy", {rows, hidden}, dtype));
  RETURN_IF_ERROR(CheckOperand(api, storage, "storage", {rows, (lstm ? 4 : 5) * hidden}, dtype));
  ExecutorBuilder plan(api);
  if (rows * hidden > 0) {
    k::RnnCellArgs args;
    args.kind = kind;
    args.dtype = dtype;
    args.rows = rows;
    args.hidden = hidden;
    const DenseBuffer ig = plan.Input(inputGates, "inputGates", inputGates->viewDims, dtype);
    const DenseBuffer hg = plan.Input(hiddenGates, "hiddenGates", hiddenGates->viewDims, dtype);
    const DenseBuffer st = plan.Input(state, lstm ? "cx" : "hx", state->viewDims, dtype);
    const bool withIb = Present(inputBias), withHb = Present(hiddenBias);
    const DenseBuffer ib = withIb ? plan.Input(inputBias, "inputBias", {gates}, dtype) : DenseBuffer();
    const DenseBuffer hb = withHb ? plan.Input(hiddenBias, "hiddenBias", {gates}, dtype) : DenseBuffer();
    const DenseBuffer hyBuf = plan.Output(hy, "hy", dtype);
    const DenseBuffer cyBuf = lstm ? plan.Output(cy, "cy", dtype) : DenseBuffer();
    const DenseBuffer stBuf = plan.Output(storage, "storage", dtype);
    plan.AddStep([args, ig, hg, st, ib, hb, withIb, withHb, lstm, hyBuf, cyBuf, stBuf](uint8_t* ws,
                                                                                      aclrtStream stream) mutable {
      args.inputGates = ig.Resolve(ws);
      args.hiddenGates = hg.Resolve(ws);
      args.state = st.Resolve(ws);
      args.inputBias = withIb ? ib.Resolve(ws) : nullptr;
      args.hiddenBias = withHb ? hb.Resolve(ws) : nullptr;
      args.hy = hyBuf.Resolve(ws);
      args.cy = lstm ? cyBuf.Resolve(ws) : nullptr;
      args.storage = stBuf.Resolve(ws);
      return k::LaunchRnnCell(args, stream);
    });
  }
  return plan.Finish(workspaceSize, executor);
}

}  // namespace

extern "C" {

aclnnStatus aclnnThnnFusedLstmCellGetWorkspaceSize(const aclTensor* inputGates, const aclTensor* hiddenGates,
                                                   const aclTensor* cx, const aclTensor* inputBias,
                                                   const aclTensor* hiddenBias, aclTensor* hy, aclTensor* cy,
                                                   aclTensor* storage, uint64_t* workspaceSize,
                                                   aclOpExecutor** executor) {
  return Forward("aclnnThnnFusedLstmCell", k::RnnCellKind::kLstm, inputGates, hiddenGates, cx, inputBias, hiddenBias,
                 hy, cy, storage, workspaceSize, executor);
}

aclnnStatus aclnnThnnFusedLstmCell(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                   aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnThnnFusedLstmCell", workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnThnnFusedLstmCellBackwardGetWorkspaceSize(const aclTensor* gradHy, const aclTensor* gradCy,
                                                           const aclTensor* cx, const aclTensor* cy,
                                                           const aclTensor* storage, bool hasBias,
                                                           aclTensor* gradGates, aclTensor* gradCx,
                                                           aclTensor* gradBias, uint64_t* workspaceSize,
                                                           aclOpExecutor** executor) {
  const char* api = "aclnnThnnFusedLstmCellBackward";
  RETURN_IF_ERROR(CheckNotNull(api, workspaceSize, "workspaceSize"));
  RETURN_IF_ERROR(CheckNotNull(api, executor, "executor"));
  int64_t rows = 0, hidden = 0;
  RETURN_IF_ERROR(ReadState(api, cx, "cx", &rows, &hidden));
  const aclDataType dtype = cx->dtype;
  const std::vector<int64_t> state = {rows, hidden}, gates = {rows, 4 * hidden};
  RETURN_IF_ERROR(CheckOperand(api, cy, "cy", state, dtype));
  RETURN_IF_ERROR(CheckOperand(api, storage, "storage", gates, dtype));
  if (Present(gradHy)) RETURN_IF_ERROR(CheckOperand(api, gradHy, "gradHy", state, dtype));
  if (Present(gradCy)) RETURN_IF_ERROR(CheckOperand(api, gradCy, "gradCy", state, dtype));
  RETURN_IF_ERROR(CheckOperand(api, gradGates, "gradGates", gates, dtype));
  RETURN_IF_ERROR(CheckOperand(api, gradCx, "gradCx", state, dtype));
  if (hasBias) RETURN_IF_ERROR(CheckOperand(api, gradBias, "gradBias", {4 * hidden}, dtype));
  ExecutorBuilder plan(api);
  if (rows * hidden > 0) {
    k::RnnCellBackwardArgs args;
    args.kind = k::RnnCellKind::kLstm;
    args.dtype = dtype;
    args.rows = rows;
    args.hidden = hidden;
    const bool withHy = Present(gradHy), withCy = Present(gradCy);
    const DenseBuffer ghy = withHy ? plan.Input(gradHy, "gradHy", state, dtype) : DenseBuffer();
    const DenseBuffer gcy = withCy ? plan.Input(gradCy, "gradCy", state, dtype) : DenseBuffer();
    const DenseBuffer cxBuf = plan.Input(cx, "cx", state, dtype);
    const DenseBuffer cyBuf = plan.Input(cy, "cy", state, dtype);
    const DenseBuffer stBuf = plan.Input(storage, "storage", gates, dtype);
    const DenseBuffer gg = plan.Output(gradGates, "gradGates", dtype);
    const DenseBuffer gcx = plan.Output(gradCx, "gradCx", dtype);
    const DenseBuffer gb = hasBias ? plan.Output(gradBias, "gradBias", dtype) : DenseBuffer();
    plan.AddStep([args, ghy, gcy, withHy, withCy, cxBuf, cyBuf, stBuf, gg, gcx, gb, hasBias](
                     uint8_t* ws, aclrtStream stream) mutable {
      args.gradHy = withHy ? ghy.Resolve(ws) : nullptr;
      args.gradCy = withCy ? gcy.Resolve(ws) : nullptr;
      args.cx = cxBuf.Resolve(ws);
      args.cy = cyBuf.Resolve(ws);
      args.storage = stBuf.Resolve(ws);
      args.gradGates = gg.Resolve(ws);
      args.gradState = gcx.Resolve(ws);
      args.gradBias = hasBias ? gb.Resolve(ws) : nullptr;
      return k::LaunchRnnCellBackward(args, stream);
    });
  }
  return plan.Finish(workspaceSize, executor);
}

aclnnStatus aclnnThnnFusedLstmCellBackward(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                           aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnThnnFusedLstmCellBackward", workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnThnnFusedGruCellGetWorkspaceSize(const aclTensor* inputGates, const aclTensor* hiddenGates,
                                                  const aclTensor* hx, const aclTensor* inputBias,
                                                  const aclTensor* hiddenBias, aclTensor* hy, aclTensor* storage,
                                                  uint64_t* workspaceSize, aclOpExecutor** executor) {
  return Forward("aclnnThnnFusedGruCell", k::RnnCellKind::kGru, inputGates, hiddenGates, hx, inputBias, hiddenBias,
                 hy, nullptr, storage, workspaceSize, executor);
}

aclnnStatus aclnnThnnFusedGruCell(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                  aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnThnnFusedGruCell", workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnThnnFusedGruCellBackwardGetWorkspaceSize(const aclTensor* gradHy, const aclTensor* storage,
                                                          bool hasBias, aclTensor* gradInputGates,
                                                          aclTensor* gradHiddenGates, aclTensor* gradHx,
                                                          aclTensor* gradInputBias, aclTensor* gradHiddenBias,
                                                          uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnThnnFusedGruCellBackward";
  RETURN_IF_ERROR(CheckNotNull(api, workspaceSize, "workspaceSize"));
  RETURN_IF_ERROR(CheckNotNull(api, executor, "executor"));
  int64_t rows = 0, hidden = 0;
  RETURN_IF_ERROR(ReadState(api, gradHy, "gradHy", &rows, &hidden));
  const aclDataType dtype = gradHy->dtype;
  const std::vector<int64_t> state = {rows, hidden}, gates = {rows, 3 * hidden};
  RETURN_IF_ERROR(CheckOperand(api, storage, "storage", {rows, 5 * hidden}, dtype));
  RETURN_IF_ERROR(CheckOperand(api, gradInputGates, "gradInputGates", gates, dtype));
  RETURN_IF_ERROR(CheckOperand(api, gradHiddenGates, "gradHiddenGates", gates, dtype));
  RETURN_IF_ERROR(CheckOperand(api, gradHx, "gradHx", state, dtype));
  if (hasBias) {
    RETURN_IF_ERROR(CheckOperand(api, gradInputBias, "gradInputBias", {3 * hidden}, dtype));
    RETURN_IF_ERROR(CheckOperand(api, gradHiddenBias, "gradHiddenBias", {3 * hidden}, dtype));
  }
  ExecutorBuilder plan(api);
  if (rows * hidden > 0) {
    k::RnnCellBackwardArgs args;
    args.kind = k::RnnCellKind::kGru;
    args.dtype = dtype;
    args.rows = rows;
    args.hidden = hidden;
    const DenseBuffer ghy = plan.Input(gradHy, "gradHy", state, dtype);
    const DenseBuffer stBuf = plan.Input(storage, "storage", {rows, 5 * hidden}, dtype);
    const DenseBuffer gig = plan.Output(gradInputGates, "gradInputGates", dtype);
    const DenseBuffer ghg = plan.Output(gradHiddenGates, "gradHiddenGates", dtype);
    const DenseBuffer ghx = plan.Output(gradHx, "gradHx", dtype);
    const DenseBuffer gib = hasBias ? plan.Output(gradInputBias, "gradInputBias", dtype) : DenseBuffer();
    const DenseBuffer ghb = hasBias ? plan.Output(gradHiddenBias, "gradHiddenBias", dtype) : DenseBuffer();
    plan.AddStep([args, ghy, stBuf, gig, ghg, ghx, gib, ghb, hasBias](uint8_t* ws, aclrtStream stream) mutable {
      args.gradHy = ghy.Resolve(ws);
      args.storage = stBuf.Resolve(ws);
      args.gradGates = gig.Resolve(ws);
      args.gradHiddenGates = ghg.Resolve(ws);
      args.gradState = ghx.Resolve(ws);
      args.gradBias = hasBias ? gib.Resolve(ws) : nullptr;
      args.gradHiddenBias = hasBias ? ghb.Resolve(ws) : nullptr;
      return k::LaunchRnnCellBackward(args, stream);
    });
  }
  return plan.Finish(workspaceSize, executor);
}

aclnnStatus aclnnThnnFusedGruCellBackward(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                          aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnThnnFusedGruCellBackward", workspace, workspaceSize, executor, stream);
}

}  // extern "C"
