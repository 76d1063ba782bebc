#include "op_plugin/utils/DropoutUtils.h"

#include <c10/util/Exception.h>

namespace op_plugin::utils {

void check_dropout_probability(const char* op, double p) {
  TORCH_CHECK(p >= 0 && p <= 1, op, ": dropout probability has to be between 0 and 1, but got ", p);
}

}  // namespace op_plugin::utils
