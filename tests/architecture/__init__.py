"""Tests of the project's shape: layers, import cycles, purity, the error root."""
