"""The cut files: current with mechanics.toml, at 1:1 in millimetres, the overlay unpierced,
and the LED strip's pitch inside the key's cells."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import ezdxf
import pytest

from firmware.drivers.led_layout import CELLS
from firmware.drivers.pinout import load_pin_map

from .hardware_scripts import HARDWARE, load

CUT = HARDWARE / "cut"


@pytest.fixture(scope="module")
def cut() -> ModuleType:
    return load("make_cut_dxf")


def entities(name: str, layer: str = "CUT") -> list[object]:
    doc = ezdxf.readfile(CUT / f"{name}.dxf")
    assert doc.units == ezdxf.units.MM
    return [entity for entity in doc.modelspace() if entity.dxf.layer == layer]


def rectangles(name: str, layer: str = "CUT") -> list[tuple[float, float]]:
    sizes = []
    for entity in entities(name, layer):
        if entity.dxftype() == "LWPOLYLINE":  # type: ignore[attr-defined]
            xs, ys = zip(*((p[0], p[1]) for p in entity.get_points()), strict=True)  # type: ignore[attr-defined]
            sizes.append((round(max(xs) - min(xs), 3), round(max(ys) - min(ys), 3)))
    return sizes


def test_cut_files_are_current(cut: ModuleType) -> None:
    assert cut.main(["--check"]) == 0


def test_check_mode_reports_a_stale_file(cut: ModuleType, tmp_path: Path) -> None:
    assert cut.main(["--output", str(tmp_path), "--check"]) == 1
    assert cut.main(["--output", str(tmp_path)]) == 0
    assert cut.main(["--output", str(tmp_path), "--check"]) == 0
    assert {path.name for path in tmp_path.iterdir()} == {path.name for path in CUT.iterdir()}


def test_top_has_a_pocket_per_card_and_the_console_holes(cut: ModuleType) -> None:
    mech, pins = load("make_layout_svg").load_mechanics(), load_pin_map()
    pocket = tuple(round(size, 3) for size in mech.pocket)
    cards = len(pins.matrix_rows) * (len(pins.matrix_columns) - 1)
    assert rectangles("top").count(pocket) == cards
    holes = sorted(round(e.dxf.radius * 2, 2) for e in entities("top") if e.dxftype() == "CIRCLE")  # type: ignore[attr-defined]
    assert holes.count(cut.BUTTON_HOLE) == 5 and holes.count(cut.ENCODER_HOLE) == 1


def test_overlay_has_no_hole_and_clears_the_frame_screws(cut: ModuleType) -> None:
    assert [e for e in entities("overlay") if e.dxftype() == "CIRCLE"] == []  # type: ignore[attr-defined]
    ((overlay_w, overlay_h),) = rectangles("overlay")
    (frame_w, frame_h), *_ = sorted(rectangles("frame"), reverse=True)
    screw_edge = cut.FRAME_SCREW_INSET + cut.CORNER_HOLE / 2
    assert (frame_w - overlay_w) / 2 >= screw_edge + cut.OVERLAY_MARGIN - 1e-6
    assert (frame_h - overlay_h) / 2 >= screw_edge + cut.OVERLAY_MARGIN - 1e-6


def test_strip_pitch_keeps_every_pixel_inside_its_cell(cut: ModuleType) -> None:
    mech = load("make_layout_svg").load_mechanics()
    assert cut.strip_pitch(mech) == pytest.approx(1000 / 60)
    opening = mech.mm("key", "cell_pitch") - mech.mm("key", "wall")
    worst = max(abs(offset) for offset in cut.pixel_offsets(mech))
    assert worst == pytest.approx(2 * (1000 / 60 - 16))
    assert worst + cut.STRIP_LED_SIZE / 2 < opening / 2
    marks = rectangles("key_panel", "MARK")
    assert len(marks) == CELLS


def test_every_part_is_labelled_with_its_count_and_material() -> None:
    for path in CUT.glob("*.dxf"):
        texts = [e.dxf.text for e in entities(path.stem, "MARK") if e.dxftype() == "TEXT"]  # type: ignore[attr-defined]
        assert len(texts) == 1 and texts[0].startswith(f"{path.stem} x"), path.name


def test_rendering_twice_draws_the_same(cut: ModuleType) -> None:
    mech, pins = load("make_layout_svg").load_mechanics(), load_pin_map()
    first = [cut.drawn(cut.render(part)) for part in cut.parts(mech, 5, len(pins.matrix_rows))]
    second = [cut.drawn(cut.render(part)) for part in cut.parts(mech, 5, len(pins.matrix_rows))]
    assert first == second and all(first)


def corners_of(name: str) -> list[tuple[float, float, float, float]]:
    """(x0, y0, x1, y1) of each rectangle cut in a part, its outline first."""
    boxes = []
    for entity in entities(name):
        if entity.dxftype() == "LWPOLYLINE":  # type: ignore[attr-defined]
            xs, ys = zip(*((p[0], p[1]) for p in entity.get_points()), strict=True)  # type: ignore[attr-defined]
            boxes.append((min(xs), min(ys), max(xs), max(ys)))
    return boxes


def test_no_two_openings_in_the_top_overlap_and_all_lie_inside_it() -> None:
    outline, *openings = corners_of("top")
    for index, (x0, y0, x1, y1) in enumerate(openings):
        assert outline[0] < x0 < x1 < outline[2] and outline[1] < y0 < y1 < outline[3]
        for other in openings[index + 1 :]:
            apart = x1 <= other[0] or other[2] <= x0 or y1 <= other[1] or other[3] <= y0
            assert apart, ((x0, y0, x1, y1), other)


def test_frame_screws_stay_clear_of_the_second_displays_window(cut: ModuleType) -> None:
    mech = load("make_layout_svg").load_mechanics()
    window_w, _ = cut._pair(mech, "console", "oled_window")
    (frame_x0, _, frame_x1, _), *_ = corners_of("frame")
    middle = (frame_x0 + frame_x1) / 2
    screws = [e.dxf.center[0] for e in entities("frame") if e.dxftype() == "CIRCLE"]  # type: ignore[attr-defined]
    assert screws and all(abs(x - middle) > window_w / 2 + cut.CORNER_HOLE for x in screws)
