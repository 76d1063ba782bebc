# The files here are operator tests in upstream torch_npu's idioms (unittest, run as scripts);
# tests/test_torch_npu_testing.py runs them in subprocesses, so pytest does not collect them.
collect_ignore_glob = ["test_*.py"]
