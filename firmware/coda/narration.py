"""The log of the on-screen Coda game: each action told in words, and the words for tiles.

A log line says only what everyone at the table sees or hears: `describe` reads two views of
the game (any player's, before and after the action) and the public part of the action. A
tile's position in a row changes as tiles are inserted left of it, so a line names a tile by a
label that does not: it keeps `LABEL` in its place, and the controller, which labels the tiles
(`CodaController.tile_label`), fills it in. A
computer's `Arrange` tells where its dashes are, so it is never read; a hidden placement says
nothing at all. No Textual here: the controller (`firmware.coda.controller`) keeps the log.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from board_rules.coda import (
    DASH,
    Action,
    Attack,
    Color,
    Draw,
    PlayerView,
    Reveal,
    SeenTile,
    Stop,
    TakeTiles,
    Tile,
    Timeout,
    Value,
)
from firmware.coda.texts import CodaTexts

LABEL: Final = "{position}"
"""Left in a line in place of the label of the tile it names (see the module docstring)."""


def describe(
    texts: CodaTexts,
    names: Sequence[str],
    before: PlayerView,
    action: Action,
    after: PlayerView,
) -> list[str]:
    """The log lines of `action`, played by the player in turn in `before`: only what anyone at
    the table sees, read from two views (any player's) and the public part of the action."""
    actor = before.turn
    player = names[actor]
    lines: list[str] = []
    if isinstance(action, TakeTiles):
        lines.append(
            texts["log_take"].format(player=player, black=action.black, white=action.white)
        )
    elif isinstance(action, Draw):
        lines.append(
            texts["log_draw"].format(player=player, colour=colour_name(texts, action.color))
        )
    elif isinstance(action, Attack):
        target = before.rows[action.player][action.index]
        right = after.rows[action.player][action.index].revealed
        lines.append(
            texts["log_attack"].format(
                attacker=player,
                target=names[action.player],
                position=LABEL,
                colour=colour_name(texts, target.color),
                value=value_name(texts, action.value),
                verdict=texts["right" if right else "wrong"],
            )
        )
    elif isinstance(action, Stop):
        lines.append(texts["log_stop"].format(player=player))
    elif isinstance(action, Timeout):
        lines.append(texts["log_timeout"].format(player=player))
    elif isinstance(action, Reveal):
        turned = after.rows[actor][action.index]
        lines.append(
            texts["log_reveal"].format(player=player, position=LABEL, tile=seen_name(texts, turned))
        )
    if not isinstance(action, Reveal):
        # A drawn tile that went into the row face up: after a wrong attack, at once in the
        # basic game, at its placing in the advanced one.
        known = {seen.tile for seen in before.rows[actor] if seen.revealed}
        for seen in after.rows[actor]:
            if seen.revealed and seen.tile not in known:
                lines.append(
                    texts["log_face_up"].format(player=player, tile=seen_name(texts, seen))
                )
    for other in range(after.players):
        if after.is_out(other) and not before.is_out(other):
            lines.append(texts["log_out"].format(player=names[other]))
    if after.winner is not None and before.winner is None:
        lines.append(texts["log_winner"].format(player=names[after.winner]))
    return lines


def colour_name(texts: CodaTexts, color: Color) -> str:
    """The colour of a tile, in words."""
    return texts["black"] if color is Color.BLACK else texts["white"]


def value_name(texts: CodaTexts, value: Value) -> str:
    """A named value, in words: the number, or the dash."""
    return texts["dash"] if value == DASH else str(value)


def tile_name(texts: CodaTexts, tile: Tile) -> str:
    """A tile whose value is known, in words ("black 7")."""
    return texts["tile"].format(
        colour=colour_name(texts, tile.color), value=value_name(texts, tile.value)
    )


def seen_name(texts: CodaTexts, seen: SeenTile) -> str:
    """A tile seen face up (or one's own), in words."""
    tile = seen.tile
    return colour_name(texts, seen.color) if tile is None else tile_name(texts, tile)
