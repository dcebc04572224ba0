"""Shared helpers of the Coda tests: stacked pools, so a test knows every draw, and a compact
text form of rows (hidden tiles in lower case, revealed ones in upper case)."""

from __future__ import annotations

import random

from board_rules.coda import (
    DASH,
    Action,
    Arrange,
    Attack,
    Color,
    Draw,
    GameState,
    IllegalActionError,
    Phase,
    Place,
    Pool,
    Reason,
    Reveal,
    Stop,
    TakeTiles,
    Tile,
    Timeout,
    apply,
    game_tiles,
)


def tiles(text: str) -> list[Tile]:
    """`"b1 w3 b-"` as tiles."""
    return [Tile.parse(word) for word in text.split()]


def stacked(black: str = "", white: str = "", *, advanced: bool = False) -> Pool:
    """A pool whose stacks start with the tiles given, in that order; the rest of each colour
    follows in rank order (the dash last)."""
    stacks = []
    for color, text in ((Color.BLACK, black), (Color.WHITE, white)):
        first = tiles(text)
        rest = [t for t in game_tiles(advanced) if t.color is color and t not in first]
        stacks.append((*first, *rest))
    return Pool(black=stacks[0], white=stacks[1])


def start(
    black: str = "",
    white: str = "",
    *,
    players: int = 2,
    advanced: bool = False,
    starter: int = 0,
) -> GameState:
    """A new game over a stacked pool."""
    return GameState.start(stacked(black, white, advanced=advanced), players, starter)


def play(state: GameState, *actions: Action) -> GameState:
    """Apply each action; every one must be accepted."""
    for action in actions:
        state = apply(state, action)
    return state


def rejection(state: GameState, action: Action) -> Reason:
    """The reason the rules reject `action` (which must be rejected)."""
    try:
        apply(state, action)
    except IllegalActionError as error:
        return error.reason
    raise AssertionError(f"{action!r} was accepted")


def row(state: GameState, player: int) -> str:
    """`player`'s row as text: hidden tiles in lower case, revealed ones in upper case."""
    return " ".join(
        str(slot.tile).upper() if slot.revealed else str(slot.tile) for slot in state.rows[player]
    )


def random_action(state: GameState, rng: random.Random) -> Action:
    """A random action of the phase, legal or not (the rules judge): taking, arranging,
    drawing, attacking any position of any player with any value (the right one often),
    stopping, timing out, placing and revealing anywhere."""
    size, phase = state.opening_size, state.phase
    if phase is Phase.TAKE:
        black = rng.randint(0, size)
        return TakeTiles(black, size - black)
    if phase is Phase.ARRANGE:
        return Arrange(tuple(rng.sample(range(size), rng.randint(0, 2))))
    if phase is Phase.DRAW:
        return Draw(rng.choice(list(Color)))
    if phase is Phase.PLACE:
        return Place(rng.randint(0, len(state.rows[state.turn]) + 1))
    if phase is Phase.REVEAL:
        return Reveal(rng.randint(0, len(state.rows[state.turn])))
    roll = rng.random()
    if roll < 0.05:
        return Timeout()
    if roll < 0.3:
        return Stop()
    player = rng.randrange(state.players)
    row = state.rows[player]
    index = rng.randint(0, len(row))
    if index < len(row) and rng.random() < 0.4:
        # Peeking at the answer now and then gives right attacks, stops and hidden placements.
        return Attack(player, index, row[index].tile.value)
    return Attack(player, index, rng.choice([*range(12), DASH]))


def random_play(seed: int, players: int, advanced: bool) -> list[GameState]:
    """Every state of one game of random legal actions, from the deal to the end; the random
    actions the rules reject are checked to be rejected with a reason, changing nothing."""
    rng = random.Random(seed)
    state = GameState.new(players, rng, advanced=advanced, starter=rng.randrange(players))
    states = [state]
    for _ in range(100_000):  # a bound, so that broken rules fail instead of hanging
        if state.is_over:
            return states
        action = random_action(state, rng)
        try:
            state = apply(state, action)
        except IllegalActionError as error:
            assert isinstance(error.reason, Reason)
            continue
        states.append(state)
    raise AssertionError("random play did not end")
