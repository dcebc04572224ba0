"""SVG drawings for the hardware folder: a small document builder shared by its generators.

hardware/make_wiring_svg.py and hardware/make_layout_svg.py draw with it; neither is a package
module (they are scripts run from the repository root), so each imports this file as a sibling.
"""

from __future__ import annotations

import sys
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from pathlib import Path

Point = tuple[float, float]

STYLE = """
text { font-family: 'DejaVu Sans', Arial, Helvetica, sans-serif; font-size: 12px; fill: #212529; }
.title { font-size: 20px; font-weight: bold; }
.heading { font-size: 14px; font-weight: bold; }
.small { font-size: 11px; }
.pinno { font-size: 9px; fill: #ffffff; text-anchor: middle; }
.cell { font-size: 11px; font-weight: bold; }
.box { fill: #f8f9fa; stroke: #495057; stroke-width: 1.2; }
.wire { stroke-width: 2; fill: none; }
.thin { stroke: #212529; stroke-width: 1.2; fill: none; }
.resistor { fill: #ffffff; stroke: #212529; stroke-width: 1.2; }
.tiny { font-size: 9px; }
.pocket { fill: #dee2e6; stroke: #495057; stroke-width: 1; }
.card { fill: #fff9db; stroke: #adb5bd; stroke-width: 0.8; }
.switch { fill: #343a40; stroke: none; }
.hood { fill: #495057; stroke: #212529; stroke-width: 1; }
.oled { fill: #212529; stroke: #7048e8; stroke-width: 2; }
"""


class Drawing:
    """An SVG document under construction, with the few shapes this diagram needs."""

    def __init__(self, width: int, height: int) -> None:
        self.root = ET.Element(
            "svg",
            {
                "xmlns": "http://www.w3.org/2000/svg",
                "width": str(width),
                "height": str(height),
                "viewBox": f"0 0 {width} {height}",
            },
        )
        ET.SubElement(self.root, "style").text = STYLE
        ET.SubElement(self.root, "rect", width=str(width), height=str(height), fill="#ffffff")

    def text(
        self,
        x: float,
        y: float,
        content: str,
        css: str = "",
        *,
        anchor: str = "start",
        colour: str | None = None,
    ) -> None:
        attributes = {"x": number(x), "y": number(y)}
        if css:
            attributes["class"] = css
        if anchor != "start":
            attributes["text-anchor"] = anchor
        if colour is not None:
            attributes["fill"] = colour
        ET.SubElement(self.root, "text", attributes).text = content

    def line(self, start: Point, end: Point, colour: str, width: float) -> None:
        (x1, y1), (x2, y2) = start, end
        ET.SubElement(
            self.root,
            "line",
            {
                "x1": number(x1),
                "y1": number(y1),
                "x2": number(x2),
                "y2": number(y2),
                "stroke": colour,
                "stroke-width": number(width),
            },
        )

    def circle(self, x: float, y: float, r: float, fill: str, tooltip: str = "") -> None:
        circle = ET.SubElement(
            self.root, "circle", cx=number(x), cy=number(y), r=number(r), fill=fill
        )
        if tooltip:
            ET.SubElement(circle, "title").text = tooltip

    def rect(self, x: float, y: float, width: float, height: float, css: str = "box") -> None:
        ET.SubElement(
            self.root,
            "rect",
            {
                "x": number(x),
                "y": number(y),
                "width": number(width),
                "height": number(height),
                "rx": "6",
                "class": css,
            },
        )

    def box(self, x: float, y: float, width: float, height: float, fill: str) -> None:
        """A plain filled rectangle: a layer in a section drawing."""
        ET.SubElement(
            self.root,
            "rect",
            {
                "x": number(x),
                "y": number(y),
                "width": number(width),
                "height": number(height),
                "fill": fill,
            },
        )

    def polygon(self, points: Sequence[Point], fill: str) -> None:
        ET.SubElement(
            self.root,
            "polygon",
            points=" ".join(f"{number(x)},{number(y)}" for x, y in points),
            fill=fill,
        )

    def polyline(self, points: Sequence[Point], colour: str) -> None:
        ET.SubElement(
            self.root,
            "polyline",
            {
                "points": " ".join(f"{number(x)},{number(y)}" for x, y in points),
                "stroke": colour,
                "stroke-width": "1.5",
                "fill": "none",
                "stroke-dasharray": "4 3",
            },
        )

    def serialise(self) -> str:
        ET.indent(self.root)
        return (
            '<?xml version="1.0" encoding="UTF-8"?>\n'
            + ET.tostring(self.root, encoding="unicode")
            + "\n"
        )


def number(value: float) -> str:
    """Coordinates without a trailing `.0`, so the file stays small and diffs stay readable."""
    return f"{value:g}"


def write_or_check(svg: str, output: Path, check: bool, generator: str) -> int:
    """Write `svg` to `output`, or with `check` only compare: 1 (and a line naming `generator`,
    the script to run) when the file on disk is stale, else 0."""
    if check:
        current = output.read_text("utf-8") if output.exists() else ""
        if current != svg:
            print(f"{output} is stale: run {generator}", file=sys.stderr)
            return 1
        return 0
    output.write_text(svg, "utf-8")
    return 0
