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


def test_pre_post_order_across_hooks_and_ops():
    log = []

    def hook(tag):
        return (lambda op, args: log.append((f"pre{tag}", op)), lambda op, result: log.append((f"post{tag}", op)))

    x = torch.randn(4).npu()
    pre1, post1 = hook(1)
    pre2, post2 = hook(2)
    first = torch.npu.register_op_hook(pre=pre1, post=post1)
    second = torch.npu.register_op_hook(pre=pre2, post=post2)
    try:
        abs_result = torch.abs(x)
        mul_result = torch.mul(x, x)
        first.remove()
        torch.abs(x)
    finally:
        first.remove()
        second.remove()
    torch.abs(x)  # no hook left
    torch.testing.assert_close(abs_result.cpu(), x.cpu().abs())
    torch.testing.assert_close(mul_result.cpu(), x.cpu() * x.cpu())
    seen = [entry for entry in log if entry[1] in ("abs", "mul.Tensor")]
    assert seen == [
        ("pre1", "abs"), ("pre2", "abs"), ("post1", "abs"), ("post2", "abs"),
        ("pre1", "mul.Tensor"), ("pre2", "mul.Tensor"), ("post1", "mul.Tensor"), ("post2", "mul.Tensor"),
        ("pre2", "abs"), ("post2", "abs"),
    ]


def test_post_hook_sees_inplace_result_after_the_op():
    seen = []
    x = torch.tensor([-1.0, 2.0, -3.0]).npu()
    with torch.npu.register_op_hook(
        pre=lambda op, args: seen.append(("pre", op, args[0].cpu().clone())) if op == "abs_" else None,
        post=lambda op, result: seen.append(("post", op, result.cpu().clone())) if op == "abs_" else None,
    ):
        x.abs_()
    assert [s[0] for s in seen] == ["pre", "post"]
    torch.testing.assert_close(seen[0][2], torch.tensor([-1.0, 2.0, -3.0]))  # pre: before the op ran
    torch.testing.assert_close(seen[1][2], torch.tensor([1.0, 2.0, 3.0]))
