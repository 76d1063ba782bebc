"""torch.npu.register_op_hook: pre/post hooks see op names, arguments and results."""

import torch


def test_hooks_see_op_name_args_and_result():
    calls = []

    def pre(op, args):
        calls.append(("pre", op, args))

    def post(op, result):
        calls.append(("post", op, result))

    a, b = torch.randn(3).npu(), torch.randn(3).npu()
    handle = torch.npu.register_op_hook(pre=pre, post=post)
    try:
        result = torch.add(a, b, alpha=2)
    finally:
        handle.remove()
    adds = [c for c in calls if c[1] == "add.Tensor"]
    assert [c[0] for c in adds] == ["pre", "post"]
    _, _, args = adds[0]
    assert args[0] is not None and torch.equal(args[0].cpu(), a.cpu()) and torch.equal(args[1].cpu(), b.cpu())
    assert args[2] == 2
    assert torch.equal(adds[1][2].cpu(), result.cpu())


def test_removed_hook_never_runs_again():
    seen = []
    handle = torch.npu.register_op_hook(pre=lambda op, args: seen.append(op))
    _ = torch.ones(2, device="npu") + 1
    assert "add.Tensor" in seen
    handle.remove()
    handle.remove()  # idempotent
    count = len(seen)
    _ = torch.ones(2, device="npu") + 1
    assert len(seen) == count
    import opplugin_runtime

    assert not opplugin_runtime._C.op_hook_enabled()


def test_hooks_do_not_recurse_and_context_manager():
    seen = []

    def pre(op, args):
        seen.append(op)
        _ = torch.ones(1, device="npu") + 1  # ops inside a hook do not trigger hooks

    with torch.npu.register_op_hook(pre=pre):
        _ = torch.abs(torch.ones(2, device="npu"))
    assert seen.count("add.Tensor") == 0
    assert "abs" in seen
    import opplugin_runtime

    assert not opplugin_runtime._C.op_hook_enabled()


def test_hooks_for_out_and_list_arguments():
    seen = {}

    def pre(op, args):
        seen[op] = args

    out = torch.empty(0, device="npu")
    with torch.npu.register_op_hook(pre=pre):
        torch.add(torch.ones(2, device="npu"), 3, out=out)
        torch.empty((2, 3), device="npu")
    assert seen["add.out"][3] is not None
    assert seen["empty.memory_format"][0] == [2, 3]
