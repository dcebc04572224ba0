"""Import the scripts of hardware/ (not a package: they import their siblings by name)."""

from __future__ import annotations

import importlib
import sys
from types import ModuleType

from ..paths import REPO

HARDWARE = REPO / "hardware"


def load(name: str) -> ModuleType:
    """hardware/<name>.py, with its siblings importable while it loads."""
    sys.path.insert(0, str(HARDWARE))
    try:
        return importlib.import_module(name)
    finally:
        sys.path.remove(str(HARDWARE))
