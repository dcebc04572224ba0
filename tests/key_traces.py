"""What of a key may show in a text that must not hold it (a log, an export without the key).

The key as its letters (with or without the row slashes, any case) and, for each card not yet
covered, its coordinate followed by its identity as a word: what a reader of the text could
learn the key from. Covered cards' identities are public, so they may show.
"""

from __future__ import annotations

import re
from collections.abc import Collection

from board_rules.codenames import ALL_COORDS, Coord, Key


def key_traces(text: str, key: Key, covered: Collection[Coord] = ()) -> list[str]:
    """Every trace of `key` found in `text`, empty when there is none."""
    letters = str(key).replace("/", "")
    found = [
        form for form in (str(key), letters, str(key).lower(), letters.lower()) if form in text
    ]
    for coord in ALL_COORDS:
        if coord in covered:
            continue
        identity = key[coord].value
        pattern = rf"\b{coord}\b\W{{0,4}}{identity}\b"
        found += [match.group(0) for match in re.finditer(pattern, text, re.IGNORECASE)]
    return found
