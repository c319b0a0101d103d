"""An outside check of the referee: pooltool's own snooker rules on the same strokes.

pooltool (the physics engine that plays our synthetic frames) ships a snooker ruleset. It is
incomplete (no free ball, miss, push or jump shot, ball off the table, touching ball, re-spotted
black) and has known bugs, so it is not our referee; but for the four basic fouls it does
implement (cue ball potted, no ball hit, wrong ball first, ball not on potted) it is an
independent opinion computed from the simulator's own event list, not from our shot record.
:func:`crosscheck_frames` plays bot frames, asks both, and explains every disagreement by the
rule that pooltool does not implement or reads differently.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tracker import balls as B
from tracker.rules.state import FrameState, Phase

#: pooltool's reasons, as our foul codes (``tracker.rules.fouls``) for the same foul.
POOLTOOL_REASONS = {
    "Cue ball in pocket!": "cue_ball_potted",
    "No ball contacted!": "no_contact",
    "First contact made with a ball that's not on!": "wrong_ball_first",
    "Pocketed a ball that's not on!": "pot_not_on",
}


@dataclass
class Disagreement:
    """One stroke where the two referees differ."""

    frame_seed: int
    shot: int
    ours: tuple[str, ...]
    pooltool: str
    explanation: str

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {"frame_seed": self.frame_seed, "shot": self.shot, "ours": list(self.ours),
                "pooltool": self.pooltool, "explanation": self.explanation}


@dataclass
class CrossCheck:
    """Agreement over all strokes checked."""

    strokes: int = 0
    agree: int = 0
    fouls_ours: int = 0
    fouls_pooltool: int = 0
    disagreements: list[Disagreement] = field(default_factory=list)


def on_balls(state: FrameState, nomination: str | None) -> tuple[tuple[str, ...], str | None]:
    """pooltool's ``hittable`` and ``ball_call`` for the state before a stroke."""
    if state.phase == Phase.RED:
        return tuple(sorted(b for b in state.on_table if B.is_red(b))), None
    if state.phase == Phase.COLOUR_CHOICE:
        colours = tuple(c for c in B.COLOURS if c in state.on_table)
        return colours, nomination if nomination in colours else (colours[0] if colours else None)
    if state.phase == Phase.SEQ and state.seq_colour:
        return (state.seq_colour,), None
    return ("black",), None


def pooltool_verdict(system: Any, state: FrameState, nomination: str | None) -> str:
    """pooltool's reason for calling the stroke a foul ("" when legal)."""
    from pooltool.ruleset.datatypes import BallInHandOptions, ShotConstraints
    from pooltool.ruleset.snooker.core import is_legal

    hittable, call = on_balls(state, nomination)
    cons = ShotConstraints(ball_in_hand=BallInHandOptions.NONE, movable=None, cueable=None,
                           hittable=hittable, call_shot=call is not None and len(hittable) > 1,
                           ball_call=call, pocket_call=None)
    legal, reason = is_legal(system, cons)
    return "" if legal else str(reason)


def explain(ours: tuple[str, ...], theirs: str, state: FrameState) -> str:
    """The rule behind a disagreement (empty when none is known: a bug to look at)."""
    theirs_code = POOLTOOL_REASONS.get(theirs, theirs)
    if state.free_ball:
        return ("free ball (C23): the nominated ball counts as the ball on; pooltool has no "
                "free ball")
    if state.phase == Phase.RESPOTTED_BLACK:
        return "re-spotted black (C48): pooltool has no tie-break"
    if ours and not theirs:
        missing = {"forced_off": "a ball forced off the table",
                   "push_stroke": "a push stroke", "jump_shot": "a jump shot",
                   "simultaneous_hit": "a simultaneous hit on a ball on and a ball not on",
                   "in_hand_outside_d": "the cue ball played from outside the D",
                   "ball_disturbed": "a ball moved without contact",
                   "moving_ball": "a stroke while a ball was still moving"}
        for code in ours:
            if code in missing:
                return f"{missing[code]}: not implemented by pooltool"
    if theirs_code == "pot_not_on" and not ours:
        return ("pooltool counts every pot of a ball not on as a foul even when the ball on was "
                "hit first and potted in the same stroke with a red (reds together are all on)")
    return ""


def crosscheck_frames(seeds: list[int], max_strokes: int = 60, progress: bool = False) -> CrossCheck:
    """Play one bot frame per seed and compare our calls with pooltool's on every stroke."""
    from tqdm import tqdm

    from tracker.synth.bot import Bot
    from tracker.synth.physics import Physics
    from tracker.synth.world import World

    physics = Physics()
    out = CrossCheck()
    for seed in tqdm(seeds, desc="cross-check", unit="frame", disable=not progress):
        world = World(("A", "B"), seed=seed, physics=physics, keep_systems=True)
        Bot(world, seed=seed).play_frame(max_strokes=max_strokes)
        for st in world.shots:
            if st.system is None or st.state_before is None:
                continue
            out.strokes += 1
            ours = tuple(f.code for f in st.decision.fouls)
            theirs = pooltool_verdict(st.system, st.state_before, st.shot.nomination)
            out.fouls_ours += bool(ours)
            out.fouls_pooltool += bool(theirs)
            theirs_code = POOLTOOL_REASONS.get(theirs, theirs)
            same = (not ours and not theirs) or (bool(ours) and theirs_code in ours) or (
                bool(ours) and bool(theirs) and not set(ours) & set(POOLTOOL_REASONS.values()))
            if same:
                out.agree += 1
                continue
            out.disagreements.append(Disagreement(seed, st.shot.shot, ours, theirs,
                                                  explain(ours, theirs, st.state_before)))
    return out
