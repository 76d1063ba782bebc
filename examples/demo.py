"""A short tour of the `npu` device: each op next to the same op on CPU, and
the implementation path the dual-path dispatch chose for it."""

import opplugin_runtime  # noqa: F401  registers the `npu` device and torch.npu
import torch


def show(title: str, npu_result: torch.Tensor, cpu_result: torch.Tensor) -> None:
    same = torch.allclose(npu_result.cpu(), cpu_result, rtol=1e-3, atol=1e-3)
    values = [round(v, 4) for v in npu_result.cpu().flatten()[:4].tolist()]
    print(f"{title:<38} {'matches CPU' if same else 'DIFFERS FROM CPU'}: {values}")


def paths_since_reset() -> str:
    taken = torch.npu.path_ledger()
    return ", ".join(
        f"{op} -> {'/'.join(path for path, n in sorted(counts.items()) if n)}" for op, counts in sorted(taken.items())
    )


def main() -> None:
    torch.manual_seed(0)
    print(f"devices: {torch.npu.device_count()} x {torch.npu.get_device_name(0)}")
    a_cpu, b_cpu = torch.randn(2, 3), torch.randn(2, 3)
    a, b = a_cpu.to("npu"), b_cpu.to("npu")
    # Printing needs ops this label does not declare (ne, masked_select, ...): they run
    # through the CPU fallback, which the path ledger counts; here without the warnings.
    torch.npu.reset_path_ledger()
    torch.npu.set_fallback_mode("silent")
    print(a)
    torch.npu.set_fallback_mode("warn")
    fallbacks = sorted(op for op, counts in torch.npu.path_ledger().items() if counts["cpu_fallback"])
    print("print() ran these through the CPU fallback:", ", ".join(fallbacks))

    torch.npu.reset_path_ledger()
    show("abs (generated op_api kernel)", torch.abs(a), torch.abs(a_cpu))
    show("add, jit compile off (op_api)", torch.add(a, b, alpha=2), torch.add(a_cpu, b_cpu, alpha=2))
    show("mul (generated op_api kernel)", a * b, a_cpu * b_cpu)
    print("paths:", paths_since_reset())

    torch.npu.set_compile_mode(jit_compile=True)
    torch.npu.reset_path_ledger()
    show("add, jit compile on (acl_op)", a + b, a_cpu + b_cpu)
    show("mul, jit compile on (acl_op)", a * b, a_cpu * b_cpu)
    print("paths:", paths_since_reset())
    torch.npu.set_compile_mode(jit_compile=False)

    c = torch.zeros(2, 3, device="npu:1")
    c.copy_(a)
    show("copy npu:0 -> npu:1, add_ on npu:1", c.add_(c), a_cpu + a_cpu)
    torch.npu.synchronize()


if __name__ == "__main__":
    main()
