"""People's words for balls, pockets and cushions: what a referee, a player or a viewer reads.

The JSON keeps the machine ids (``red_07``, ``baulk_left``, ``left_top``); everything a person
reads (calls, banners, pages, reports) goes through these functions instead.

- Balls: every red is "a red" (a person cannot tell ``red_07`` from ``red_03``; the slot
  number is the tracker's), colours by name, the cue ball "the cue ball".
- Pockets and cushions are named as a player standing at the baulk end sees the table (the
  canonical frame's view, ``calibration/table.py``; the main TV camera looks from there too):
  the baulk pockets are the "bottom" pockets, the black's end is the "top".
"""

from __future__ import annotations

import re
from collections import Counter

from tracker import balls as B

#: Pocket ids (``calibration.table.POCKET_NAMES``) as a player names them from the baulk end.
POCKET_WORDS = {
    "baulk_left": "bottom left",
    "baulk_right": "bottom right",
    "middle_left": "left middle",
    "middle_right": "right middle",
    "top_left": "top left",
    "top_right": "top right",
}

#: Whose view the pocket and cushion words take (said once on pages and in docs).
VIEWPOINT = "as seen from the baulk end"

_NUMBERS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
            "eleven", "twelve", "thirteen", "fourteen", "fifteen")


def ball_words(ball: str) -> str:
    """A ball's name without article: ``red`` for any red, ``cue ball`` for the white."""
    if B.is_red(ball):
        return "red"
    if ball == B.WHITE:
        return "cue ball"
    return ball


def the_ball(ball: str) -> str:
    """A ball with its article: "a red", "the blue", "the cue ball"."""
    return "a red" if B.is_red(ball) else f"the {ball_words(ball)}"


def balls_words(balls: list[str] | tuple[str, ...]) -> str:
    """Several balls in one phrase: "the blue, the pink and two reds" (reds counted)."""
    counts = Counter(ball_words(b) for b in balls)
    parts = [f"the {name}" for name in dict.fromkeys(ball_words(b) for b in balls)
             if name != "red"]
    if counts["red"]:
        n = counts["red"]
        parts.append("a red" if n == 1 else f"{_NUMBERS[n] if n < len(_NUMBERS) else n} reds")
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def potted_words(balls: list[str] | tuple[str, ...]) -> str:
    """The balls of a stroke's pot, for a call: "a red", "two reds", "the black"."""
    return balls_words(balls)


def pocket_words(pocket: str | None) -> str:
    """A pocket as a player names it ("top left", "right middle"); unknown ids unchanged."""
    if not pocket:
        return "a pocket"
    return POCKET_WORDS.get(pocket, pocket.replace("_", " "))


def cushion_words(cushion: str | None) -> str:
    """A cushion as a player names it: "top cushion", "left cushion (baulk half)"."""
    if not cushion:
        return "a cushion"
    if cushion in ("baulk", "top"):
        return f"{cushion} cushion"
    side, _, half = cushion.partition("_")
    return f"{side} cushion ({half} half)" if half else f"{side} cushion"


def capital(text: str) -> str:
    """The sentence with its first letter upper-case."""
    return text[:1].upper() + text[1:]


_RED_ID = re.compile(r"\b(?:(?:the|a) )?red_\d{1,2}\b")
_POCKET_ID = re.compile(r"\b(?:baulk|middle|top)_(?:left|right)\b")
#: References to the rules digest's cases ("(H1)", "(C40)", "(H3 default)", "(C17/C38)",
#: "(H9-H13, H19)"): the program's own bookkeeping, not words a person reads.
_DIGEST_REF = re.compile(r"\s*\((?:[HCD]\d{1,2}(?:\s*(?:[-/,]|and)\s*[HCD]?\d{1,2})*)(?: default)?\)")
#: Whole phrases of the referee's notes that name the program's workings, and their words.
_CODE_PHRASES = (
    (re.compile(r"nomination inferred from the first contact: (?:the )?(\w+)"),
     r"the \1 taken as the colour nominated (the first ball hit)"),
    (re.compile(r"touching colour (?:the )?(\w+) taken as declared"),
     r"the \1, touching the cue ball, taken as the colour nominated"),
    (re.compile(r"play-again request inferred \(no option input\)"),
     "taken as asked to play again (no choice was entered)"),
)
#: Any other machine name left in a text (``lip_drop``, ``own_spot``).
#: (Not a file name: nothing joined to it by "." or "/".)
_IDENTIFIER = re.compile(r"(?<![\w./])[a-z]+(?:_[a-z]+)+(?![\w./])")


def say(text: str) -> str:
    """Machine ids and code terms in a text turned into people's words: any ``red_NN``
    (with its article) becomes "a red", pocket ids their player's names, the notes that
    name the program's workings ("nomination inferred from the first contact: blue (H1
    default)") a referee's words ("the blue taken as the colour nominated (the first ball
    hit)"), references to the rules digest's cases ("(C40)") go, and any other
    ``machine_name`` loses its underscores. Everything else is left as it is."""
    text = _RED_ID.sub("a red", text)
    text = _POCKET_ID.sub(lambda m: POCKET_WORDS[m.group(0)], text)
    for pattern, words in _CODE_PHRASES:
        text = pattern.sub(words, text)
    text = _DIGEST_REF.sub("", text)
    return _IDENTIFIER.sub(lambda m: m.group(0).replace("_", " "), text)


#: The review note said when a ball taken as hit by the cue ball first stands where it stood
#: at the stroke's end (not hit: the cue ball passed it); :func:`is_not_hit_note` finds it.
NOT_HIT_NOTE = ("{ball} seemed to move as {hitter} passed it at {t:.2f} s, but stands where "
                "it stood: not taken as hit; check which ball the cue ball hit first")


def not_hit_note(ball: str, hitter: str, t: float) -> str:
    """:data:`NOT_HIT_NOTE` for ``ball`` passed by ``hitter`` at ``t`` s."""
    return NOT_HIT_NOTE.format(ball=the_ball(ball), hitter=the_ball(hitter), t=t)


def is_not_hit_note(note: str) -> bool:
    """Whether ``note`` is a :data:`NOT_HIT_NOTE`: the camera saw the ball stay put, a
    judgement from what it saw, not a doubt about what it saw."""
    return "but stands where it stood: not taken as hit" in note
