// One of the toolkit's other libraries that CANN clients link (libacl_op_compiler, libge_runner,
// libgraph, libacl_tdt_channel, libmsprofiler). The functions of theirs that torch_npu calls are
// defined in libascendcl, which every one of them loads (DT_NEEDED): a client linked against CANN's
// split libraries loads, and dlsym on any of their handles finds the simulator's functions
// (libmsprofiler's aclprof* sessions among them). They define nothing of their own; libhccl, which
// does, has its own source (hccl.cpp).
