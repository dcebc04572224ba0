"""Glyph designs of the table's pixel font, as data: one string of `.` and `#` rows per glyph.

Drawn for this project (no copied font data) and read by `firmware.table.font`, which turns them
into masks. Every glyph is drawn in the same frame, its "body": row 0 is the top of the capitals,
row 6 the baseline row (the last row of ink of an `H`), rows 7 and 8 the descenders; the
x-height is rows 2–6. A glyph lists 7 rows, or 9 when it reaches into the descenders. The line
box adds `ACCENT_ROWS` empty rows above the body, where the marks of accented capitals go.

Accented letters are not drawn here but composed (`COMPOSED`) from a base letter and a mark
(`MARKS`), so that é and É are the same e and E as everywhere else. Marks over lowercase letters
sit where the dot of an i sits, one blank row above the x-height; marks over capitals sit in the
accent rows, with a blank row between mark and letter: a mark that touches a 7-pixel capital
turns into part of the letter on the real OLED.

Long because it is data: about 1,200 lines of glyph drawings and no logic.
"""

from __future__ import annotations

from typing import Literal, NamedTuple

CAP_HEIGHT = 7
"""Rows of a capital letter or a digit."""

X_HEIGHT = 5
"""Rows of a lowercase letter without ascender."""

DESCENT = 2
"""Rows below the baseline (g, j, p, q, y, ç, ¡, ¿)."""

ACCENT_ROWS = 3
"""Rows above the capitals: a two-row mark and the blank row that keeps it off the letter."""

SPACING = 1
"""Blank columns between two glyphs."""


class Mark(NamedTuple):
    """A diacritic mark, laid over (or under) a base letter to compose an accented one."""

    rows: str
    """The mark's pixels, `.`/`#` rows like a glyph's."""

    position: Literal["above", "below"]
    """Above the letter with one blank row between, or in the descender rows."""

    shift: int = 0
    """Columns right of centred; an acute leans right and a grave left, on the same centre."""


MARKS: dict[str, Mark] = {
    "acute": Mark(
        """
        .#
        #.
        """,
        "above",
        shift=1,
    ),
    "grave": Mark(
        """
        #.
        .#
        """,
        "above",
    ),
    "circumflex": Mark(
        """
        .#.
        #.#
        """,
        "above",
    ),
    "tilde": Mark(
        """
        .##.#
        #..#.
        """,
        "above",
    ),
    "diaeresis": Mark(
        """
        #.#
        """,
        "above",
    ),
    "cedilla": Mark(
        """
        .#
        #.
        """,
        "below",
    ),
}

_LETTERS_WITH_MARKS = {
    "a": "acute grave circumflex tilde diaeresis",
    "e": "acute grave circumflex diaeresis",
    "ı": "acute grave circumflex diaeresis",
    "o": "acute grave circumflex tilde diaeresis",
    "u": "acute grave circumflex diaeresis",
    "n": "tilde",
    "c": "cedilla",
    "A": "acute grave circumflex tilde diaeresis",
    "E": "acute grave circumflex diaeresis",
    "I": "acute grave circumflex diaeresis",
    "O": "acute grave circumflex tilde diaeresis",
    "U": "acute grave circumflex diaeresis",
    "N": "tilde",
    "C": "cedilla",
}

_COMBINING = {
    "acute": "\u0301",
    "grave": "\u0300",
    "circumflex": "\u0302",
    "tilde": "\u0303",
    "diaeresis": "\u0308",
    "cedilla": "\u0327",
}


def _composed() -> dict[str, tuple[str, str]]:
    import unicodedata

    table: dict[str, tuple[str, str]] = {}
    for base, marks in _LETTERS_WITH_MARKS.items():
        # The accented i is an i with its dot replaced by the mark: compose from dotless ı.
        letter = "i" if base == "ı" else base
        for mark in marks.split():
            table[unicodedata.normalize("NFC", letter + _COMBINING[mark])] = (base, mark)
    return table


COMPOSED: dict[str, tuple[str, str]] = _composed()
"""Accented letter -> (base glyph, mark name), e.g. `"í": ("ı", "acute")`."""

