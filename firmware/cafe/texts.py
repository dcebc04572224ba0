"""The café view's own texts (headings, the words of each cell, the status line, the page), in
the language the café was started in.

They are in the table's catalogs (`firmware/table/locale/*/LC_MESSAGES/table.po`, compiled by
`make translations`) under the context `cafe`, which the catalog's tests do not hold to the
OLED's width and glyphs. What a table sends in its own words (an event's words, why it is not
saving, a paho reason) is shown as sent; the wire's codes (teams, phases, end reasons) are
worded here, and a code this café does not know is shown as sent.
"""

from __future__ import annotations

from collections.abc import Mapping
from gettext import GNUTranslations
from typing import Final

from board_rules.codenames import UNLIMITED
from firmware.table.i18n import LANGUAGES, NC_, translated

CONTEXT: Final = "cafe"
"""The catalogs' context of every text here."""

TITLE = NC_("cafe", "Codenames café")
QUIT = NC_("cafe", "Quit")
HEADINGS: Final = {
    "table": NC_("cafe", "Table"),
    "online": NC_("cafe", "Online"),
    "mode": NC_("cafe", "Mode"),
    "state": NC_("cafe", "Game"),
    "score": NC_("cafe", "Score"),
    "times": NC_("cafe", "Time"),
    "health": NC_("cafe", "Health"),
    "last": NC_("cafe", "Last action"),
}
"""Each column's heading, by its key, in the views' order."""
BOARD = NC_("cafe", "Board")
"""The web page's last column: a picture of the covered cards."""
HISTORY = NC_("cafe", "Games played")
CSV = NC_("cafe", "Download as CSV")
BACK = NC_("cafe", "Back to the tables")
NO_GAMES = NC_("cafe", "No game has finished yet")
PER_TABLE = NC_("cafe", "Games per table")
PER_DAY = NC_("cafe", "Games per day")
WINS = NC_("cafe", "Wins")
COOP_RESULTS = NC_("cafe", "Co-op: {won} won, {lost} lost")
AVERAGE_SCORE = NC_("cafe", "average score {mean} ({confidence} interval {low}–{high})")
AVERAGE_LENGTH = NC_(
    "cafe", "Average game: {mean} min ({confidence} interval {low}–{high}; {n} games timed)"
)
LATEST_GAMES = NC_("cafe", "Latest games")
GAME_HEADINGS: Final = {
    "table": NC_("cafe", "Table"),
    "ended": NC_("cafe", "Ended"),
    "mode": NC_("cafe", "Mode"),
    "result": NC_("cafe", "Result"),
    "length": NC_("cafe", "Length"),
}
"""The history page's list of games, by column."""


def clue_shown(number: object) -> str:
    """A clue number as the `game` message carries it, shown as the table's screen shows it:
    digits, or ∞ for unlimited."""
    return "∞" if number == UNLIMITED else str(number)


ONLINE = NC_("cafe", "online")
OFFLINE = NC_("cafe", "OFFLINE")
OFFLINE_STOPPED = NC_("cafe", "OFFLINE since {since}, stopped")
OFFLINE_VANISHED = NC_("cafe", "OFFLINE since {since}, vanished")
OFFLINE_SINCE = NC_("cafe", "OFFLINE since {since}")
NOT_KNOWN = NC_("cafe", "not known")
"""A table's connection while the café cannot reach the broker: the broker is what is down."""
MODES: Final = {"standard": NC_("cafe", "Standard"), "coop": NC_("cafe", "Co-op")}
GAME_LENGTH = NC_("cafe", "game {length}")
IDLE = NC_("cafe", "idle {idle}")

TEAMS: Final = {"red": NC_("cafe", "Red"), "blue": NC_("cafe", "Blue")}
PHASES: Final = {
    "clue": NC_("cafe", "giving a clue"),
    "guess": NC_("cafe", "guessing"),
    "penalty_cover": NC_("cafe", "covering for a penalty"),
    "enemy_cover": NC_("cafe", "the enemy's turn"),
}
END_REASONS: Final = {"agents": NC_("cafe", "all agents"), "assassin": NC_("cafe", "assassin")}
TURN = NC_("cafe", "{team}: {phase}")
CLUE = NC_("cafe", "clue {clue}")
WON = NC_("cafe", "{team} won")
NOBODY_WON = NC_("cafe", "Nobody won")
AGENTS_LEFT = NC_("cafe", "left: {agents}")
SCORE = NC_("cafe", "score {score}")
MATCH = NC_("cafe", "match: {red} {red_wins} {blue} {blue_wins}")

