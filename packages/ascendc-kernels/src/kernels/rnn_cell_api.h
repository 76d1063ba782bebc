// Host entry points of the fused LSTM and GRU cell kernels (rnn_cell_kernel.cpp), PyTorch's
// _thnn_fused_lstm_cell / _thnn_fused_gru_cell and their backwards. Every tensor is dense
// row-major, of `dtype` (float32, float16, bfloat16, double; computed in float32, double for
// double); biases may be null. Rows (the batch) are spread over the cores.
#ifndef ASCENDC_SIM_KERNELS_RNN_CELL_API_H
#define ASCENDC_SIM_KERNELS_RNN_CELL_API_H

#include <stdint.h>

#include "acl/acl_base.h"
#include "common/visibility.h"

namespace ascendc_sim {
namespace kernels {

enum class RnnCellKind : int32_t { kLstm, kGru };

// Forward. LSTM: gates [rows, 4H] = inputGates + hiddenGates (+ biases) in the order i, f, g, o;
// cy = sigmoid(f) * cx + sigmoid(i) * tanh(g), hy = sigmoid(o) * tanh(cy); storage [rows, 4H]
// keeps the activated gates. GRU: r, z from the sums of both gate sets, n = tanh(in + r * hn);
// hy = n + z * (hx - n); storage [rows, 5H] keeps r, z, n, hx and hn (hidden gate with bias).
struct RnnCellArgs {
  RnnCellKind kind = RnnCellKind::kLstm;
  aclDataType dtype = ACL_DT_UNDEFINED;
  int64_t rows = 0, hidden = 0;
  const void* inputGates = nullptr;
  const void* hiddenGates = nullptr;
  const void* state = nullptr;  // cx (LSTM) or hx (GRU)
  const void* inputBias = nullptr;
  const void* hiddenBias = nullptr;
  void* hy = nullptr;
  void* cy = nullptr;  // LSTM only
  void* storage = nullptr;
};
ASCENDC_SIM_INTERNAL_API aclError LaunchRnnCell(const RnnCellArgs& args, aclrtStream stream);

// Backward. LSTM: gradHy / gradCy (either may be null: zeros), cx, cy and the storage give
// gradGates [rows, 4H] and gradCx. GRU: gradHy and the storage give gradInputGates and
// gradHiddenGates [rows, 3H] and gradHx. A non-null gradBias / gradHiddenBias receives the
// column sums (in row order) of gradGates / gradInputGates and of gradHiddenGates.
struct RnnCellBackwardArgs {
  RnnCellKind kind = RnnCellKind::kLstm;
  aclDataType dtype = ACL_DT_UNDEFINED;
  int64_t rows = 0, hidden = 0;
  const void* gradHy = nullptr;
  const void* gradCy = nullptr;
  const void* cx = nullptr;
  const void* cy = nullptr;
  const void* storage = nullptr;
  void* gradGates = nullptr;        // LSTM gradGates, GRU gradInputGates
  void* gradHiddenGates = nullptr;  // GRU
  void* gradState = nullptr;        // gradCx or gradHx
  void* gradBias = nullptr;         // LSTM gradBias, GRU gradInputBias
  void* gradHiddenBias = nullptr;   // GRU
};
ASCENDC_SIM_INTERNAL_API aclError LaunchRnnCellBackward(const RnnCellBackwardArgs& args, aclrtStream stream);

}  // namespace kernels
}  // namespace ascendc_sim

#endif  // ASCENDC_SIM_KERNELS_RNN_CELL_API_H
