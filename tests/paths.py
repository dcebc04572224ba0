"""Where the tests find the checkout's files."""

from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
"""The root of the checkout."""
