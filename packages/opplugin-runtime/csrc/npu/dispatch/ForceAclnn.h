// FORCE_ACLNN_OP_LIST=add,mul.Tensor: ops that take the op_api path whatever
// the compile mode. Entries match with or without the overload name.
#pragma once

#include <string>
#include <unordered_set>

namespace at_npu::native {

class ForceAclnn {
 public:
  static ForceAclnn& GetInstance();

  // `op` is "name" or "name.overload". False at once when the list is empty.
  bool IsForceAclnnOp(const char* op) const {
    return !ops_.empty() && Contains(op);
  }

  // Re-reads FORCE_ACLNN_OP_LIST (tests change it at run time).
  void Reload();

 private:
  ForceAclnn();
  bool Contains(const char* op) const;

  std::unordered_set<std::string> ops_;
};

}  // namespace at_npu::native
