#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include "op_plugin/utils/AdvancedIndexUtils.h"

#include <ATen/ExpandUtils.h>
#include <ATen/ops/nonzero.h>

#include <sstream>
#include <string>

namespace op_plugin::utils {

std::vector<at::Tensor> expand_indices(const at::Tensor& self, const c10::List<c10::optional<at::Tensor>>& indices) {
  TORCH_CHECK_INDEX(static_cast<int64_t>(indices.size()) <= self.dim(), "too many indices for tensor of dimension ",
                    self.dim(), " (got ", indices.size(), ")");
  std::vector<at::Tensor> result;
  for (size_t k = 0; k < indices.size(); ++k) {
    const c10::optional<at::Tensor> opt = indices.get(k);
    if (!opt.has_value() || !opt->defined()) {
      result.emplace_back();
      continue;
    }
    at::Tensor index = opt->device() == self.device() ? *opt : opt->to(self.device());
    const at::ScalarType t = index.scalar_type();
    if (t == at::kBool || t == at::kByte) {
      if (t == at::kByte) {
        TORCH_WARN("indexing with dtype torch.uint8 is now deprecated, please use a dtype torch.bool instead.");
      }
      const int64_t start = static_cast<int64_t>(result.size());
      TORCH_CHECK_INDEX(start + index.dim() <= self.dim(), "too many indices for tensor of dimension ", self.dim());
      for (int64_t j = 0; j < index.dim(); ++j) {
        TORCH_CHECK_INDEX(index.size(j) == self.size(start + j), "The shape of the mask ", index.sizes(),
                          " at index ", j, " does not match the shape of the indexed tensor ", self.sizes(),
                          " at index ", start + j);
      }
      const at::Tensor nz = (t == at::kByte ? index.to(at::kBool) : index).nonzero();
      for (int64_t j = 0; j < index.dim(); ++j) result.push_back(nz.select(1, j));
      continue;
    }
    TORCH_CHECK_INDEX(t == at::kLong || t == at::kInt,
                      "tensors used as indices must be long, int, byte or bool tensors");
    result.push_back(index);
  }
  TORCH_CHECK_INDEX(static_cast<int64_t>(result.size()) <= self.dim(), "too many indices for tensor of dimension ",
                    self.dim(), " (got ", result.size(), ")");
  return result;
}

std::vector<int64_t> indexing_shape(const at::Tensor& self, const std::vector<at::Tensor>& indices) {
  std::vector<int64_t> b;
  std::vector<int64_t> positions;
  bool first = true;
  for (size_t k = 0; k < indices.size(); ++k) {
    if (!indices[k].defined()) continue;
    if (first) {
      b = indices[k].sizes().vec();
      first = false;
    } else {
      bool ok = true;
      try {
        b = at::infer_size(b, indices[k].sizes());
      } catch (const c10::Error&) {
        ok = false;
      }
      if (!ok) {
        std::ostringstream shapes;
        for (const at::Tensor& t : indices) {
          if (t.defined()) shapes << t.sizes() << ", ";
        }
        std::string text = shapes.str();
        if (text.size() >= 2) text.resize(text.size() - 2);
        TORCH_CHECK_INDEX(false, "shape mismatch: indexing tensors could not be broadcast together with shapes ",
                          text);
      }
    }
    positions.push_back(static_cast<int64_t>(k));
  }
  TORCH_CHECK(!positions.empty(), "index: at least one index tensor must be given");
  bool adjacent = true;
  for (size_t j = 1; j < positions.size(); ++j) adjacent = adjacent && positions[j] == positions[j - 1] + 1;
  std::vector<int64_t> shape;
  auto indexed = [&](int64_t d) {
    for (int64_t p : positions) {
      if (p == d) return true;
    }
    return false;
  };
  if (adjacent) {
    for (int64_t d = 0; d < positions.front(); ++d) shape.push_back(self.size(d));
    shape.insert(shape.end(), b.begin(), b.end());
    for (int64_t d = positions.back() + 1; d < self.dim(); ++d) shape.push_back(self.size(d));
  } else {
    shape = b;
    for (int64_t d = 0; d < self.dim(); ++d) {
      if (!indexed(d)) shape.push_back(self.size(d));
    }
  }
  return shape;
}

bool any_index(const std::vector<at::Tensor>& indices) {
  for (const at::Tensor& t : indices) {
    if (t.defined()) return true;
  }
  return false;
}

void check_index_put_dtypes(const at::Tensor& self, const at::Tensor& values) {
  TORCH_CHECK(self.scalar_type() == values.scalar_type(), "Index put requires the source and destination dtypes "
              "match, got ", self.scalar_type(), " for the destination and ", values.scalar_type(), " for the source.");
}

std::vector<int64_t> index_put_shape(const at::Tensor& self, const std::vector<at::Tensor>& indices,
                                     const at::Tensor& values) {
  const std::vector<int64_t> shape = indexing_shape(self, indices);
  TORCH_CHECK(at::is_expandable_to(values.sizes(), shape), "shape mismatch: value tensor of shape ", values.sizes(),
              " cannot be broadcast to indexing result of shape ", c10::IntArrayRef(shape));
  int64_t numel = 1;
  for (int64_t d : shape) numel *= d;
  TORCH_CHECK_INDEX(numel == 0 || self.numel() > 0, "index is out of bounds for dimension with size 0");
  return shape;
}

}  // namespace op_plugin::utils
