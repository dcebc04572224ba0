"""Tests of `tools/`: the bench, the key-contrast measure, the service test's harness."""
