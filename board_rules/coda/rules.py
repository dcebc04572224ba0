"""The rules of play: how one action changes a game state, or why it is rejected.

`apply` is a pure function of (state, action). Where the rulebook is silent, the core decides:

- Opening: in the order of play from the starter, each player takes all its tiles at once,
  choosing how many of each colour. In the basic game its row is sorted at once. In the
  advanced game the tiles stay in hand (black ones first, so the order tells nothing) until the
  player lays out its row (`Arrange`), dashes where it likes, in every advanced opening: a
  step taken only by dash holders would tell everyone who holds one.
- In the advanced game every tile that enters a row waits for its owner to place it (`Place`),
  hidden or face up, even with a single legal place: a dash may sit anywhere, and a number may
  go either side of a dash between its neighbours, so only an owner's free, always-asked choice
  keeps a hidden dash from showing. In the basic game every tile has one place and goes there.
- The drawn tile lies apart from the row until the turn ends, so it cannot be attacked; once
  in the row, hidden or face up, it is a tile of the row like any other.
- A right attack that leaves one player alone with hidden tiles ends the game at once; the
  attacker's drawn tile stays in hand.
- With no tile left to draw there is nothing to place: stopping just ends the turn, and a wrong
  attack makes the attacker turn one of its own hidden tiles of its choice (`Reveal`).
- The time rule (`Timeout`, applied by the caller's clock) before the turn's first right attack
  counts as a wrong attack without the miss: the drawn tile goes into the row face up, or, with
  nothing drawn, the attacker reveals one of its own tiles. After a right attack no further
  attack is due, so a timeout then is a stop.
- A wrong attack is heard by everyone: the named value is recorded on the tile as a miss, and
  on each of the attacker's hidden tiles of that colour as a value its owner named.
- Players are numbered in the order of play (the rulebook's clockwise); one who is out is
  skipped.
"""

from __future__ import annotations

from dataclasses import replace

from board_rules.coda.actions import (
    Action,
    Arrange,
    Attack,
    Draw,
    Place,
    Reveal,
    Stop,
    TakeTiles,
    Timeout,
)
from board_rules.coda.errors import IllegalActionError
from board_rules.coda.opening import is_layout, opening_row, take_range
from board_rules.coda.reasons import Reason
from board_rules.coda.row import RowTile, legal_slots
from board_rules.coda.seen import SeenAttack, public_rows
from board_rules.coda.state import GameState, Phase
from board_rules.coda.tiles import DASH, Color, Tile, Value

_EXPECTED: dict[Phase, tuple[type, Reason]] = {
    Phase.TAKE: (TakeTiles, Reason.MUST_TAKE),
    Phase.ARRANGE: (Arrange, Reason.MUST_ARRANGE),
    Phase.DRAW: (Draw, Reason.MUST_DRAW),
    Phase.PLACE: (Place, Reason.MUST_PLACE),
    Phase.REVEAL: (Reveal, Reason.MUST_REVEAL),
}


def apply(state: GameState, action: Action) -> GameState:
    """The state after `action` by the player in turn; raises `IllegalActionError` with a
    `Reason` and changes nothing.

    >>> import random
    >>> start = GameState.new(2, random.Random(1))
    >>> after = apply(apply(start, TakeTiles(2, 2)), TakeTiles(4, 0))
    >>> after.phase, after.turn
    (<Phase.DRAW: 'draw'>, 0)
    """
    if state.phase is Phase.OVER:
        raise IllegalActionError(Reason.GAME_OVER)
    if state.phase is Phase.ATTACK:
        return _attacking(state, action)
    expected, reason = _EXPECTED[state.phase]
    if not isinstance(action, expected):
        raise IllegalActionError(reason)
    if isinstance(action, TakeTiles):
        return _take(state, action)
    if isinstance(action, Arrange):
        return _arrange(state, action.dashes)
    if isinstance(action, Draw):
        return _draw(state, action.color)
    if isinstance(action, Place):
        return _place(state, action.index)
    if isinstance(action, Reveal):
        return _reveal_own(state, action.index)
    raise TypeError(f"not an action of Coda: {action!r}")  # pragma: no cover


