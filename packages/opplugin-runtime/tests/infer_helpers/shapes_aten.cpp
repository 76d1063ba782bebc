#include "bindings.h"

#include <utility>

namespace {

using PadShape = op_infer::SmallVector (*)(const at::Tensor&, at::IntArrayRef);

const std::pair<const char*, PadShape> kPadShapes[] = {
    {"reflection_pad1d_npu_out_size", &op_infer::reflection_pad1d_npu_out_size},
    {"reflection_pad2d_npu_out_size", &op_infer::reflection_pad2d_npu_out_size},
    {"reflection_pad3d_npu_out_size", &op_infer::reflection_pad3d_npu_out_size},
    {"replication_pad1d_npu_out_size", &op_infer::replication_pad1d_npu_out_size},
    {"replication_pad2d_npu_out_size", &op_infer::replication_pad2d_npu_out_size},
    {"replication_pad3d_npu_out_size", &op_infer::replication_pad3d_npu_out_size},
};

}  // namespace

void BindAtenShapes(pybind11::module& m) {
  m.def("broadcast_ops_npu_output_size", [](const at::Tensor& a, const at::Tensor& b) {
    return ToList(op_infer::broadcast_ops_npu_output_size(a, b));
  });
  m.def("input_same_output_size", [](const at::Tensor& t) { return ToList(op_infer::input_same_output_size(t)); });
  m.def("clamp_npu_output_size",
        [](const at::Tensor& self, const c10::optional<at::Tensor>& min, const c10::optional<at::Tensor>& max) {
          return ToList(op_infer::clamp_npu_output_size(self, min, max));
        });
  m.def("isclose_output_size", [](const at::Tensor& self, const at::Tensor& other, double rtol, double atol,
                                  bool equal_nan) {
    return ToList(op_infer::isclose_output_size(self, other, rtol, atol, equal_nan));
  });
  m.def("addr_npu_output_size", [](const at::Tensor& self, const at::Tensor& vec1, const at::Tensor& vec2) {
    return ToList(op_infer::addr_npu_output_size(self, vec1, vec2));
  });
  m.def("reduce_ops_npu_output_size", [](const at::Tensor& self, const std::vector<int64_t>& dim, bool keepdim) {
    return ToList(op_infer::reduce_ops_npu_output_size(self, dim, keepdim));
  });
  m.def("repeat_npu_output_size", [](const at::Tensor& self, const std::vector<int64_t>& repeats) {
    return ToList(op_infer::repeat_npu_output_size(self, repeats));
  });
  m.def("stack_output_size", [](const std::vector<at::Tensor>& tensors, int64_t dim) {
    return ToList(op_infer::stack_output_size(tensors, dim));
  });
  m.def("glu_npu_output_size",
        [](const at::Tensor& self, int64_t dim) { return ToList(op_infer::glu_npu_output_size(self, dim)); });
  m.def("cdist_npu_output_size",
        [](const at::Tensor& x1, const at::Tensor& x2) { return ToList(op_infer::cdist_npu_output_size(x1, x2)); });
  m.def("triangular_solve_output_size", [](const at::Tensor& self, const at::Tensor& A) {
    const auto shapes = op_infer::triangular_solve_output_size(self, A);
    return std::make_tuple(ToList(std::get<0>(shapes)), ToList(std::get<1>(shapes)));
  });
  m.def("adaptive_avg_pool3d_npu_output_size", [](const at::Tensor& self, const std::vector<int64_t>& output_size) {
    return ToList(op_infer::adaptive_avg_pool3d_npu_output_size(self, output_size));
  });
  m.def("max_pool2d_out_size", [](const at::Tensor& self, const std::vector<int64_t>& output_size) {
    return ToList(op_infer::max_pool2d_out_size(self, output_size));
  });
  m.def("max_pool3d_output_size", [](const at::Tensor& self, const std::vector<int64_t>& output_size) {
    return ToList(op_infer::max_pool3d_output_size(self, output_size));
  });
  for (const auto& entry : kPadShapes) {
    const PadShape shape_of = entry.second;
    m.def(entry.first, [shape_of](const at::Tensor& self, const std::vector<int64_t>& padding) {
      return ToList(shape_of(self, padding));
    });
  }
  m.def("im2col_backward_npu_output_size", [](const at::Tensor& grad_output, const std::vector<int64_t>& input_size,
                                              const std::vector<int64_t>& kernel_size) {
    return ToList(op_infer::im2col_backward_npu_output_size(grad_output, input_size, kernel_size));
  });
}
