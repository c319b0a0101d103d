"""What a referee run does when the picture leaves the table and comes back.

Broadcast video cuts away from the main camera (a close-up of the player, the crowd, a
replay from another angle) and back; a hall camera can be knocked. The view monitor
(:mod:`calibration.monitor`) says which frames show the table; this module keeps the
record of the stretches that were not refereed (:class:`ViewSegments`), words the review
notes of a stroke the picture left before it ended, and says what the log says about a
frame started from the table as seen (:func:`observed_start_note`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tracker import balls as B
from tracker.words import balls_words


@dataclass
class ViewSegments:
    """Runs of consecutive frames refereed or not: [first index, last index, refereed]."""

    runs: list[list] = field(default_factory=list)

    def add(self, index: int, refereed: bool) -> bool:
        """Record frame ``index``; True when it starts a new run (the view left or came
        back). Frames not looked at between two of the same verdict (live frames skipped to
        keep up or let go while the table was idle) are of the same run."""
        if self.runs and self.runs[-1][2] == refereed and index > self.runs[-1][1]:
            self.runs[-1][1] = index
            return False
        self.runs.append([index, index, refereed])
        return len(self.runs) > 1

    def skip(self, first: int, last: int) -> None:
        """Record frames ``first`` .. ``last`` as not refereed (read before a table was
        found)."""
        self.runs.append([first, last, False])

    def away(self, fps: float) -> list[tuple[float, float]]:
        """The stretches not refereed, as (start, end) seconds."""
        return [(round(a / fps, 2), round((b + 1) / fps, 2)) for a, b, ok in self.runs if not ok]


def cut_note(t: float) -> str:
    """The review note of a stroke the picture cut away from at ``t`` (s) before every ball
    was at rest."""
    return (f"the picture left the table at {t:.2f} s before every ball was at rest: the stroke "
            "is called on what was seen until then; a pot or a foul after that was not seen. Check")


def end_note(t: float) -> str:
    """The review note of a stroke still running when the video ended at ``t`` (s)."""
    return (f"the video ended at {t:.2f} s before every ball was at rest: the stroke is called on "
            "what was seen; check")


def back_note(t0: float, t1: float) -> str:
    """The review note for the stroke after a stretch not refereed, from ``t0`` to ``t1`` s."""
    return (f"the picture was away from the table from {t0:.2f} s to {t1:.2f} s: balls moved or "
            "potted meanwhile were not seen. Check")


def observed_start_note(positions: dict[str, tuple[float, float]], spots: dict[str, tuple[float, float]],
                        tol_mm: float) -> str:
    """What the log says of a frame started from the table as seen (the video starts
    mid-frame): how many reds, which colours, which of them off their spots."""
    reds = sum(1 for b in positions if B.is_red(b))
    colours = [b for b in B.COLOURS if b in positions]
    off = [b for b in colours if b in spots and ((positions[b][0] - spots[b][0]) ** 2 +
                                                 (positions[b][1] - spots[b][1]) ** 2) ** 0.5 > tol_mm]
    missing = [b for b in B.COLOURS if b not in positions]
    parts = [f"{reds} red{'s' if reds != 1 else ''}"]
    parts.append(f"colours {balls_words(colours)}" if colours else "no colours")
    if off:
        parts.append(f"{balls_words(off)} off {'its spot' if len(off) == 1 else 'their spots'}")
    if missing:
        parts.append(f"{balls_words(missing)} not seen")
    if B.WHITE not in positions:
        parts.append("the cue ball not seen")
    return ("the video starts mid-frame: the frame is taken up from the table as seen (" +
            "; ".join(parts) + "); who is to play and which ball is on are not known from the "
            "picture (a red is taken to be on while reds remain): check the first calls")