def _attacking(state: GameState, action: Action) -> GameState:
    if isinstance(action, Attack):
        return _attack(state, action)
    if isinstance(action, Stop):
        if state.hits == 0:
            raise IllegalActionError(Reason.MUST_ATTACK_FIRST)
        return _settle_hand(state, face_up=False)
    if isinstance(action, Timeout):
        return _settle_hand(state, face_up=False) if state.hits else _missed(state)
    if isinstance(action, Draw):
        raise IllegalActionError(Reason.ALREADY_DRAWN if state.hand else Reason.POOL_EMPTY)
    raise IllegalActionError(Reason.ATTACKING)


def _take(state: GameState, action: TakeTiles) -> GameState:
    """The opening tiles, of the colours the player chose, each the next of its stack."""
    if action.black + action.white != state.opening_size:
        raise IllegalActionError(Reason.WRONG_COUNT)
    pool = state.pool
    fewest, most = take_range(state.opening_size, pool.count(Color.BLACK), pool.count(Color.WHITE))
    if not fewest <= action.black <= most:
        raise IllegalActionError(Reason.COLOUR_USED_UP)
    taken: list[Tile] = []
    for color, count in ((Color.BLACK, action.black), (Color.WHITE, action.white)):
        tiles, pool = pool.take(color, count)
        taken.extend(tiles)
    after = replace(state, pool=pool, hand=tuple(taken))
    if state.advanced:
        return replace(after, phase=Phase.ARRANGE)
    return _end_turn(_lay_out(after, ()))


def _arrange(state: GameState, positions: tuple[int, ...]) -> GameState:
    """The advanced opening's layout: each dash held at its chosen position."""
    if not is_layout(state.hand, positions):
        raise IllegalActionError(Reason.BAD_ARRANGEMENT)
    return _end_turn(_lay_out(state, positions))


def _lay_out(state: GameState, positions: tuple[int, ...]) -> GameState:
    """The hand becomes the row, laid out as `board_rules.coda.opening` says."""
    tiles = opening_row(state.hand, positions)
    row = tuple(RowTile(tile, label=label) for label, tile in enumerate(tiles, start=1))
    return replace(state, rows=_with_row(state, state.turn, row), hand=())


def _draw(state: GameState, color: Color) -> GameState:
    """The drawn tile is kept apart, seen only by its owner, until the turn ends."""
    if state.pool.count(color) == 0:
        raise IllegalActionError(Reason.COLOUR_USED_UP)
    tiles, pool = state.pool.take(color, 1)
    return replace(state, pool=pool, hand=tiles, phase=Phase.ATTACK)


def _attack(state: GameState, action: Attack) -> GameState:
    """Right: the tile is turned face up where it lies, and the attacker may go on or stop.
    Wrong: the miss is recorded and the attacker pays (`_missed`)."""
    if not 0 <= action.player < state.players:
        raise IllegalActionError(Reason.NO_SUCH_PLAYER)
    if action.player == state.turn:
        raise IllegalActionError(Reason.OWN_ROW)
    if state.is_out(action.player):
        raise IllegalActionError(Reason.PLAYER_OUT)
    row = state.rows[action.player]
    if action.index >= len(row):
        raise IllegalActionError(Reason.NO_SUCH_TILE)
    target = row[action.index]
    if target.revealed:
        raise IllegalActionError(Reason.ALREADY_REVEALED)
    if action.value == DASH and not state.advanced:
        raise IllegalActionError(Reason.NO_DASHES)
    right = target.tile.value == action.value
    heard = SeenAttack(
        attacker=state.turn,
        player=action.player,
        index=action.index,
        value=action.value,
        right=right,
        hits=state.hits,
        held=len(state.rows[state.turn]) + len(state.hand),
        rows=public_rows(state.rows),
    )
    state = replace(state, attacks=(*state.attacks, heard))
    if right:
        turned = replace(target, revealed=True)
        after = _with_tile(state, action.player, action.index, turned)
        return _end_if_won(replace(after, hits=state.hits + 1))
    missed = replace(target, misses=target.misses | {action.value})
    named = _owner_named(state, target.tile.color, action.value)
    return _missed(_with_tile(named, action.player, action.index, missed))


