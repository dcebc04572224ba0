"""The cover phases on the virtual table: a touch only chooses the card, DONE covers it, and the
public side (the OLED) is the same whatever the card; only the LED key tells."""

from collections.abc import Iterator

from board_rules.codenames import ALL_COORDS, Coord, Identity, Mode, Phase, Reason, Team
from firmware.drivers.events import ConsoleButton
from firmware.drivers.led_layout import Side
from firmware.table.config import TableConfig
from firmware.table.cover_choice import REFUSED_CONFIRMS
from firmware.table.led_pattern import CHOICE_BLINK_HZ
from firmware.table.settings import TableSettings
from firmware.virtual.table import VirtualTable

from ..conftest import TableFactory
from ..rules_helpers import KEY
from ..table_scripts import STILL, announce

COOP = TableConfig(settings=TableSettings(mode=Mode.COOP), oled=STILL.oled)
BLACK = (0, 0, 0)
HALF_BLINK_S = 1 / (2 * CHOICE_BLINK_HZ)
C4, E2, A1 = Coord.parse("C4"), Coord.parse("E2"), Coord.parse("A1")


def oled(vt: VirtualTable) -> list[str]:
    """The texts on the OLED now, as the operatives read them."""
    screen = vt.display.screen
    assert screen is not None
    return screen.text_lines


def to_penalty_cover(vt: VirtualTable) -> None:
    """Red announces a clue and is called for an invalid one: blue may cover one of its agents."""
    announce(vt)
    vt.press_button(ConsoleButton.PENALTY, hold_s=1.2)
    assert (vt.table.state.phase, vt.table.state.turn) == (Phase.PENALTY_COVER, Team.BLUE)


def to_enemy_cover(vt: VirtualTable) -> None:
    """Co-op: the players (red) guess a bystander; the enemy (blue) has its cover."""
    announce(vt)
    vt.press_pad(C4)
    assert (vt.table.state.phase, vt.table.state.turn) == (Phase.ENEMY_COVER, Team.BLUE)


def lights(vt: VirtualTable, over_s: float = 2 * HALF_BLINK_S) -> Iterator[dict[str, object]]:
    """The key's chosen-card lights sampled over a blink period: each sample maps a light to its
    colour on the strip (time passes on the table's clock)."""
    layout = vt.lights.layout
    for _ in range(4):
        shown = vt.pixel_strip.shown_rgb()
        sample: dict[str, object] = {str(c): shown[layout.index(c)] for c in ALL_COORDS}
        sample["edge"] = shown[layout.edge_index(Side.TOP)]
        yield sample
        vt.wait(over_s / 4)


def blinks(samples: list[dict[str, object]], light: str) -> bool:
    looks = {sample[light] for sample in samples}
    return BLACK in looks and len(looks) == 2


def test_a_touch_in_a_penalty_cover_shows_the_same_screen_for_every_card(
    virtual_table: TableFactory,
) -> None:
    with virtual_table() as vt:
        to_penalty_cover(vt)
        before = vt.table.state
        screens = set()
        for card in ALL_COORDS:
            vt.press_pad(card)
            screens.add(tuple(line.replace(str(card), "<card>") for line in oled(vt)))
            vt.wait(3.0)  # past any notice: the choice stays on the screen
            screens.add(tuple(line.replace(str(card), "<card>") for line in oled(vt)))
        chosen = ("Penalty: blue covers", "Cover <card>? Press DONE", "« 1 »", "Red 9 · Blue 8")
        assert screens == {chosen}
        assert vt.table.state == before
        assert vt.table.rejections == []


def test_a_refused_done_looks_on_the_oled_exactly_like_choosing_again(
    virtual_table: TableFactory,
) -> None:
    with virtual_table() as vt:
        to_penalty_cover(vt)
        assert KEY[C4] is Identity.BYSTANDER
        vt.press_pad(C4)
        chosen_text, chosen_picture = oled(vt), vt.chip.visible_image().tobytes()
        vt.press_button(ConsoleButton.DONE)
        assert [r.reason for r in vt.table.rejections] == [Reason.NOT_YOUR_WORD]
        assert oled(vt) == chosen_text
        assert vt.chip.visible_image().tobytes() == chosen_picture
        assert vt.table.state.phase is Phase.PENALTY_COVER and C4 not in vt.table.state.covered


