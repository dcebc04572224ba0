"""The players' labels of the Coda screen, left of their rows, whole in every language.

A label is 3 lines in a column `LABEL_WIDTH` cells wide (`firmware.coda.scene.label`): the name
with the turn's mark, the computer's level with "out" or "winner", and the drawn tile's note. A
line wider than the column wraps, and the label's last line falls out of its 3 rows.
"""

from __future__ import annotations

import itertools

import pytest
from rich.cells import cell_len

from board_rules.coda.state import MAX_PLAYERS
from firmware.coda.app import LABEL_WIDTH
from firmware.coda.controller import player_names
from firmware.coda.texts import TEXTS, CodaTexts


def label_lines(texts: CodaTexts) -> list[str]:
    """Every line a label can show, as `scene.label` writes them."""
    names = player_names(texts, MAX_PLAYERS)
    levels = [texts["easy"], texts["hard"], texts["expert"]]
    # A person's label has no level; one is out, or the winner, or neither.
    level_marks: list[list[str]] = [[], *([level] for level in levels)]
    end_marks: list[list[str]] = [[], [texts["out"]], [texts["winner_mark"]]]
    marks = [level + end for level, end in itertools.product(level_marks, end_marks)]
    return [
        *(f"{turn}{name}" for turn in ("▶ ", "  ") for name in names),
        *(f"  {' · '.join(mark)}" for mark in marks),
        f"  {texts['drawn']} ▸",
    ]


def too_wide(texts: CodaTexts) -> list[str]:
    return [line for line in label_lines(texts) if cell_len(line) > LABEL_WIDTH]


@pytest.mark.parametrize("language", list(TEXTS))
def test_every_label_line_fits_its_column(language: str) -> None:
    assert too_wide(TEXTS[language]) == []


def test_a_label_line_too_wide_is_caught() -> None:
    texts = CodaTexts(**{**TEXTS["en"], "expert": "grand master"})
    assert too_wide(texts) == ["  grand master · winner"]
