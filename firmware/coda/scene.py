"""What the on-screen Coda game shows at a moment, in plain data: each line of text, each
player's label, what each tile and each pile shows. `firmware.coda.app` only hands it to the
widgets, so what can reach the screen is decided here, without Textual, and a test can compare
two scenes where it would otherwise compare screenshots.

Everything comes from the person's view and choices, never from the full state, so a computer's
hidden number cannot reach the screen before the end; only once the game is over are the full
rows (and a computer's last drawn tile) shown.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from board_rules.coda import Color, Level, Phase, SeenTile, Value, opening_size
from board_rules.coda.tiles import value_order
from firmware.coda.controller import HUMAN, CodaController
from firmware.coda.narration import colour_name, tile_name, value_name


@dataclass(frozen=True)
class TileFace:
    """What one tile shows."""

    color: Color
    value: Value | None
    """None: only its back (colour) is seen."""
    revealed: bool
    """Face up for everyone."""
    label: int | None = None
    """Written on its frame: the label the log names it by (`CodaController.tile_label`);
    None for a drawn tile."""
    selected: bool = False
    placing: bool = False


@dataclass(frozen=True)
class Label:
    """A player's name, left of their row, with what is known of them."""

    text: str
    turn: bool
    """Their turn now."""
    out: bool
    """All their tiles are face up."""


@dataclass(frozen=True)
class Scene:
    """The whole screen but the log (`CodaController.history`)."""

    title: str
    status: str
    piles: dict[Color, tuple[str, int]]
    """Each colour's pile: its label and how many tiles it has left."""
    labels: tuple[Label, ...]
    hands: tuple[TileFace | None, ...]
    """Each player's drawn tile, shown beside their row while it lies apart."""
    rows: tuple[tuple[TileFace, ...], ...]
    attacking: bool
    """The person is attacking: the value keys are live and show `value`."""
    value: Value
    target: str
    """The attack being prepared, in words; empty when not attacking."""
    odds: str = ""
    """The odds view while it is on and a game is in play; once a game is over, the person's
    attacks that did not name the likeliest tile; else empty."""


def scene(game: CodaController) -> Scene:
    """What the screen shows now."""
    view, texts = game.view, game.texts
    over = view.phase is Phase.OVER
    rows = final_rows(game) if over else view.rows
    tally = " · ".join(f"{name} {wins}" for name, wins in zip(game.names, game.wins, strict=True))
    kind = texts["advanced" if view.advanced else "basic"]
    hands = tuple(hand_face(game, player) for player in range(view.players))
    attacking = game.person_to_play(Phase.ATTACK)
    piles = {
        Color.BLACK: (texts["pile_black"].format(count=view.pool_black), view.pool_black),
        Color.WHITE: (texts["pile_white"].format(count=view.pool_white), view.pool_white),
    }
    return Scene(
        title=f"{texts['title']} · {kind} · {texts['wins'].format(tally=tally)}",
        status=status(game),
        piles=piles,
        labels=tuple(label(game, p, drawn=hands[p] is not None) for p in range(view.players)),
        hands=hands,
        rows=tuple(row_faces(game, player, rows[player]) for player in range(view.players)),
        attacking=attacking,
        value=game.choices.value,
        target=target_line(game) if attacking else "",
        odds=odds_text(game),
    )


def odds_text(game: CodaController) -> str:
    """The odds view's text (see `Scene.odds`)."""
    texts = game.texts
    if game.view.phase is Phase.OVER:
        review = game.review
        return "\n".join([texts["review_title"], *review] if review else [texts["review_none"]])
    if not game.show_odds:
        return ""
    return "\n".join([texts["odds_title"], *game.odds()])


def final_rows(game: CodaController) -> tuple[tuple[SeenTile, ...], ...]:
    """Every row with every value: the game is over, nothing is secret any more."""
    return tuple(
        tuple(SeenTile(s.tile.color, s.tile.value, s.revealed, s.misses) for s in row)
        for row in game.state.rows
    )


def label(game: CodaController, player: int, *, drawn: bool) -> Label:
    """`player`'s label: a mark for their turn, their level, out, the winner, a drawn tile."""
    view, texts = game.view, game.texts
    marks = [] if player == HUMAN else [level_name(game, game.levels[player - 1])]
    if view.is_out(player):
        marks.append(texts["out"])
    if view.winner == player:
        marks.append(texts["winner_mark"])
    turn = view.turn == player and view.phase is not Phase.OVER
    lines = [f"{'▶ ' if turn else '  '}{game.names[player]}", f"  {' · '.join(marks)}"]
    if drawn:
        lines.append(f"  {texts['drawn']} ▸")
    return Label("\n".join(lines), turn=turn, out=view.is_out(player))


