"""The balls of a game: ids, values, groups and what each looks like.

A ruleset's :attr:`balls` is a :class:`BallSet`. The referee uses it for values and for the
ball-on groups; the camera pipeline can use :attr:`BallSet.ids` and :attr:`BallSet.looks`
to know which balls to find (22 for snooker, 16 for Snookerpool, 3 for English billiards).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from tracker import balls as B


@dataclass(frozen=True)
class BallSet:
    """The balls of one game.

    Attributes:
        cue_balls: the balls struck with the cue (``white``; both whites in billiards).
        reds: the group of which any ball is on at the start of a turn (reds; solids in
            Snookerpool); empty in billiards.
        colours: the balls played one at a time, lowest value first (the colours; stripes
            9..15 in Snookerpool).
        others: object balls outside both groups (the red in billiards).
        values: ball id -> points (reds included).
        looks: ball id -> the colour a camera sees (``red`` for every red, ``white`` for
            both billiards whites: the spot white differs only by its spots).
        generic_red: the id a manual log may use for "some red" (``red`` in snooker).
    """

    cue_balls: tuple[str, ...]
    reds: tuple[str, ...]
    colours: tuple[str, ...]
    values: Mapping[str, int]
    looks: Mapping[str, str]
    others: tuple[str, ...] = ()
    generic_red: str | None = None
    aliases: Mapping[str, str] = field(default_factory=dict)

    @property
    def ids(self) -> tuple[str, ...]:
        """Every ball of the game, cue ball(s) first."""
        return (*self.cue_balls, *self.reds, *self.colours, *self.others)

    @property
    def cue(self) -> str:
        """The (first) cue ball."""
        return self.cue_balls[0]

    def value(self, ball: str) -> int:
        """Points value of ``ball`` (a cue ball 0; the generic red that of a red)."""
        if ball == self.generic_red and self.reds:
            return self.values[self.reds[0]]
        return self.values.get(ball, 0)

    def is_red(self, ball: str) -> bool:
        """True for a ball of the ``reds`` group (or the generic red)."""
        return ball in self.reds or (ball == self.generic_red and bool(self.reds))

    def is_colour(self, ball: str) -> bool:
        """True for a ball of the ``colours`` group."""
        return ball in self.colours

    def is_valid(self, ball: str) -> bool:
        """True if ``ball`` names a ball of this set (or the generic red)."""
        return ball in self.values or ball in self.cue_balls or ball == self.generic_red


def snooker_balls(n_reds: int = 15) -> BallSet:
    """Snooker (S3 R1(a)): the white, ``n_reds`` reds worth 1, six colours worth 2..7."""
    reds = B.red_ids(n_reds)
    values = {**{r: 1 for r in reds}, **{c: B.VALUES[c] for c in B.COLOURS}, B.WHITE: 0}
    looks = {**{r: "red" for r in reds}, **{c: c for c in B.COLOURS}, B.WHITE: "white"}
    return BallSet((B.WHITE,), reds, B.COLOURS, values, looks, generic_red=B.GENERIC_RED)


def snookerpool_balls(n_solids: int = 8) -> BallSet:
    """Snookerpool (004): solids 1..8 worth 1, stripes 9..15 worth 2..8."""
    solids = tuple(str(i) for i in range(1, n_solids + 1))
    stripes = tuple(str(i) for i in range(9, 16))
    values = {**{s: 1 for s in solids}, **{s: int(s) - 7 for s in stripes}, B.WHITE: 0}
    looks = {**{s: f"solid_{s}" for s in solids}, **{s: f"stripe_{s}" for s in stripes},
             B.WHITE: "white"}
    return BallSet((B.WHITE,), solids, stripes, values, looks)


def billiards_balls(second: str = "spot") -> BallSet:
    """English billiards (002): the plain white, a second cue ball (the spot white; the
    yellow in the 000 "Snooker - 1 red" set) and the red. Values are those of a pot (the red
    3, a white 2); cannons and in-offs are scored by the ruleset."""
    values = {B.WHITE: 2, second: 2, "red": 3}
    looks = {B.WHITE: "white", second: "white" if second == "spot" else second, "red": "red"}
    aliases = {"spot_white": "spot"} if second == "spot" else {}
    return BallSet((B.WHITE, second), (), (), values, looks, others=("red",), aliases=aliases)


#: The pool balls' colours by number (WPA Equipment Specifications; the 9..15 stripes repeat
#: the 1..7 colours on a white ball). A camera tells the 1 from the 9 by the stripe alone.
POOL_COLOURS: dict[int, str] = {1: "yellow", 2: "blue", 3: "red", 4: "purple", 5: "orange",
                                6: "green", 7: "maroon", 8: "black"}


def pool_look(number: int) -> str:
    """What pool ball ``number`` (1..15) looks like: ``solid_<colour>`` for 1..8,
    ``stripe_<colour>`` for 9..15 (the colour of ``number - 8``)."""
    if not 1 <= number <= 15:
        raise ValueError(f"pool balls are numbered 1 to 15, not {number}")
    if number <= 8:
        return f"solid_{POOL_COLOURS[number]}"
    return f"stripe_{POOL_COLOURS[number - 8]}"


def pool_balls(n_objects: int = 15) -> BallSet:
    """Pool (002 Pool Billiards): the cue ball ``white`` (alias ``cue``) and object balls
    ``1``..``n_objects``. Eight-ball (15 balls): the solids 1..7 as the first group
    (``reds``), the stripes 9..15 as the second (``colours``), the 8 apart (``others``).
    Nine-ball (9 balls): the balls 1..9 are played lowest first, so all are ``colours``.
    No ball scores points (a rack is won, not scored): every value is 0."""
    numbers = tuple(str(i) for i in range(1, n_objects + 1))
    values = {B.WHITE: 0, **{n: 0 for n in numbers}}
    looks = {B.WHITE: "white", **{n: pool_look(int(n)) for n in numbers}}
    aliases = {"cue": B.WHITE, "cue_ball": B.WHITE}
    if n_objects == 15:
        solids = tuple(str(i) for i in range(1, 8))
        stripes = tuple(str(i) for i in range(9, 16))
        return BallSet((B.WHITE,), solids, stripes, values, looks, others=("8",), aliases=aliases)
    return BallSet((B.WHITE,), (), numbers, values, looks, aliases=aliases)
