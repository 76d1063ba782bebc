#include "npu/dispatch/ForceAclnn.h"

#include <cstdlib>
#include <cstring>
#include <sstream>

namespace at_npu::native {

ForceAclnn& ForceAclnn::GetInstance() {
  static ForceAclnn instance;
  return instance;
}

ForceAclnn::ForceAclnn() {
  Reload();
}

void ForceAclnn::Reload() {
  ops_.clear();
  const char* value = std::getenv("FORCE_ACLNN_OP_LIST");
  if (value == nullptr) {
    return;
  }
  std::stringstream list(value);
  std::string item;
  while (std::getline(list, item, ',')) {
    const auto begin = item.find_first_not_of(" \t");
    const auto end = item.find_last_not_of(" \t");
    if (begin != std::string::npos) {
      ops_.insert(item.substr(begin, end - begin + 1));
    }
  }
}

bool ForceAclnn::Contains(const char* op) const {
  if (ops_.count(op) != 0) {
    return true;
  }
  const char* dot = std::strchr(op, '.');
  return dot != nullptr && ops_.count(std::string(op, dot)) != 0;
}

}  // namespace at_npu::native
