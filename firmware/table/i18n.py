"""The table's languages: gettext catalogs in English, Spanish, Portuguese and Italian.

The texts are written in English in the code; each language has a `.po` catalog under
`firmware/table/locale/<lang>/LC_MESSAGES/table.po`, compiled to the `.mo` file that gettext reads
(`make translations` recompiles them; a test checks they are in step). English has a catalog
too, so that a test can hold all four languages to the same standard.
"""

from __future__ import annotations

import gettext
from functools import cache
from pathlib import Path
from typing import Final

from firmware.errors import FirmwareError

LANGUAGES: Final = ("en", "es", "pt", "it")
"""The four languages of the rulebooks, in menu order."""
LANGUAGE_METAVAR: Final = "|".join(LANGUAGES)
"""How every command's --help names the languages: `en|es|pt|it`."""

LANGUAGE_NAMES: Final = {"en": "English", "es": "Español", "pt": "Português", "it": "Italiano"}
"""Each language in its own words, as the menu shows it."""

DOMAIN: Final = "table"
LOCALE_DIR: Final = Path(__file__).with_name("locale")


class UnknownLanguageError(FirmwareError, ValueError):
    """A language the table has no catalog for."""


@cache
def translations(language: str) -> gettext.GNUTranslations:
    """The compiled catalog of `language`; loaded once."""
    if language not in LANGUAGES:
        raise UnknownLanguageError(
            f"unknown language {language!r}: expected one of {', '.join(LANGUAGES)}"
        )
    with (LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.mo").open("rb") as file:
        return gettext.GNUTranslations(file)


def N_(message: str) -> str:  # noqa: N802 - the gettext convention, so extraction finds it
    """Mark a text for translation where it is defined; it is translated where it is shown."""
    return message


def NC_(context: str, message: str) -> str:  # noqa: N802 - the gettext convention
    """Mark a text of `context` for translation; it is translated where it is shown."""
    return message


def translated(
    catalog: gettext.GNUTranslations, message: str, context: str | None = None, /, **fields: object
) -> str:
    """`message` in `catalog`'s language (of `context`, where the text was marked with one), its
    placeholders filled with `fields`."""
    text = catalog.gettext(message) if context is None else catalog.pgettext(context, message)
    return text.format(**fields) if fields else text
