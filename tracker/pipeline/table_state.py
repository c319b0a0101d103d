"""The referee's reds follow the table the camera sees (issue 31: one wrong call must not make
every later call wrong).

The referee's state (:class:`tracker.rules.state.FrameState`) learns which balls left the
table only from the stroke records. When one of them was lost (a record refused, a pot dropped
as inconsistent) or wrong, the state and the table part: a red the referee still has on the
table that the camera saw potted, or a red the referee has potted that the camera sees standing
at the strike. Reds are never put back by the referee, so the camera's record at the next
strike says which reds are on the table: the state follows it, and the stroke's record says so
for review. Colours are re-spotted (the rules decide where, and call it a foul when one is
missing), and the ball-on sequence of the colours is the referee's: neither is changed here.
"""

from __future__ import annotations

from dataclasses import replace

from tracker.rules.state import FrameState, Phase
from tracker.words import balls_words


def follow_the_table(state: FrameState, positions: dict | None) -> tuple[FrameState, list[str]]:
    """``state`` with its reds on the table those of ``positions`` (ball id -> mm: the
    camera's record at the strike), and the review notes saying what changed; ``state``
    itself (no notes) when they agree, when positions are not known, when the reds are done
    (the colours in sequence), or when no red would be left (the end of the reds is the
    rules' to call); snooker's reds only (ids ``red_NN``)."""
    if (positions is None or state.phase not in (Phase.RED, Phase.COLOUR_CHOICE)
            or not state.ruleset.startswith("snooker")):
        return state, []
    referee = {b for b in state.on_table if b.startswith("red_")}
    camera = {b for b in positions if b.startswith("red_")}
    back, gone = sorted(camera - referee), sorted(referee - camera)
    if not (back or gone) or not camera or not referee:
        return state, []
    notes = []
    if gone:
        notes.append(f"the camera does not see {balls_words(gone)} that the referee still had on "
                     "the table (its pot was not called): taken as off the table; check the "
                     "earlier call")
    if back:
        notes.append(f"the camera sees {balls_words(back)} on the table that the referee had "
                     "potted: taken as on the table; check the earlier call")
    return replace(state, on_table=(state.on_table - set(gone)) | set(back)), notes
