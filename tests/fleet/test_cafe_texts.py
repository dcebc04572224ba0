"""The café's words in each language: a row, the status line and an ignored message as the staff
read them; the wire's codes worded, unknown ones shown as sent; the language from the locale."""

from __future__ import annotations

import json
from typing import Any

import pytest

from firmware.cafe.model import Cafe
from firmware.cafe.texts import HEADINGS, environment_language
from firmware.fleet.messages import encode, envelope

from .test_cafe_model import game_payload

HEALTH = {"stuck_pads": ["C3"], "oled_up": False, "saving": False, "not_saving": "disk full"}

SEEN: dict[str, dict[str, Any]] = {
    "en": {
        "teams": {"red": "Red", "blue": "Blue"},
        "state": "{team}: guessing, clue 2, 3 left",
        "over": "Blue won (assassin)",
        "match": "; match: Red 1 Blue 0 (1 game)",
        "online": ("online", "OFFLINE"),
        "health": "stuck pads: C3; OLED down; LED key off: spi-off; NOT SAVING: disk full; "
        "2 events dropped",
        "empty": "No table has reported yet",
        "status": "Tables: 1 · Messages ignored: 1; the latest: codenames/t1/game: "
        "not a JSON object",
    },
    "es": {
        "teams": {"red": "Rojo", "blue": "Azul"},
        "state": "{team}: adivina, pista 2, quedan 3",
        "over": "Ha ganado el Azul (asesino)",
        "match": "; serie: Rojo 1 Azul 0 (1 partida)",
        "online": ("conectada", "DESCONECTADA"),
        "health": "cartas atascadas: C3; OLED sin respuesta; clave LED apagada: spi-off; "
        "SIN GUARDAR: disk full; 2 eventos perdidos",
        "empty": "Todavía no hay noticias de ninguna mesa",
        "status": "Mesas: 1 · Mensajes ignorados: 1; el último: codenames/t1/game: "
        "no es un objeto JSON",
    },
    "pt": {
        "teams": {"red": "Vermelho", "blue": "Azul"},
        "state": "{team}: a adivinhar, pista 2, restam 3",
        "over": "Azul ganhou (assassino)",
        "match": "; série: Vermelho 1 Azul 0 (1 jogo)",
        "online": ("ligada", "DESLIGADA"),
        "health": "cartas presas: C3; OLED sem resposta; chave LED desligada: spi-off; "
        "SEM GRAVAR: disk full; 2 eventos perdidos",
        "empty": "Ainda não há notícias de nenhuma mesa",
        "status": "Mesas: 1 · Mensagens ignoradas: 1; a última: codenames/t1/game: "
        "não é um objeto JSON",
    },
    "it": {
        "teams": {"red": "Rosso", "blue": "Blu"},
        "state": "{team}: indovina, indizio 2, ne restano 3",
        "over": "Blu ha vinto (assassino)",
        "match": "; sfida: Rosso 1 Blu 0 (1 partita)",
        "online": ("connesso", "DISCONNESSO"),
        "health": "carte bloccate: C3; OLED non risponde; chiave LED spenta: spi-off; "
        "NON SALVATA: disk full; 2 eventi persi",
        "empty": "Ancora nessuna notizia dai tavoli",
        "status": "Tavoli: 1 · Messaggi ignorati: 1; l'ultimo: codenames/t1/game: "
        "non è un oggetto JSON",
    },
}
"""What a person reads in each language (the table's own words and codes, `disk full`,
`spi-off`, stay as sent)."""


def game(**changes: Any) -> bytes:
    message = json.loads(game_payload())
    message.update(changes)
    return encode(message)


@pytest.mark.parametrize("language", SEEN)
def test_a_row_and_the_status_line_in_each_language(language: str) -> None:
    seen = SEEN[language]
    cafe = Cafe(language)
    cafe.broker(True, "")
    assert cafe.summary() == seen["empty"]
    cafe.receive("codenames/t1/status", encode(envelope("t1", 1, status="online")))
    cafe.receive("codenames/t1/game", game_payload())
    health = HEALTH | {"events_dropped": 2, "led_off": "spi-off"}
    cafe.receive("codenames/t1/health", encode(envelope("t1", 1, **health)))
    cafe.receive("codenames/t1/game", b"[1]")
    cells = cafe.tables["t1"].cells(cafe.catalog, 2.0)
    team = seen["teams"][json.loads(game_payload())["turn"]]
    assert cells["state"] == seen["state"].format(team=team)
    assert not cells["score"].endswith(seen["match"])  # the match: only between games
    assert cells["online"] == seen["online"][0]
    assert cells["health"] == seen["health"]
    assert cafe.summary() == seen["status"]
    assert cafe.snapshot()["status"] == seen["status"]
    cafe.receive("codenames/t1/game", game(phase="over", winner="blue", reason="assassin"))
    cafe.receive("codenames/t1/status", encode(envelope("t1", 2, status="offline")))
    cells = cafe.tables["t1"].cells(cafe.catalog, 2.0)
    assert cells["state"] == seen["over"]
    assert cells["score"].endswith(seen["match"])
    assert cells["online"].startswith(seen["online"][1])
    assert cafe.snapshot()["tables"][0]["cells"] == list(cells.values())


