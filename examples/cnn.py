"""Trains the cnn of examples/npu_models.py with sgd on `npu`: the loss per step next to
the CPU's, and at the end the path ledger (which ops ran on op_api, acl_op, or the CPU fallback)."""

from npu_models import run_example

if __name__ == "__main__":
    run_example("cnn", "sgd")