def test_the_key_marks_the_choice_and_whether_it_may_be_covered(
    virtual_table: TableFactory,
) -> None:
    with virtual_table() as vt:
        to_penalty_cover(vt)
        vt.press_pad(C4)  # a bystander: not blue's to cover
        refused = list(lights(vt))
        assert blinks(refused, "edge")
        assert len({sample["C4"] for sample in refused}) == 1  # its colour stays readable
        vt.press_pad(E2)  # a blue agent
        allowed = list(lights(vt))
        assert blinks(allowed, "E2")
        assert len({sample["edge"] for sample in allowed}) == 1
        assert len({sample["C4"] for sample in allowed}) == 1
        vt.press_button(ConsoleButton.DONE)
        assert E2 in vt.table.state.covered
        assert (vt.table.state.phase, vt.table.state.turn) == (Phase.CLUE, Team.BLUE)
        after = list(lights(vt))
        assert not blinks(after, "E2") and len({sample["edge"] for sample in after}) == 1


def test_the_second_refused_done_loses_the_penalty_cover(virtual_table: TableFactory) -> None:
    with virtual_table() as vt:
        to_penalty_cover(vt)
        vt.press_pad(C4)
        for _ in range(REFUSED_CONFIRMS):
            vt.press_button(ConsoleButton.DONE)
        assert oled(vt)[1] == "Cover lost: push"
        state = vt.table.state
        vt.press_pad(E2)
        vt.press_button(ConsoleButton.DONE)
        assert vt.table.state == state  # no more covering
        assert oled(vt)[1] == "Cover lost: push"
        vt.push()  # the clue skips the cover, as always
        assert (vt.table.state.phase, vt.table.state.turn) == (Phase.GUESS, Team.BLUE)


def test_done_with_no_card_chosen_says_what_to_do(virtual_table: TableFactory) -> None:
    with virtual_table() as vt:
        to_penalty_cover(vt)
        vt.press_button(ConsoleButton.DONE)
        assert oled(vt)[1] == "Cover a word, or push"
        assert vt.table.rejections == []


def test_undo_after_a_cover_comes_back_to_the_choosing(virtual_table: TableFactory) -> None:
    with virtual_table() as vt:
        to_penalty_cover(vt)
        vt.press_pad(E2)
        vt.press_button(ConsoleButton.DONE)
        vt.press_button(ConsoleButton.UNDO, hold_s=1.2)
        assert vt.table.state.phase is Phase.PENALTY_COVER and E2 not in vt.table.state.covered
        vt.wait(3.0)
        assert oled(vt)[1] == "Cover E2? Press DONE"  # the very state the choice was made in
        vt.press_button(ConsoleButton.DONE)
        assert E2 in vt.table.state.covered


def test_the_coop_enemy_cover_is_chosen_and_confirmed_alike(virtual_table: TableFactory) -> None:
    with virtual_table(config=COOP) as vt:
        to_enemy_cover(vt)
        before = vt.table.state
        screens = set()
        for card in ALL_COORDS:
            if card not in before.covered:
                vt.press_pad(card)
                screens.add(tuple(line.replace(str(card), "<card>") for line in oled(vt)))
        assert screens == {("Opponent's turn", "Cover <card>? Press DONE", "Ours 9 · Theirs 8")}
        assert vt.table.state == before
        vt.press_pad(E2)
        vt.press_button(ConsoleButton.DONE)
        assert E2 in vt.table.state.covered and vt.table.state.phase is Phase.CLUE


def test_the_coop_enemy_covers_at_random_after_the_second_refused_done(
    virtual_table: TableFactory,
) -> None:
    with virtual_table(config=COOP) as vt:
        to_enemy_cover(vt)
        vt.press_pad(A1)  # one of the players' own agents
        for _ in range(REFUSED_CONFIRMS):
            vt.press_button(ConsoleButton.DONE)
        state = vt.table.state
        (taken,) = set(state.covered) - {C4}
        assert state.key[taken] is Identity.BLUE
        assert state.phase is Phase.CLUE and state.turn is Team.RED
        assert oled(vt)[1] == f"Blue: covers {taken}"
