// _thnn_fused_lstm_cell / _thnn_fused_gru_cell and their backwards on the op_api path
// (aclnnThnnFusedLstmCell(+Backward), aclnnThnnFusedGruCell(+Backward)). PyTorch's recurrent
// layers (nn.LSTM, nn.GRU) run these fused cells on a privateuse1 device, so with them the
// layers train on npu. The workspace tensors keep what the backward needs, as CUDA's do
// (LSTM: the activated gates [batch, 4H]; GRU: r, z, n, hx and hn [batch, 5H]).
#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include <ATen/core/Tensor.h>

#include <tuple>

#include "npu/core/NPUGuard.h"
#include "npu/op_api/op_api_common.h"
#include "npu/op_common/OpPreparation.h"
#include "op_plugin/ops/_thnn_fused_gru_cell.h"
#include "op_plugin/ops/_thnn_fused_gru_cell_backward.h"
#include "op_plugin/ops/_thnn_fused_lstm_cell.h"
#include "op_plugin/ops/_thnn_fused_lstm_cell_backward_impl.h"

namespace op_api {
namespace {

using at_npu::native::OpPreparation;

c10::optional<at::Tensor> defined_or_none(const c10::optional<at::Tensor>& t) {
  return t.has_value() && t->defined() ? t : c10::nullopt;
}

void check_cell(const char* op, const at::Tensor& input_gates, const at::Tensor& hidden_gates, const at::Tensor& state,
                const c10::optional<at::Tensor>& input_bias, const c10::optional<at::Tensor>& hidden_bias,
                int64_t gates) {
  const at::ScalarType dtype = state.scalar_type();
  TORCH_CHECK(dtype == at::kFloat || dtype == at::kHalf || dtype == at::kBFloat16 || dtype == at::kDouble, op,
              ": dtype ", dtype, " is not supported on npu (float32, float16, bfloat16, float64)");
  TORCH_CHECK(state.dim() == 2, op, ": the cell state must be 2-D [batch, hidden], got ", state.sizes());
  const int64_t width = gates * state.size(1);
  for (const at::Tensor* t : {&input_gates, &hidden_gates}) {
    TORCH_CHECK(t->dim() == 2 && t->size(0) == state.size(0) && t->size(1) == width, op, ": gates of shape ",
                t->sizes(), " do not match the cell state ", state.sizes(), " (expected [", state.size(0), ", ",
                width, "])");
    TORCH_CHECK(t->scalar_type() == dtype, op, ": gates of dtype ", t->scalar_type(), " and cell state of dtype ",
                dtype, " differ");
  }
  for (const c10::optional<at::Tensor>* b : {&input_bias, &hidden_bias}) {
    if (b->has_value() && (*b)->defined()) {
      TORCH_CHECK((*b)->dim() == 1 && (*b)->size(0) == width, op, ": a bias of shape ", (*b)->sizes(),
                  " does not match ", width, " gate columns");
      TORCH_CHECK((*b)->scalar_type() == dtype, op, ": bias of dtype ", (*b)->scalar_type(), " differs from ", dtype);
    }
  }
}

}  // namespace

::std::tuple<at::Tensor, at::Tensor, at::Tensor> _thnn_fused_lstm_cell(const at::Tensor& input_gates,
                                                                        const at::Tensor& hidden_gates,
                                                                        const at::Tensor& cx,
                                                                        const c10::optional<at::Tensor>& input_bias,
                                                                        const c10::optional<at::Tensor>& hidden_bias) {
  check_cell("_thnn_fused_lstm_cell", input_gates, hidden_gates, cx, input_bias, hidden_bias, 4);
  c10_npu::NPUGuard guard(cx.device());
  at::Tensor hy = OpPreparation::apply_tensor_without_format(cx.sizes(), cx.options());
  at::Tensor cy = OpPreparation::apply_tensor_without_format(cx.sizes(), cx.options());
  at::Tensor workspace = OpPreparation::apply_tensor_without_format(input_gates.sizes(), cx.options());
  const c10::optional<at::Tensor> ib = defined_or_none(input_bias), hb = defined_or_none(hidden_bias);
  if (cx.numel() > 0) EXEC_NPU_CMD(aclnnThnnFusedLstmCell, input_gates, hidden_gates, cx, ib, hb, hy, cy, workspace);
  return std::make_tuple(hy, cy, workspace);
}

::std::tuple<at::Tensor, at::Tensor, at::Tensor> _thnn_fused_lstm_cell_backward_impl(
    const c10::optional<at::Tensor>& grad_hy, const c10::optional<at::Tensor>& grad_cy, const at::Tensor& cx,
    const at::Tensor& cy, const at::Tensor& workspace, bool has_bias) {
  const char* op = "_thnn_fused_lstm_cell_backward_impl";
  const c10::optional<at::Tensor> ghy = defined_or_none(grad_hy), gcy = defined_or_none(grad_cy);
  if (!ghy.has_value() && !gcy.has_value()) return std::make_tuple(at::Tensor(), at::Tensor(), at::Tensor());
  TORCH_CHECK(cx.dim() == 2 && cy.sizes() == cx.sizes(), op, ": cx ", cx.sizes(), " and cy ", cy.sizes(),
              " must be the same 2-D shape");
  TORCH_CHECK(workspace.dim() == 2 && workspace.size(0) == cx.size(0) && workspace.size(1) == 4 * cx.size(1), op,
              ": workspace ", workspace.sizes(), " does not match cx ", cx.sizes());
  c10_npu::NPUGuard guard(cx.device());
  at::Tensor grad_gates = OpPreparation::apply_tensor_without_format(workspace.sizes(), cx.options());
  at::Tensor grad_cx = OpPreparation::apply_tensor_without_format(cx.sizes(), cx.options());
  at::Tensor grad_bias = has_bias ? OpPreparation::apply_tensor_without_format({workspace.size(1)}, cx.options())
                                  : at::Tensor();
  const c10::optional<at::Tensor> gb = has_bias ? c10::optional<at::Tensor>(grad_bias) : c10::nullopt;
  if (cx.numel() > 0) {
    EXEC_NPU_CMD(aclnnThnnFusedLstmCellBackward, ghy, gcy, cx, cy, workspace, has_bias, grad_gates, grad_cx, gb);
  } else if (has_bias) {
    grad_bias.zero_();
  }
  return std::make_tuple(grad_gates, grad_cx, grad_bias);
}

::std::tuple<at::Tensor, at::Tensor> _thnn_fused_gru_cell(const at::Tensor& input_gates,
                                                          const at::Tensor& hidden_gates, const at::Tensor& hx,
                                                          const c10::optional<at::Tensor>& input_bias,
                                                          const c10::optional<at::Tensor>& hidden_bias) {
  check_cell("_thnn_fused_gru_cell", input_gates, hidden_gates, hx, input_bias, hidden_bias, 3);
  c10_npu::NPUGuard guard(hx.device());
  at::Tensor hy = OpPreparation::apply_tensor_without_format(hx.sizes(), hx.options());
  at::Tensor workspace = OpPreparation::apply_tensor_without_format({hx.size(0), 5 * hx.size(1)}, hx.options());
  const c10::optional<at::Tensor> ib = defined_or_none(input_bias), hb = defined_or_none(hidden_bias);
  if (hx.numel() > 0) EXEC_NPU_CMD(aclnnThnnFusedGruCell, input_gates, hidden_gates, hx, ib, hb, hy, workspace);
  return std::make_tuple(hy, workspace);
}

::std::tuple<at::Tensor, at::Tensor, at::Tensor, at::Tensor, at::Tensor> _thnn_fused_gru_cell_backward(
    const at::Tensor& grad_hy, const at::Tensor& workspace, bool has_bias) {
  const char* op = "_thnn_fused_gru_cell_backward";
  TORCH_CHECK(grad_hy.dim() == 2, op, ": grad_hy must be 2-D [batch, hidden], got ", grad_hy.sizes());
  TORCH_CHECK(workspace.dim() == 2 && workspace.size(0) == grad_hy.size(0) && workspace.size(1) == 5 * grad_hy.size(1),
              op, ": workspace ", workspace.sizes(), " does not match grad_hy ", grad_hy.sizes());
  c10_npu::NPUGuard guard(grad_hy.device());
  const int64_t rows = grad_hy.size(0), hidden = grad_hy.size(1);
  const auto options = grad_hy.options();
  at::Tensor grad_input_gates = OpPreparation::apply_tensor_without_format({rows, 3 * hidden}, options);
  at::Tensor grad_hidden_gates = OpPreparation::apply_tensor_without_format({rows, 3 * hidden}, options);
  at::Tensor grad_hx = OpPreparation::apply_tensor_without_format({rows, hidden}, options);
  at::Tensor grad_input_bias = has_bias ? OpPreparation::apply_tensor_without_format({3 * hidden}, options) : at::Tensor();
  at::Tensor grad_hidden_bias = has_bias ? OpPreparation::apply_tensor_without_format({3 * hidden}, options) : at::Tensor();
  const c10::optional<at::Tensor> gib = has_bias ? c10::optional<at::Tensor>(grad_input_bias) : c10::nullopt;
  const c10::optional<at::Tensor> ghb = has_bias ? c10::optional<at::Tensor>(grad_hidden_bias) : c10::nullopt;
  if (grad_hy.numel() > 0) {
    EXEC_NPU_CMD(aclnnThnnFusedGruCellBackward, grad_hy, workspace, has_bias, grad_input_gates, grad_hidden_gates,
                 grad_hx, gib, ghb);
  } else if (has_bias) {
    grad_input_bias.zero_();
    grad_hidden_bias.zero_();
  }
  return std::make_tuple(grad_input_gates, grad_hidden_gates, grad_hx, grad_input_bias, grad_hidden_bias);
}

}  // namespace op_api