STUCK = NC_("cafe", "stuck pads: {pads}")
OLED_DOWN = NC_("cafe", "OLED down")
LED_OFF = NC_("cafe", "LED key off: {why}")
"""`why` is the table's code as sent (`spi-off`, `no-access`…): its journal has the detail."""
HOT_CPU = NC_("cafe", "CPU hot: {temperature} °C")
NOT_SAVING = NC_("cafe", "NOT SAVING: {why}")
ALL_WELL = NC_("cafe", "OK")

NO_TABLES = NC_("cafe", "No table has reported yet")
TABLES = NC_("cafe", "Tables: {n}")
IGNORED = NC_("cafe", "Messages ignored: {n}; the latest: {why}")
DROPPED = NC_("cafe", "Messages dropped: {n} (more than {limit} tables)")
DOWN_SINCE = NC_("cafe", "since {since}")
RECONNECTING = NC_("cafe", "Lost the connection to the server; reconnecting…")
WEB_PAGE = NC_("cafe", "Web page on {url}")

CONNECTING = NC_("cafe", "connecting to {broker}")
CONNECTED = NC_("cafe", "connected to {broker}")
REFUSED = NC_("cafe", "the broker {broker} refused the café: {reason}")
LOST = NC_("cafe", "lost the broker {broker}: {reason}; reconnecting")
UNREACHABLE = NC_("cafe", "cannot reach the broker {broker}; trying again")

NOT_A_TOPIC = NC_("cafe", "not a fleet topic")
NOT_A_TABLE_ID = NC_("cafe", "not a table id")
TOO_LONG = NC_("cafe", "{size} bytes, more than {limit}")
NOT_JSON = NC_("cafe", "not JSON: {error}")
NOT_AN_OBJECT = NC_("cafe", "not a JSON object")
OTHER_SCHEMA = NC_("cafe", "schema {schema}, not {expected}")
OTHER_TABLE = NC_("cafe", "its table differs from its topic's")
BAD_FIELD = NC_("cafe", "{field} missing or of the wrong type")


MISSION_WON = "Mission accomplished"
MISSION_LOST = "Mission failed"
OPPONENTS_TURN = "Opponent's turn"
OLED_SCORE = "Score: {score}"
OURS_THEIRS = "Ours {own} · Theirs {enemy}"
"""The OLED's own words for a co-op game (`firmware.table.screen_texts`), read from the same
catalog so that the café says what the table says."""


def oled_text(catalog: GNUTranslations, message: str, **fields: object) -> str:
    """One of the OLED's texts (the catalog's default context) in `catalog`'s language."""
    return translated(catalog, message, **fields)


def cafe_text(catalog: GNUTranslations, message: str, **fields: object) -> str:
    """`message` of this module in `catalog`'s language, its placeholders filled with `fields`."""
    return translated(catalog, message, CONTEXT, **fields)


def games_played(catalog: GNUTranslations, n: int) -> str:
    """`1 game`, `3 games`."""
    return catalog.npgettext("cafe", "{n} game", "{n} games", n).format(n=n)


def guesses_left(catalog: GNUTranslations, n: int, shown: str) -> str:
    """`3 left` (guesses), `shown` being the number as the view writes it (∞ for unlimited)."""
    return catalog.npgettext("cafe", "{n} left", "{n} left", n).format(n=shown)


def events_dropped(catalog: GNUTranslations, n: int) -> str:
    """`1 event dropped`, `12 events dropped`."""
    return catalog.npgettext("cafe", "{n} event dropped", "{n} events dropped", n).format(n=n)


def worded(catalog: GNUTranslations, words: Mapping[str, str], code: object) -> str:
    """A wire code (`red`, `guess`…) in words, or as sent when this café does not know it."""
    message = words.get(code) if isinstance(code, str) else None
    return str(code) if message is None else cafe_text(catalog, message)


def environment_language(environ: Mapping[str, str]) -> str:
    """The language of the locale (`LC_ALL`, else `LC_MESSAGES`, else `LANG`, as gettext reads
    them) when the table has it, else English: `es_ES.UTF-8` gives `es`, `C.UTF-8` `en`."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        if environ.get(name):
            language = environ[name].split(".")[0].split("@")[0].split("_")[0].lower()
            return language if language in LANGUAGES else "en"
    return "en"
