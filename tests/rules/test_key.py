"""The key card: its text form, the agent counts it must hold, and how keys are drawn."""

import random
from collections import Counter

import pytest

from board_rules.codenames import ALL_COORDS, Identity, InvalidKeyError, Key, Team, generate_key

from ..rules_helpers import KEY_TEXT


def test_text_form_reads_in_any_case_with_slashes_or_blanks() -> None:
    forms = [KEY_TEXT, KEY_TEXT.lower(), KEY_TEXT.replace("/", " "), KEY_TEXT.replace("/", "\n")]
    keys = {Key.parse(form) for form in forms}
    assert len(keys) == 1
    assert str(keys.pop()) == KEY_TEXT


def test_text_form_is_row_by_row_from_a1() -> None:
    key = Key.parse(KEY_TEXT)
    assert key[ALL_COORDS[0]] is Identity.RED
    assert key[ALL_COORDS[9]] is Identity.BLUE  # E2
    assert key[ALL_COORDS[-1]] is Identity.ASSASSIN  # E5


def test_team_with_nine_agents_starts() -> None:
    assert Key.parse(KEY_TEXT).starting_team is Team.RED
    swapped = KEY_TEXT.replace("R", "x").replace("B", "R").replace("x", "B")
    assert Key.parse(swapped).starting_team is Team.BLUE


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("RRRRR/RRRRR/BBBBB/BBNNN/NNNNA", "10 red, 7 blue, 7 bystanders, 1 assassins"),
        ("RRRRR/RRRRB/BBBBB/BBBNN/NNNNA", "9 red, 9 blue, 6 bystanders, 1 assassins"),
        ("RRRRR/RRRRB/BBBBB/BBNNN/NNNNN", "9 red, 8 blue, 8 bystanders, 0 assassins"),
        ("RRRRR/RRRRB/BBBBB/BBNNN/NNNAA", "9 red, 8 blue, 6 bystanders, 2 assassins"),
    ],
)
def test_wrong_counts_are_rejected_with_the_counts_found(text: str, found: str) -> None:
    with pytest.raises(InvalidKeyError, match=f"found {found}"):
        Key.parse(text)


def test_wrong_length_and_unknown_letters_are_rejected() -> None:
    with pytest.raises(InvalidKeyError, match="25 cards, not 24"):
        Key.parse(KEY_TEXT[:-1])
    with pytest.raises(InvalidKeyError, match="unknown key letter: use R"):
        Key.parse(KEY_TEXT[:-1] + "X")


def test_generated_keys_are_valid_and_start_each_team_about_half_the_time() -> None:
    rng = random.Random(20261125)
    keys = [generate_key(rng) for _ in range(4000)]
    starts = Counter(key.starting_team for key in keys)
    # Binomial(4000, 0.5): the standard deviation is about 32; 5 sigma is a safe bound.
    assert abs(starts[Team.RED] - 2000) < 160


def test_generated_layouts_are_uniform_over_the_cells() -> None:
    """Every cell is equally likely to hold each card: a chi-square test per identity."""
    rng = random.Random(7)
    draws = 5000
    per_cell: dict[str, Counter[int]] = {kind: Counter() for kind in ("start", "assassin")}
    for _ in range(draws):
        key = generate_key(rng)
        starting = Identity.RED if key.starting_team is Team.RED else Identity.BLUE
        for coord in ALL_COORDS:
            if key[coord] is starting:
                per_cell["start"][coord.index] += 1
            elif key[coord] is Identity.ASSASSIN:
                per_cell["assassin"][coord.index] += 1
    for kind, share in (("start", 9 / 25), ("assassin", 1 / 25)):
        expected = draws * share
        chi2 = sum((per_cell[kind][i] - expected) ** 2 / expected for i in range(25))
        # 24 degrees of freedom: P(chi2 > 51.2) = 0.001.
        assert chi2 < 51.2, (kind, chi2)


def test_two_generated_games_in_a_row_differ() -> None:
    rng = random.Random(1)
    assert generate_key(rng) != generate_key(rng)


def test_generation_uses_only_the_injected_random() -> None:
    assert generate_key(random.Random(42)) == generate_key(random.Random(42))
