"""Upstream's torch_npu on the simulated device: what `nox -s real-torch-npu -- v2.13` shows first.

Run it in an environment where upstream's torch_npu is installed, with the simulator's CANN-style
install on the environment (`eval "$(python -m ascendc_kernels.toolkit)"`): the devices upstream's
runtime finds, a few operators next to CPU, one training step, and what an operator the simulator
lacks says.
"""

from __future__ import annotations

import os

import torch
import torch_npu


def main() -> None:
    print(f"torch_npu {torch_npu.__version__} from {os.path.dirname(torch_npu.__file__)}")
    print(f"devices: {torch.npu.device_count()} x {torch.npu.get_device_name(0)}")
    torch.manual_seed(0)
    a, b = torch.randn(3, 4), torch.randn(3, 4)
    for name, fn in (("add", lambda x, y: x + y), ("mul", lambda x, y: x * y), ("exp", lambda x, y: x.exp()),
                     ("softmax", lambda x, y: x.softmax(-1)), ("mm", lambda x, y: x @ y.t())):
        npu = fn(a.npu(), b.npu()).cpu()
        same = torch.allclose(npu, fn(a, b), rtol=1e-5, atol=1e-5)
        values = [round(v, 4) for v in npu.flatten()[:4].tolist()]
        print(f"{name:8} {'matches CPU' if same else 'DIFFERS from CPU'}: {values}")
    weights = {}
    for device in ("cpu", "npu"):
        torch.manual_seed(1)
        model = torch.nn.Linear(4, 2).to(device)
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1, foreach=False)  # no aclnnForeach* yet
        loss = model(a.to(device)).pow(2).mean()
        loss.backward()
        optimizer.step()
        weights[device] = model.weight.detach().cpu()
    same = torch.allclose(weights["npu"], weights["cpu"], rtol=1e-5, atol=1e-6)
    print(f"one SGD step of a Linear layer: weights {'match' if same else 'DIFFER from'} CPU's")
    try:
        a.npu().sin().cpu()
    except RuntimeError as error:
        telling = [line for line in str(error).splitlines() if "not registered" in line or "not supported" in line]
        print(f"sin, which the simulator lacks: {(telling or str(error).splitlines())[0].strip()}")


if __name__ == "__main__":
    main()