def _owner_named(state: GameState, color: Color, value: Value) -> GameState:
    """Record on each of the attacker's hidden tiles of `color` that its owner named `value`
    (see `RowTile.owner_named`); the drawn tile is left out, since the miss turns it face up."""
    row = tuple(
        replace(slot, owner_named=slot.owner_named | {value})
        if slot.tile.color is color and not slot.revealed
        else slot
        for slot in state.rows[state.turn]
    )
    return replace(state, rows=_with_row(state, state.turn, row))


def _missed(state: GameState) -> GameState:
    """A wrong attack, or a timeout before any right one: the drawn tile goes into the row face
    up and the turn ends; with nothing drawn, the attacker turns one of its own tiles."""
    if state.hand:
        return _settle_hand(state, face_up=True)
    return replace(state, phase=Phase.REVEAL)


def _reveal_own(state: GameState, index: int) -> GameState:
    row = state.rows[state.turn]
    if index >= len(row):
        raise IllegalActionError(Reason.NO_SUCH_TILE)
    if row[index].revealed:
        raise IllegalActionError(Reason.ALREADY_REVEALED)
    after = _end_if_won(_with_tile(state, state.turn, index, replace(row[index], revealed=True)))
    return after if after.is_over else _end_turn(after)


def _settle_hand(state: GameState, face_up: bool) -> GameState:
    """The drawn tile (if any) goes into the row: in the advanced game its owner places it,
    in the basic game it goes to its one place. Then the turn ends."""
    if not state.hand:
        return _end_turn(state)
    if state.advanced:
        return replace(state, phase=Phase.PLACE, face_up=face_up)
    (slot,) = legal_slots([t.tile for t in state.rows[state.turn]], state.hand[0])
    return _end_turn(_insert(state, slot, face_up))


def _place(state: GameState, index: int) -> GameState:
    row = state.rows[state.turn]
    if index > len(row):
        raise IllegalActionError(Reason.NO_SUCH_SLOT)
    if index not in legal_slots([slot.tile for slot in row], state.hand[0]):
        raise IllegalActionError(Reason.OUT_OF_ORDER)
    return _end_turn(_insert(state, index, state.face_up))


def _insert(state: GameState, index: int, face_up: bool) -> GameState:
    row = state.rows[state.turn]
    new = RowTile(state.hand[0], revealed=face_up, label=len(row) + 1)
    placed = (*row[:index], new, *row[index:])
    return replace(state, rows=_with_row(state, state.turn, placed), hand=state.hand[1:])


def _end_turn(state: GameState) -> GameState:
    """The next player in order who is still in plays: it takes its opening tiles if it has
    none yet, else draws, or attacks at once when the pool is empty."""
    player = (state.turn + 1) % state.players
    while state.is_out(player):
        player = (player + 1) % state.players
    if not state.rows[player]:
        phase = Phase.TAKE
    else:
        phase = Phase.DRAW if len(state.pool) else Phase.ATTACK
    return replace(state, turn=player, phase=phase, hand=(), face_up=False, hits=0)


def _end_if_won(state: GameState) -> GameState:
    """The last player with a hidden tile wins, at once."""
    left = state.in_game()
    if len(left) == 1:
        return replace(state, phase=Phase.OVER, winner=left[0])
    return state


def _with_row(
    state: GameState, player: int, row: tuple[RowTile, ...]
) -> tuple[tuple[RowTile, ...], ...]:
    return (*state.rows[:player], row, *state.rows[player + 1 :])


def _with_tile(state: GameState, player: int, index: int, tile: RowTile) -> GameState:
    row = state.rows[player]
    return replace(state, rows=_with_row(state, player, (*row[:index], tile, *row[index + 1 :])))
