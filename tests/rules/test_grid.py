"""Coordinates: columns A–E, rows 1–5, read in any case."""

import pytest

from board_rules.codenames import ALL_COORDS, Coord, InvalidCoordError


def test_coordinates_parse_case_insensitively() -> None:
    assert Coord.parse("c3") == Coord.parse("C3") == Coord(row=2, column=2)


@pytest.mark.parametrize("text", ["", "C", "F1", "A0", "A6", "3C", "C33", "Ç3", "c٣"])
def test_malformed_coordinates_are_rejected_with_the_text(text: str) -> None:
    with pytest.raises(InvalidCoordError, match="expected A1 to E5"):
        Coord.parse(text)


def test_reading_order_runs_row_by_row_from_a1() -> None:
    assert [str(c) for c in ALL_COORDS[:7]] == ["A1", "B1", "C1", "D1", "E1", "A2", "B2"]
    assert str(ALL_COORDS[-1]) == "E5"
    assert all(Coord.from_index(c.index) == c for c in ALL_COORDS)


def test_repr_evaluates_back_to_the_coordinate() -> None:
    coord = Coord.parse("d4")
    assert eval(repr(coord)) == coord


@pytest.mark.parametrize(("row", "column"), [(-1, 0), (0, 5), (5, 0)])
def test_out_of_grid_positions_are_rejected(row: int, column: int) -> None:
    with pytest.raises(InvalidCoordError):
        Coord(row=row, column=column)
