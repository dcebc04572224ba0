"""The menu's "Last actions": the game's actions, newest first, in the table's words, so that
players can check what happened ("did we touch C3 or C4?").

Each line names the team that acted ("Blue: C4 bystander", "Red: clue 2") or what an undo took
back ("Undone: C4"). A guessed card's identity is shown only while the card is covered, that is
while everyone at the table can see it: a guess taken back by undo left its card open again,
and its identity is not told.
"""

from __future__ import annotations

from gettext import GNUTranslations
from typing import assert_never

from board_rules.codenames import (
    Coord,
    Cover,
    Done,
    Game,
    GameState,
    GiveClue,
    Penalty,
    PlayAction,
    Timeout,
    Touch,
    Undo,
)
from firmware.table import screen_texts as m
from firmware.table.screens import MenuView


def last_actions(game: Game, catalog: GNUTranslations) -> tuple[str, ...]:
    """Every action applied in `game`, newest first, one line each."""
    public = game.state.covered
    replay = Game(game.key, game.mode)
    lines = []
    for action in game.applied:
        before, standing = replay.state, replay.standing
        replay.play(action)
        if isinstance(action, Undo):
            lines.append(m.undone_lines(catalog, standing[-1])[0])
        else:
            lines.append(_line(catalog, before, action, public))
    return tuple(reversed(lines))


def last_actions_view(game: Game, index: int, catalog: GNUTranslations) -> MenuView:
    """The last actions as the OLED shows them, like the menu: the line at `index` marked."""
    _ = catalog.gettext
    lines = last_actions(game, catalog) or (_(m.NOTHING_PLAYED),)
    return MenuView(
        title=_(m.LAST_ACTIONS),
        items=lines,
        index=min(index, len(lines) - 1),
        hint=_(m.LAST_ACTIONS_HINT),
    )


def _line(
    catalog: GNUTranslations, before: GameState, action: PlayAction, public: frozenset[Coord]
) -> str:
    _ = catalog.gettext
    team = before.turn
    match action:
        case GiveClue(number):
            return _(m.ACTED_CLUE[team]).format(number=m.clue_text(number))
        case Touch(coord) if coord in public:
            seen = m.ACTED_TOUCH_SEEN[team, before.key[coord]]
            return _(seen).format(card=m.switch_name(coord))
        case Touch(coord):
            return _(m.ACTED_TOUCH[team]).format(card=m.switch_name(coord))
        case Cover(coord):
            return _(m.ACTED_COVER[team]).format(card=m.switch_name(coord))
        case Done():
            return _(m.ACTED_STOP[team])
        case Penalty():
            return _(m.ACTED_PENALTY[team])
        case Timeout():
            return _(m.ACTED_TIMEOUT[team])
        case _:
            assert_never(action)