def level_name(game: CodaController, level: Level) -> str:
    texts = game.texts
    names = {
        Level.EASY: texts["easy"],
        Level.HARD: texts["hard"],
        Level.EXPERT: texts["expert"],
        Level.MASTER: texts["master"],
    }
    return names[level]


def row_faces(game: CodaController, player: int, row: Sequence[SeenTile]) -> tuple[TileFace, ...]:
    """`player`'s row, with the person's choice in the making shown on it: the tile to attack
    or to reveal, the drawn tile in its place, the opening's dashes where they would go."""
    view, chosen = game.view, game.choices
    faces = [
        TileFace(seen.color, seen.value, seen.revealed, label=game.tile_label(player, index))
        for index, seen in enumerate(row)
    ]
    if view.turn != HUMAN or view.phase is Phase.OVER:
        return tuple(faces)
    phase = view.phase
    if phase is Phase.ATTACK and chosen.target is not None and chosen.target[0] == player:
        index = chosen.target[1]
        faces[index] = replace(faces[index], selected=True)
    elif player != HUMAN:
        return tuple(faces)
    elif phase is Phase.REVEAL:
        faces[chosen.reveal_index] = replace(faces[chosen.reveal_index], selected=True)
    elif phase is Phase.PLACE:
        drawn = view.hand[0]
        placing = TileFace(
            drawn.color, drawn.value, view.face_up, label=game.next_label(player), placing=True
        )
        faces.insert(chosen.slot, placing)
    elif phase is Phase.ARRANGE:
        # The opening's tiles are labelled by their place once laid out.
        cursor = chosen.dash_cursor if chosen.dash_cursor in game.arrange_free() else None
        faces = [
            TileFace(tile.color, tile.value, False, label=index + 1, placing=index == cursor)
            for index, tile in enumerate(view.opening_row(game.arrange_positions()))
        ]
    return tuple(faces)


def hand_face(game: CodaController, player: int) -> TileFace | None:
    """The drawn tile, beside its owner's row while it lies apart (not while the person places
    it: then it is shown in the row)."""
    view = game.view
    if view.turn != player or view.phase not in (Phase.ATTACK, Phase.PLACE, Phase.OVER):
        return None
    if player == HUMAN and view.phase is Phase.PLACE:
        return None
    if view.phase is Phase.OVER:
        hand = game.state.hand
        return TileFace(hand[0].color, hand[0].value, False) if hand else None
    if not view.hand:
        return None
    drawn = view.hand[0]
    return TileFace(drawn.color, drawn.value, view.phase is Phase.PLACE and view.face_up)


def status(game: CodaController) -> str:
    """What the game waits for, in a sentence."""
    view, texts, chosen = game.view, game.texts, game.choices
    if view.phase is Phase.OVER:
        if game.rotate:
            return texts["status_won_next"].format(
                winner=game.names[view.winner or 0], player=game.names[game.next_starter or 0]
            )
        if view.winner == HUMAN:
            return texts["status_you_win"]
        return texts["status_other_wins"].format(player=game.names[view.winner or 0])
    if view.turn != HUMAN:
        return texts["status_waiting"].format(player=game.names[view.turn])
    phase = view.phase
    if phase is Phase.TAKE:
        size = opening_size(view.players)
        return texts["status_take"].format(
            count=size, black=chosen.take_black, white=size - chosen.take_black
        )
    if phase is Phase.ARRANGE:
        dashes = view.held_dashes()
        current = dashes[min(len(chosen.dash_positions), len(dashes) - 1)]
        return texts["status_arrange"].format(colour=colour_name(texts, current.color))
    if phase is Phase.DRAW:
        return texts["status_draw"]
    if phase is Phase.ATTACK:
        if view.hits:
            return texts["status_again" if view.hand else "status_again_no_draw"]
        hint = texts["dash_hint"] if view.advanced else ""
        return texts["status_attack"].format(dash_hint=hint)
    if phase is Phase.PLACE:
        tile = view.hand[0].tile
        name = "" if tile is None else tile_name(texts, tile)
        return texts["status_place_up" if view.face_up else "status_place_hidden"].format(tile=name)
    return texts["status_reveal"]


def target_line(game: CodaController) -> str:
    """The attack being prepared: the tile, the values already missed on it, the value."""
    target = game.choices.target
    if target is None:
        return ""
    texts = game.texts
    player, index = target
    seen = game.view.rows[player][index]
    parts = [
        texts["target"].format(
            player=game.names[player],
            position=game.tile_label(player, index),
            colour=colour_name(texts, seen.color),
        )
    ]
    if seen.misses:
        values = ", ".join(value_name(texts, v) for v in sorted(seen.misses, key=value_order))
        parts.append(texts["misses"].format(values=values))
    parts.append(f"{texts['value']}: {value_name(texts, game.choices.value)}?")
    return " · ".join(parts)