def test_counts_take_their_plural_and_unlimited_is_a_sign() -> None:
    cafe = Cafe("es")
    match = {"red": 1, "blue": 1, "games": 2}
    cafe.receive("codenames/t1/game", game(clue="unlimited", guesses_left="unlimited", match=match))
    health = HEALTH | {"stuck_pads": [], "oled_up": True, "saving": True, "events_dropped": 1}
    cafe.receive("codenames/t1/health", encode(envelope("t1", 1, **health)))
    cells = cafe.tables["t1"].cells(cafe.catalog, 2.0)
    assert cells["state"].endswith(", pista ∞, quedan ∞")
    over = game(phase="over", winner="red", reason="agents", match=match)
    cafe.receive("codenames/t1/game", over)
    assert cafe.tables["t1"].cells(cafe.catalog, 2.0)["score"].endswith("(2 partidas)")
    assert cells["health"] == "1 evento perdido"
    cafe.receive("codenames/t1/game", game(guesses_left=1))
    assert cafe.tables["t1"].cells(cafe.catalog, 2.0)["state"].endswith(", queda 1")


def test_a_code_the_cafe_does_not_know_is_shown_as_sent() -> None:
    cafe = Cafe("it")
    cafe.receive("codenames/t1/game", game(turn="green", phase="sudden_death", clue=None))
    state = cafe.tables["t1"].cells(cafe.catalog, 2.0)["state"]
    assert state.startswith("green: sudden_death, ne rest")
    cafe.receive("codenames/t1/game", game(phase="over", winner="green", reason="fog"))
    assert cafe.tables["t1"].cells(cafe.catalog, 2.0)["state"] == "green ha vinto (fog)"


def test_health_ok_is_not_a_problem() -> None:
    cafe = Cafe("pt")
    cafe.broker(True, "")
    health = HEALTH | {"stuck_pads": [], "oled_up": True, "saving": True, "events_dropped": 0}
    cafe.receive("codenames/t1/health", encode(envelope("t1", 1, **health)))
    row = cafe.snapshot()["tables"][0]
    assert row["cells"][list(HEADINGS).index("health")] == "OK" and not row["alert"]
    assert row["offline"]  # no status heard yet: not known to be online


@pytest.mark.parametrize(
    ("environ", "language"),
    [
        ({"LANG": "es_ES.UTF-8"}, "es"),
        ({"LANG": "pt_PT.UTF-8", "LC_ALL": "it_IT.UTF-8"}, "it"),
        ({"LANG": "pt_BR", "LC_MESSAGES": "pt_PT@euro"}, "pt"),
        ({"LANG": "it_IT.UTF-8", "LC_ALL": ""}, "it"),
        ({"LANG": "fr_FR.UTF-8"}, "en"),
        ({"LANG": "C.UTF-8"}, "en"),
        ({"LANG": "es_ES.UTF-8", "LC_ALL": "C"}, "en"),
        ({}, "en"),
    ],
)
def test_the_language_follows_the_locale_when_the_table_has_it(
    environ: dict[str, str], language: str
) -> None:
    assert environment_language(environ) == language


def test_co_op_words_are_the_oleds() -> None:
    """A co-op game reads as the table's screen says it, from the same catalog's texts."""
    from firmware.cafe import texts
    from firmware.table import screen_texts as oled

    assert texts.OPPONENTS_TURN == oled.OPPONENTS_TURN
    assert texts.MISSION_WON == oled.MISSION_WON
    assert texts.MISSION_LOST == oled.MISSION_LOST
    cafe = Cafe("it")
    coop = json.loads(game_payload())
    players = coop["turn"]
    enemy = "blue" if players == "red" else "red"
    cafe.receive("codenames/t1/game", game(mode="coop", starting=players, phase="enemy_cover"))
    cells = cafe.tables["t1"].cells(cafe.catalog, 2.0)
    assert cells["mode"] == "Cooperativa"  # as the Italian menu names the mode
    assert cells["state"] == cafe.catalog.gettext(oled.OPPONENTS_TURN)
    own, theirs = coop["remaining"][players], coop["remaining"][enemy]
    assert cells["score"] == cafe.catalog.gettext("Ours {own} · Theirs {enemy}").format(
        own=own, enemy=theirs
    )
    cafe.receive("codenames/t1/game", game(mode="coop", starting=players, phase="over", score=7))
    state = cafe.tables["t1"].cells(cafe.catalog, 2.0)["state"]
    assert state.startswith(cafe.catalog.gettext(oled.MISSION_WON)) and "7" in state
