"""Every OLED screen in every language against its golden image, pixel for pixel.

Both the renderer's image and what the virtual SSD1306 holds after the real `Oled` sent it are
compared, screen after screen on one display, so partial updates are checked too. After a
deliberate change, regenerate with `python -m tests.make_oled_goldens` and look at the images.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image, ImageChops

from firmware.table.i18n import LANGUAGES, translations
from tests.oled_screens import SCREENS, golden_path, rendered, through_the_chip

REGENERATE = "after a deliberate change: python -m tests.make_oled_goldens, then look at them"


def load_golden(language: str, name: str) -> Image.Image:
    path = golden_path(language, name)
    if not path.exists():
        pytest.fail(f"no golden image {path}; {REGENERATE}")
    with Image.open(path) as image:
        image.load()
    assert (image.mode, image.size) == ("1", (128, 64)), path
    return image


def differing_pixels(expected: Image.Image, actual: Image.Image) -> int:
    return sum(ImageChops.logical_xor(expected, actual).convert("L").point(bool).histogram()[1:])


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_screen_matches_its_golden_image_drawn_and_on_the_chip(
    language: str, tmp_path: Path
) -> None:
    images = rendered(translations(language), language)
    failures = []
    for name, held in through_the_chip(images):
        golden = load_golden(language, name)
        for source, image in (("renderer", images[name]), ("chip", held)):
            differing = differing_pixels(golden, image)
            if differing:
                actual = tmp_path / f"{name}.{source}.png"
                image.save(actual)
                failures.append(
                    f"{language}/{name}: the {source} differs in {differing} px, {actual}"
                )
    assert not failures, "\n".join([*failures, REGENERATE])


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_golden_images_are_the_listed_screens_each_different(language: str) -> None:
    folder = golden_path(language, "-").parent
    assert sorted(path.stem for path in folder.glob("*.png")) == sorted(SCREENS)
    pictures = {load_golden(language, name).tobytes(): name for name in SCREENS}
    assert len(pictures) == len(SCREENS), "two screens show the same picture"


def test_one_pixel_off_is_a_difference() -> None:
    golden = load_golden("en", "clue")
    changed = golden.copy()
    changed.putpixel((127, 63), 0 if golden.getpixel((127, 63)) else 1)
    assert differing_pixels(golden, golden) == 0
    assert differing_pixels(golden, changed) == 1
