"""Where the tests find the checkout's files."""

from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
"""The root of the checkout."""

DEVELOPERS_GUIDE = REPO / "docs" / "developers.md"
"""The developers' guide, whose worked examples and measured figures tests hold to the code."""