FALLBACK = """
#####
#...#
#...#
#...#
#...#
#...#
#####
"""
"""Drawn for any character the font has no glyph for: a hollow box, so the gap is visible."""

GLYPHS: dict[str, str] = {
    # --- Space and ASCII punctuation -------------------------------------------------------
    " ": """
        ...
        ...
        ...
        ...
        ...
        ...
        ...
        """,
    "!": """
        #
        #
        #
        #
        #
        .
        #
        """,
    '"': """
        #.#
        #.#
        ...
        ...
        ...
        ...
        ...
        """,
    "#": """
        .....
        .#.#.
        #####
        .#.#.
        #####
        .#.#.
        .....
        """,
    "$": """
        ..#..
        .####
        #.#..
        .###.
        ..#.#
        ####.
        ..#..
        """,
    "%": """
        ##..#
        ##..#
        ...#.
        ..#..
        .#...
        #..##
        #..##
        """,
    "&": """
        .##..
        #..#.
        #.#..
        .#...
        #.#.#
        #..#.
        .##.#
        """,
    "'": """
        #
        #
        .
        .
        .
        .
        .
        """,
    "(": """
        .#
        #.
        #.
        #.
        #.
        #.
        .#
        """,
    ")": """
        #.
        .#
        .#
        .#
        .#
        .#
        #.
        """,
    "*": """
        .....
        ..#..
        #.#.#
        .###.
        #.#.#
        ..#..
        .....
        """,
    "+": """
        .....
        ..#..
        ..#..
        #####
        ..#..
        ..#..
        .....
        """,
    ",": """
        ..
        ..
        ..
        ..
        ..
        .#
        .#
        #.
        """,
    "-": """
        ....
        ....
        ....
        ####
        ....
        ....
        ....
        """,
    ".": """
        .
        .
        .
        .
        .
        .
        #
        """,
    "/": """
        ....#
        ....#
        ...#.
        ..#..
        .#...
        #....
        #....
        """,
    ":": """
        .
        .
        #
        .
        .
        #
        .
        """,
    ";": """
        ..
        ..
        .#
        ..
        ..
        .#
        .#
        #.
        """,
    "<": """
        ...#
        ..#.
        .#..
        #...
        .#..
        ..#.
        ...#
        """,
    "=": """
        .....
        .....
        #####
        .....
        #####
        .....
        .....
        """,
    ">": """
        #...
        .#..
        ..#.
        ...#
        ..#.
        .#..
        #...
        """,
    "?": """
        .###.
        #...#
        ....#
        ...#.
        ..#..
        .....
        ..#..
        """,
    "@": """
        .###.
        #...#
        #.###
        #.#.#
        #.###
        #....
        .####
        """,
    "[": """
        ##
        #.
        #.
        #.
        #.
        #.
        ##
        """,
    "\\": """
        #....
        #....
        .#...
        ..#..
        ...#.
        ....#
        ....#
        """,
    "]": """
        ##
        .#
        .#
        .#
        .#
        .#
        ##
        """,
    "^": """
        ..#..
        .#.#.
        #...#
        .....
        .....
        .....
        .....
        """,
    "_": """
        ....
        ....
        ....
        ....
        ....
        ....
        ....
        ....
        ####
        """,
    "`": """
        #.
        .#
        ..
        ..
        ..
        ..
        ..
        """,
    "{": """
        ..#
        .#.
        .#.
        #..
        .#.
        .#.
        ..#
        """,
    "|": """
        #
        #
        #
        #
        #
        #
        #
        #
        #
        """,
    "}": """
        #..
        .#.
        .#.
        ..#
        .#.
        .#.
        #..
        """,
    "~": """
        .....
        .....
        .#..#
        #.##.
        .....
        .....
        .....
        """,
    # --- Digits: all five wide, so numbers do not jitter as they count -------------------
    "0": """
        .###.
        #...#
        #..##
        #.#.#
        ##..#
        #...#
        .###.
        """,
    "1": """
        ..#..
        .##..
        ..#..
        ..#..
        ..#..
        ..#..
        .###.
        """,
    "2": """
        .###.
        #...#
        ....#
        ...#.
        ..#..
        .#...
        #####
        """,
    "3": """
        .###.
        #...#
        ....#
        ..##.
        ....#
        #...#
        .###.
        """,
    "4": """
        ...#.
        ..##.
        .#.#.
        #..#.
        #####
        ...#.
        ...#.
        """,
    "5": """
        #####
        #....
        ####.
        ....#
        ....#
        #...#
        .###.
        """,
    "6": """
        ..##.
        .#...
        #....
        ####.
        #...#
        #...#
        .###.
        """,
    "7": """
        #####
        ....#
        ...#.
        ..#..
        .#...
        .#...
        .#...
        """,
    "8": """
        .###.
        #...#
        #...#
        .###.
        #...#
        #...#
        .###.
        """,
    "9": """
        .###.
        #...#
        #...#
        .####
        ....#
        ...#.
        .##..
        """,
    # --- Capitals ----------------------------------------------------------------------------
    "A": """
        .###.
        #...#
        #...#
        #####
        #...#
        #...#
        #...#
        """,
    "B": """
        ####.
        #...#
        #...#
        ####.
        #...#
        #...#
        ####.
        """,
    "C": """
        .###.
        #...#
        #....
        #....
        #....
        #...#
        .###.
        """,
    "D": """
        ####.
        #...#
        #...#
        #...#
        #...#
        #...#
        ####.
        """,
    "E": """
        #####
        #....
        #....
        ####.
        #....
        #....
        #####
        """,
    "F": """
        #####
        #....
        #....
        ####.
        #....
        #....
        #....
        """,
    "G": """
        .###.
        #...#
        #....
        #.###
        #...#
        #...#
        .###.
        """,
    "H": """
        #...#
        #...#
        #...#
        #####
        #...#
        #...#
        #...#
        """,
    "I": """
        ###
        .#.
        .#.
        .#.
        .#.
        .#.
        ###
        """,
    "J": """
        ....#
        ....#
        ....#
        ....#
        ....#
        #...#
        .###.
        """,
    "K": """
        #...#
        #..#.
        #.#..
        ##...
        #.#..
        #..#.
        #...#
        """,
    "L": """
        #....
        #....
        #....
        #....
        #....
        #....
        #####
        """,
    "M": """
        #...#
        ##.##
        #.#.#
        #.#.#
        #...#
        #...#
        #...#
        """,
    "N": """
        #...#
        #...#
        ##..#
        #.#.#
        #..##
        #...#
        #...#
        """,
    "O": """
        .###.
        #...#
        #...#
        #...#
        #...#
        #...#
        .###.
        """,
    "P": """
        ####.
        #...#
        #...#
        ####.
        #....
        #....
        #....
        """,
    "Q": """
        .###.
        #...#
        #...#
        #...#
        #.#.#
        #..#.
        .##.#
        """,
    "R": """
        ####.
        #...#
        #...#
        ####.
        #.#..
        #..#.
        #...#
        """,
    "S": """
        .###.
        #...#
        #....
        .###.
        ....#
        #...#
        .###.
        """,
    "T": """
        #####
        ..#..
        ..#..
        ..#..
        ..#..
        ..#..
        ..#..
        """,
    "U": """
        #...#
        #...#
        #...#
        #...#
        #...#
        #...#
        .###.
        """,
    "V": """
        #...#
        #...#
        #...#
        #...#
        #...#
        .#.#.
        ..#..
        """,
    "W": """
        #...#
        #...#
        #...#
        #.#.#
        #.#.#
        #.#.#
        .#.#.
        """,
    "X": """
        #...#
        #...#
        .#.#.
        ..#..
        .#.#.
        #...#
        #...#
        """,
    "Y": """
        #...#
        #...#
        .#.#.
        ..#..
        ..#..
        ..#..
        ..#..
        """,
    "Z": """
        #####
        ....#
        ...#.
        ..#..
        .#...
        #....
        #####
        """,
    # --- Lowercase -----------------------------------------------------------------------------
    "a": """
        .....
        .....
        .###.
        ....#
        .####
        #...#
        .####
        """,
    "b": """
        #....
        #....
        ####.
        #...#
        #...#
        #...#
        ####.
        """,
    "c": """
        ....
        ....
        .###
        #...
        #...
        #...
        .###
        """,
    "d": """
        ....#
        ....#
        .####
        #...#
        #...#
        #...#
        .####
        """,
    "e": """
        .....
        .....
        .###.
        #...#
        #####
        #....
        .###.
        """,
    "f": """
        ..##
        .#..
        ###.
        .#..
        .#..
        .#..
        .#..
        """,
    "g": """
        .....
        .....
        .####
        #...#
        #...#
        #...#
        .####
        ....#
        .###.
        """,
    "h": """
        #....
        #....
        ####.
        #...#
        #...#
        #...#
        #...#
        """,
    "i": """
        #
        .
        #
        #
        #
        #
        #
        """,
    "ı": """
        .
        .
        #
        #
        #
        #
        #
        """,
    "j": """
        ..#
        ...
        ..#
        ..#
        ..#
        ..#
        ..#
        ..#
        ##.
        """,
    "k": """
        #...
        #...
        #..#
        #.#.
        ##..
        #.#.
        #..#
        """,
    "l": """
        #.
        #.
        #.
        #.
        #.
        #.
        .#
        """,
    "m": """
        .....
        .....
        ####.
        #.#.#
        #.#.#
        #.#.#
        #.#.#
        """,
    "n": """
        .....
        .....
        ####.
        #...#
        #...#
        #...#
        #...#
        """,
    "o": """
        .....
        .....
        .###.
        #...#
        #...#
        #...#
        .###.
        """,
    "p": """
        .....
        .....
        ####.
        #...#
        #...#
        #...#
        ####.
        #....
        #....
        """,
    "q": """
        .....
        .....
        .####
        #...#
        #...#
        #...#
        .####
        ....#
        ....#
        """,
    "r": """
        ....
        ....
        #.##
        ##..
        #...
        #...
        #...
        """,
    "s": """
        .....
        .....
        .####
        #....
        .###.
        ....#
        ####.
        """,
    "t": """
        ....
        .#..
        ###.
        .#..
        .#..
        .#..
        ..##
        """,
    "u": """
        .....
        .....
        #...#
        #...#
        #...#
        #...#
        .####
        """,
    "v": """
        .....
        .....
        #...#
        #...#
        #...#
        .#.#.
        ..#..
        """,
    "w": """
        .....
        .....
        #...#
        #...#
        #.#.#
        #.#.#
        .#.#.
        """,
    "x": """
        .....
        .....
        #...#
        .#.#.
        ..#..
        .#.#.
        #...#
        """,
    "y": """
        .....
        .....
        #...#
        #...#
        #...#
        #...#
        .####
        ....#
        .###.
        """,
    "z": """
        .....
        .....
        #####
        ...#.
        ..#..
        .#...
        #####
        """,
    # --- Spanish, Portuguese and Italian punctuation and ordinals ------------------------------
    "¡": """
        .
        .
        #
        .
        #
        #
        #
        #
        #
        """,
    "¿": """
        .....
        .....
        ..#..
        .....
        ..#..
        .#...
        #....
        #...#
        .###.
        """,
    "º": """
        .#.
        #.#
        .#.
        ...
        ###
        ...
        ...
        """,
    "ª": """
        .##
        #.#
        .##
        ...
        ###
        ...
        ...
        """,
    "«": """
        .....
        .....
        ..#.#
        .#.#.
        #.#..
        .#.#.
        ..#.#
        """,
    "»": """
        .....
        .....
        #.#..
        .#.#.
        ..#.#
        .#.#.
        #.#..
        """,
    "·": """
        .
        .
        .
        #
        .
        .
        .
        """,
    "—": """
        .......
        .......
        .......
        #######
        .......
        .......
        .......
        """,
    "–": """
        .....
        .....
        .....
        #####
        .....
        .....
        .....
        """,
    "…": """
        .....
        .....
        .....
        .....
        .....
        .....
        #.#.#
        """,
    "‘": """
        .#
        #.
        #.
        ..
        ..
        ..
        ..
        """,
    "’": """
        .#
        .#
        #.
        ..
        ..
        ..
        ..
        """,
    "“": """
        .#.#
        #.#.
        #.#.
        ....
        ....
        ....
        ....
        """,
    "”": """
        .#.#
        .#.#
        #.#.
        ....
        ....
        ....
        ....
        """,
    # --- Symbols of the game screens ----------------------------------------------------------
    "∞": """
        ........
        ........
        .##..##.
        #..##..#
        #..##..#
        .##..##.
        ........
        """,
    "×": """
        .....
        #...#
        .#.#.
        ..#..
        .#.#.
        #...#
        .....
        """,
    "°": """
        .#.
        #.#
        .#.
        ...
        ...
        ...
        ...
        """,
    "✓": """
        .......
        ......#
        .....#.
        #...#..
        .#.#...
        ..#....
        .......
        """,
    "←": """
        .....
        ..#..
        .#...
        #####
        .#...
        ..#..
        .....
        """,
    "→": """
        .....
        ..#..
        ...#.
        #####
        ...#.
        ..#..
        .....
        """,
    "▲": """
        .....
        .....
        ..#..
        .###.
        #####
        .....
        .....
        """,
    "▼": """
        .....
        .....
        #####
        .###.
        ..#..
        .....
        .....
        """,
}
"""Every drawn glyph, by character; the accented letters are added from `COMPOSED`."""

