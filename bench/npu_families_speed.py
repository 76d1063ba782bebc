"""Operator families on the simulated npu next to torch on the CPU, float32 and float16.

One row per operator and dtype at a shape models use: milliseconds per call on each device (npu:
queued work included, `torch.npu.synchronize()` closes each round) and the ratio CPU / npu
(>= 1: npu as fast as CPU; the target of each family is >= 0.8x). An operator that has no npu
kernel for the dtype (the CPU fallback would run it) is listed as such and not timed; one that
raises on either device says so. Nothing is asserted.

    build/venvs/v2.13/bin/python bench/npu_families_speed.py [--rounds 5] [--iters 3] [-k softmax]
    (or: nox -s bench -- v2.13 npu_families_speed)
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable
from typing import Any

# torch's OpenMP threads otherwise busy-wait after each op and take the cores from the
# simulator's AI-core threads timed next (both share the same CPUs).
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

import opplugin_runtime  # noqa: E402, F401  (registers torch.npu)
import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402
from npu_conv_pool_speed import per_call_ms  # noqa: E402  (bench/ is the script's directory)

TARGET = 0.8

ROWS, COLS = 4096, 1024          # activations of a transformer layer: tokens x hidden
IMAGE = (16, 64, 56, 56)         # a ResNet stage: batch, channels, height, width


def _make(device: str, dtype: torch.dtype) -> dict[str, Any]:
    """The operands, made once per device and dtype from the same CPU values."""
    g = torch.Generator().manual_seed(0)

    def rand(*shape: int, low: float = -2.0, high: float = 2.0) -> torch.Tensor:
        return (torch.rand(*shape, generator=g) * (high - low) + low).to(dtype).to(device)

    x, y = rand(ROWS, COLS), rand(ROWS, COLS)
    return {
        "x": x, "y": y, "pos": rand(ROWS, COLS, low=0.1, high=4.0), "unit": rand(ROWS, COLS, low=-0.9, high=0.9),
        "mask": (rand(ROWS, COLS) > 0).to(device),
        "idx": torch.randint(0, ROWS, (ROWS // 2,), generator=g).to(device),
        "cols": torch.randint(0, COLS, (ROWS, 64), generator=g).to(device),
        "parts": [rand(ROWS // 8, COLS) for _ in range(8)],
        "img": rand(*IMAGE), "logits": rand(ROWS, 1000),
        "target": torch.randint(0, 1000, (ROWS,), generator=g).to(device),
        "w": rand(COLS, low=0.5, high=1.5), "b": rand(COLS),
        "gw": rand(IMAGE[1], low=0.5, high=1.5), "gb": rand(IMAGE[1]),
        "seq": rand(32, 128, 256), "h0": rand(1, 32, 256), "c0": rand(1, 32, 256),
    }


# family -> [(name, fn(operands))]
FAMILIES: dict[str, list[tuple[str, Callable[[dict[str, Any]], Any]]]] = {
    "pointwise unary": [
        ("exp", lambda o: torch.exp(o["x"])),
        ("sin", lambda o: torch.sin(o["x"])),
        ("erf", lambda o: torch.erf(o["x"])),
        ("log1p", lambda o: torch.log1p(o["pos"])),
        ("sigmoid", lambda o: torch.sigmoid(o["x"])),
        ("gelu", lambda o: F.gelu(o["x"])),
        ("hardswish", lambda o: F.hardswish(o["x"])),
        ("round", lambda o: torch.round(o["x"])),
    ],
    "pointwise binary": [
        ("add", lambda o: o["x"] + o["y"]),
        ("mul", lambda o: o["x"] * o["y"]),
        ("div", lambda o: o["x"] / o["pos"]),
        ("div floor", lambda o: torch.div(o["x"], o["pos"], rounding_mode="floor")),
        ("pow tensor", lambda o: torch.pow(o["pos"], o["y"])),
        ("clamp", lambda o: torch.clamp(o["x"], -1.0, 1.0)),
        ("where", lambda o: torch.where(o["mask"], o["x"], o["y"])),
        ("lerp", lambda o: torch.lerp(o["x"], o["y"], 0.3)),
        ("addcmul", lambda o: torch.addcmul(o["x"], o["y"], o["pos"], value=0.5)),
    ],
    "reductions": [
        ("sum dim -1", lambda o: o["x"].sum(-1)),
        ("mean dim 0", lambda o: o["x"].mean(0)),
        ("var dim -1", lambda o: o["x"].var(-1)),
        ("amax dim -1", lambda o: o["x"].amax(-1)),
        ("argmax dim -1", lambda o: o["x"].argmax(-1)),
        ("max dim -1", lambda o: o["x"].max(-1)),
        ("logsumexp dim -1", lambda o: torch.logsumexp(o["x"], -1)),
        ("norm dim -1", lambda o: torch.linalg.vector_norm(o["x"], dim=-1)),
        ("cumsum dim -1", lambda o: torch.cumsum(o["x"], -1)),
    ],
    "sort and select": [
        ("sort dim -1", lambda o: torch.sort(o["x"], -1)),
        ("topk 10", lambda o: torch.topk(o["x"], 10, -1)),
        ("argsort dim -1", lambda o: torch.argsort(o["x"], -1)),
    ],
    "indexing": [
        ("index_select", lambda o: o["x"].index_select(0, o["idx"])),
        ("x[idx]", lambda o: o["x"][o["idx"]]),
        ("index_put_ accumulate", lambda o: o["x"].clone().index_put_((o["idx"],), o["y"][: ROWS // 2],
                                                                     accumulate=True)),
        ("gather", lambda o: o["x"].gather(1, o["cols"])),
        ("masked_select", lambda o: o["x"].masked_select(o["mask"])),
        ("nonzero", lambda o: o["mask"].nonzero()),
    ],
    "shape": [
        ("cat 8 parts", lambda o: torch.cat(o["parts"])),
        ("flip dim -1", lambda o: o["x"].flip(-1)),
        ("roll 7", lambda o: o["x"].roll(7, -1)),
        ("repeat 2x1", lambda o: o["x"].repeat(2, 1)),
        ("triu", lambda o: o["x"].triu()),
    ],
    "pooling and resize": [
        ("avg_pool2d 3/2", lambda o: F.avg_pool2d(o["img"], 3, 2)),
        ("max_pool2d 3/2", lambda o: F.max_pool2d(o["img"], 3, 2)),
        ("adaptive_avg_pool2d 1", lambda o: F.adaptive_avg_pool2d(o["img"], 1)),
        ("interpolate nearest x2", lambda o: F.interpolate(o["img"], scale_factor=2, mode="nearest")),
        ("interpolate bilinear x2", lambda o: F.interpolate(o["img"], scale_factor=2, mode="bilinear")),
    ],
    "normalization": [
        ("softmax dim -1", lambda o: torch.softmax(o["x"], -1)),
        ("layer_norm", lambda o: F.layer_norm(o["x"], (COLS,), o["w"], o["b"])),
        ("group_norm 32", lambda o: F.group_norm(o["img"], 32, o["gw"], o["gb"])),
    ],
    "losses": [
        ("cross_entropy", lambda o: F.cross_entropy(o["logits"], o["target"])),
        ("mse_loss", lambda o: F.mse_loss(o["x"], o["y"])),
        ("smooth_l1_loss", lambda o: F.smooth_l1_loss(o["x"], o["y"])),
        ("bce_with_logits", lambda o: F.binary_cross_entropy_with_logits(o["x"], o["unit"].abs())),
    ],
}


def falls_back(fn: Callable[[], Any]) -> list[str]:
    """The aten operators of one call that ran on the CPU fallback."""
    torch.npu.reset_path_ledger()
    fn()
    torch.npu.synchronize()
    return sorted(op for op, paths in torch.npu.path_ledger().items() if paths.get("cpu_fallback"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--iters", type=int, default=3)
    parser.add_argument("-k", default="", help="only rows whose family or name contains this")
    opts = parser.parse_args()
    print(f"torch {torch.__version__}, {torch.get_num_threads()} CPU threads; ratio = CPU / npu, target >= {TARGET}x")
    torch.npu.set_fallback_mode("silent")
    below: list[str] = []
    for dtype in (torch.float32, torch.float16):
        cpu_ops, npu_ops = _make("cpu", dtype), _make("npu", dtype)
        for family, rows in FAMILIES.items():
            print(f"\n{family} ({str(dtype).replace('torch.', '')})")
            for name, op in rows:
                if opts.k and opts.k not in family and opts.k not in name:
                    continue
                label = f"  {name:<26}"
                try:
                    missing = falls_back(lambda op=op, o=npu_ops: op(o))
                    if missing:
                        print(f"{label} no npu kernel: {', '.join(missing)} run on the CPU fallback")
                        continue
                    npu = per_call_ms(lambda op=op, o=npu_ops: op(o), opts.iters, opts.rounds, torch.npu.synchronize)
                    cpu = per_call_ms(lambda op=op, o=cpu_ops: op(o), opts.iters, opts.rounds, lambda: None)
                except Exception as error:  # noqa: BLE001  a row that cannot run says why
                    print(f"{label} fails: {type(error).__name__}: {str(error).splitlines()[0][:100]}")
                    continue
                ratio = cpu / npu
                mark = "" if ratio >= TARGET else "  below target"
                if mark:
                    below.append(f"{name} ({str(dtype).replace('torch.', '')}) {ratio:.2f}x")
                print(f"{label} npu {npu:8.2f} ms   cpu {cpu:8.2f} ms   ratio {ratio:5.2f}x{mark}")
    print(f"\nbelow {TARGET}x: {', '.join(below) if below else 'none'}")


if __name__ == "__main__":
    main()
