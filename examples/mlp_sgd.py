"""Trains the mlp of examples/npu_models.py with sgd on `npu`: the loss per step next to
the CPU's, and at the end the path ledger (which ops ran on op_api, acl_op, or the CPU fallback).

--amp float16|bfloat16 runs both under torch.autocast with a GradScaler (mixed precision)."""

import argparse

import torch
from npu_models import run_example

if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--amp", choices=("float16", "bfloat16"), help="autocast dtype (default: float32 throughout)")
    args = parser.parse_args()
    run_example("mlp", "sgd", amp=getattr(torch, args.amp) if args.amp else None)