ALIASES: dict[str, str] = {
    "\u00a0": " ",  # no-break space, as French-style translations put before ? and !
    "\u2009": " ",  # thin space
    "\u2010": "-",  # hyphen
    "\u2011": "-",  # non-breaking hyphen
    "\u2212": "-",  # minus sign
    "\u2714": "✓",  # heavy check mark
}
"""Characters drawn with another character's glyph."""

NUMERAL_HEIGHT = 8
"""Rows of a big numeral's design; the screen draws it three times over (24 px), which reads
from the seats and keeps every stroke three pixels thick."""

NUMERALS: dict[str, str] = {
    "0": """
        .###.
        #...#
        #...#
        #...#
        #...#
        #...#
        #...#
        .###.
        """,
    "1": """
        ..#..
        .##..
        ..#..
        ..#..
        ..#..
        ..#..
        ..#..
        .###.
        """,
    "2": """
        .###.
        #...#
        ....#
        ...#.
        ..#..
        .#...
        #....
        #####
        """,
    "3": """
        .###.
        #...#
        ....#
        ..##.
        ....#
        ....#
        #...#
        .###.
        """,
    "4": """
        ...#.
        ..##.
        .#.#.
        #..#.
        #####
        ...#.
        ...#.
        ...#.
        """,
    "5": """
        #####
        #....
        #....
        ####.
        ....#
        ....#
        #...#
        .###.
        """,
    "6": """
        ..##.
        .#...
        #....
        ####.
        #...#
        #...#
        #...#
        .###.
        """,
    "7": """
        #####
        ....#
        ...#.
        ...#.
        ..#..
        ..#..
        .#...
        .#...
        """,
    "8": """
        .###.
        #...#
        #...#
        .###.
        #...#
        #...#
        #...#
        .###.
        """,
    "9": """
        .###.
        #...#
        #...#
        #...#
        .####
        ....#
        ...#.
        .##..
        """,
    "∞": """
        .........
        .........
        .##...##.
        #..#.#..#
        #...#...#
        #..#.#..#
        .##...##.
        .........
        """,
    " ": """
        ...
        ...
        ...
        ...
        ...
        ...
        ...
        ...
        """,
}
"""The big numerals of the clue and the guesses left, drawn apart from the text digits: a text
digit is 7 rows and would scale to 21 px, short of the 24 px the seats need."""

NUMERAL_FALLBACK = """
    #####
    #...#
    #...#
    #...#
    #...#
    #...#
    #...#
    #####
    """
"""Drawn for a character without a big numeral: a hollow box, as in the text font."""
