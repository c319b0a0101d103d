"""Ball identities and values for snooker.

Every ball has a fixed id: ``white``, ``red_01`` .. ``red_15`` and the six colours. Manual
logs may say ``red`` where the exact red is unknown; the engine then takes any red on the
table.
"""

from __future__ import annotations

WHITE = "white"
COLOURS: tuple[str, ...] = ("yellow", "green", "brown", "blue", "pink", "black")
VALUES: dict[str, int] = {
    "white": 0,
    "red": 1,
    "yellow": 2,
    "green": 3,
    "brown": 4,
    "blue": 5,
    "pink": 6,
    "black": 7,
}
GENERIC_RED = "red"


def red_id(i: int) -> str:
    """The id of red number ``i`` (1-based): ``red_01``."""
    return f"red_{i:02d}"


def red_ids(n: int = 15) -> tuple[str, ...]:
    """Ids of ``n`` reds."""
    return tuple(red_id(i) for i in range(1, n + 1))


ALL_BALLS: tuple[str, ...] = (WHITE, *red_ids(15), *COLOURS)


def is_red(ball: str) -> bool:
    """True for ``red`` and ``red_NN`` ids."""
    return ball == GENERIC_RED or ball.startswith("red_")


def is_colour(ball: str) -> bool:
    """True for the six colours."""
    return ball in VALUES and ball not in (WHITE, GENERIC_RED)


def kind(ball: str) -> str:
    """``red`` for any red, else the ball's own name."""
    return GENERIC_RED if is_red(ball) else ball


def value(ball: str) -> int:
    """Points value of a snooker ball (cue ball 0)."""
    return VALUES[kind(ball)]


def valid_ball(ball: str, n_reds: int = 15) -> bool:
    """True if ``ball`` names a snooker ball of a set with ``n_reds`` reds."""
    if ball in (WHITE, GENERIC_RED) or ball in COLOURS:
        return True
    if ball.startswith("red_") and ball[4:].isdigit():
        return 1 <= int(ball[4:]) <= n_reds
    return False
