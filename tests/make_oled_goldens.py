"""Write the OLED's golden images: `python -m tests.make_oled_goldens` from the checkout.

Each screen of `tests.oled_screens` in each language is rendered, sent down the real `Oled` to a
virtual SSD1306, and what the chip's RAM holds is saved as a 1-bit PNG under
`tests/golden/oled/<language>/<screen>.png`; images of screens no longer listed are removed.
Look at the changed ones before committing them: the test compares against whatever is here.
"""

from __future__ import annotations

import sys

from firmware.table.i18n import LANGUAGES, translations
from tests.oled_screens import GOLDEN_DIR, golden_path, rendered, through_the_chip


def main() -> int:
    written = 0
    for language in LANGUAGES:
        images = rendered(translations(language), language)
        folder = golden_path(language, "-").parent
        folder.mkdir(parents=True, exist_ok=True)
        for name, held in through_the_chip(images):
            if held.tobytes() != images[name].tobytes():
                # A golden must be what both sides agree on; a chip that differs is a driver bug.
                print(f"{language}/{name}: the chip holds another picture", file=sys.stderr)
                return 1
            held.save(golden_path(language, name), optimize=True)
            written += 1
        for stale in sorted(set(folder.glob("*.png")) - {golden_path(language, n) for n in images}):
            stale.unlink()
            print(f"removed {stale}")
    print(f"wrote {written} images under {GOLDEN_DIR}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
