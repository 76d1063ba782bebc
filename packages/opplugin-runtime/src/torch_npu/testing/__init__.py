"""``torch_npu.testing``: what upstream's operator tests import, so that such a test file runs here
as it is written.

- ``torch_npu.testing.testcase``: ``TestCase`` (``assertRtolEqual``, ``assertEqual(..., prec=...)``,
  ``precision``) and ``run_tests``;
- ``torch_npu.testing.common_utils``: ``create_common_tensor``, ``create_dtype_tensor``,
  ``test_2args_broadcast``, ``check_operators_in_prof``, ``SupportedDevices``,
  ``SkipIfNotGteCANNVersion``;
- ``torch_npu.testing.decorator``: ``Dtypes``, ``Formats`` and ``instantiate_tests``.

Importing these touches no device: the device is set when a test class starts.
"""
