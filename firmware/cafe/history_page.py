"""The café's record as the staff read it: `/history`, a page of figures (games per table and
per day, wins, co-op results, the average game with its 95 % interval) and the latest games,
and `/history.csv`, every game kept. Served by `firmware.cafe.web` under the same guard; the
page has no script, and every text on it is escaped."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from html import escape
from typing import Any, Final

from aiohttp import web

from firmware.cafe import texts as t
from firmware.cafe.model import Cafe, duration, state_text
from firmware.cafe.record import CafeRecord, Interval
from firmware.cafe.texts import cafe_text

LATEST: Final = 200
"""Games listed on the page; the CSV has them all."""

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def history_page(cafe: Cafe, record: CafeRecord) -> str:
    """The page in `cafe`'s language."""
    catalog = cafe.catalog

    def text(message: str, **fields: object) -> str:
        return escape(cafe_text(catalog, message, **fields))

    stats = record.stats()
    parts = [
        f'<!doctype html><html lang="{cafe.language}"><head><meta charset="utf-8">',
        f"<title>{text(t.HISTORY)}</title>",
        '<link rel="stylesheet" href="cafe.css"></head><body>',
        f"<h1>{text(t.HISTORY)}</h1>",
        f'<p><a href="./">{text(t.BACK)}</a> · <a href="history.csv">{text(t.CSV)}</a></p>',
    ]
    if not stats["games"]:
        parts.append(f'<p id="empty">{text(t.NO_GAMES)}</p></body></html>')
        return "".join(parts)
    parts.append(_counts("per-table", text(t.PER_TABLE), stats["per_table"]))
    parts.append(_counts("per-day", text(t.PER_DAY), stats["per_day"]))
    wins = {t.worded(catalog, t.TEAMS, team): n for team, n in sorted(stats["wins"].items())}
    parts.append(_counts("wins", text(t.WINS), wins))
    coop = text(t.COOP_RESULTS, won=stats["coop_won"], lost=stats["coop_lost"])
    if stats["coop_score"] is not None:
        coop += ", " + text(t.AVERAGE_SCORE, **_figures(stats["coop_score"]))
    parts.append(f'<p id="coop">{coop}</p>')
    if stats["minutes"] is not None:
        parts.append(f'<p id="length">{text(t.AVERAGE_LENGTH, **_figures(stats["minutes"]))}</p>')
    parts.append(f"<h2>{text(t.LATEST_GAMES)}</h2><table id='games'><thead><tr>")
    parts.extend(f"<th>{text(heading)}</th>" for heading in t.GAME_HEADINGS.values())
    parts.append("</tr></thead><tbody>")
    for game in record.games(LATEST):
        cells = _game_cells(cafe, game)
        parts.append("<tr>" + "".join(f"<td>{escape(c)}</td>" for c in cells) + "</tr>")
    parts.append("</tbody></table></body></html>")
    return "".join(parts)


def _figures(interval: Interval) -> dict[str, object]:
    return {
        "mean": f"{interval.mean:.1f}",
        "low": f"{interval.low:.1f}",
        "high": f"{interval.high:.1f}",
        "n": interval.n,
        "confidence": "95 %",
    }


def _counts(name: str, title: str, counts: dict[str, int]) -> str:
    rows = "".join(f"<tr><td>{escape(k)}</td><td>{n}</td></tr>" for k, n in counts.items())
    return f'<h2>{title}</h2><table id="{name}"><tbody>{rows}</tbody></table>'


def _game_cells(cafe: Cafe, game: dict[str, Any]) -> list[str]:
    catalog = cafe.catalog
    over = {"phase": "over", **{k: game[k] for k in ("mode", "winner", "reason", "score")}}
    length = game["length_s"]
    return [
        game["table_id"],
        time.strftime("%Y-%m-%d %H:%M", time.localtime(game["ended_at"])),
        t.worded(catalog, t.MODES, game["mode"]),
        state_text(catalog, over),
        "-" if length is None else duration(length),
    ]


def history_handlers(cafe: Cafe, record: CafeRecord) -> tuple[Handler, Handler]:
    """The handlers of `/history` and `/history.csv`."""

    async def page(request: web.Request) -> web.StreamResponse:
        return web.Response(text=history_page(cafe, record), content_type="text/html")

    async def csv(request: web.Request) -> web.StreamResponse:
        return web.Response(
            text=record.csv(),
            content_type="text/csv",
            headers={"Content-Disposition": 'attachment; filename="cafe-games.csv"'},
        )

    return page, csv
