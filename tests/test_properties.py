"""Property tests over random legal shot sequences (hypothesis).

A random "player" picks, stroke by stroke, one of: pot the ball on, play safe, miss everything,
hit a wrong ball first, go in-off, pot a ball not on; after a foul the incoming player plays
or asks for a replay. Each random frame is then re-read from its JSONL log and refereed again.
"""

from __future__ import annotations

import io
import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st_

from tracker import balls as B
from tracker.records.parse import record_from_dict, record_to_dict
from tracker.records.shot import Event, EventType, FrameStart, InputKind, OperatorInput, Shot
from tracker.rules.match import Match
from tracker.rules.registry import get_ruleset
from tracker.rules.state import FrameState, Phase

ACTIONS = ("pot", "pot", "pot", "safe", "miss", "wrong", "in_off", "pot_wrong")
MAX_RANDOM = 150  # random strokes, then the player clears the table


def ball_on(rules, st: FrameState) -> list[str]:
    if st.phase == Phase.RED:
        return rules.reds(st.on_table)
    if st.phase == Phase.COLOUR_CHOICE:
        return [c for c in B.COLOURS if c in st.on_table]
    if st.phase == Phase.SEQ:
        return [st.seq_colour]
    return ["black"]


def make_shot(n: int, rules, st: FrameState, action: str, k: int) -> Shot:
    on = ball_on(rules, st)
    not_on = sorted(b for b in st.on_table if b not in on)
    ev = [Event(EventType.STRIKE, 0.0, ("white",))]
    nomination = None
    target = on[k % len(on)]
    if st.phase == Phase.COLOUR_CHOICE:
        nomination = target
    if action == "miss":
        pass
    elif action == "wrong" and not_on:
        ev.append(Event(EventType.CONTACT, 0.5, ("white", not_on[k % len(not_on)])))
    else:
        ev.append(Event(EventType.CONTACT, 0.5, ("white", target)))
        if action == "pot":
            pots = [target]
            if st.phase == Phase.RED:
                pots = on[: 1 + k % min(3, len(on))]
            for i, b in enumerate(pots):
                ev.append(Event(EventType.POT, 1.0 + i / 10, (b,), pocket="top_left"))
        elif action == "in_off":
            ev.append(Event(EventType.POT, 1.5, ("white",), pocket="baulk_left"))
        elif action == "pot_wrong" and not_on:
            ev.append(Event(EventType.POT, 1.5, (not_on[k % len(not_on)],), pocket="top_right"))
    return Shot(shot=n, events=tuple(ev), nomination=nomination)


def play_frame(actions: list[tuple[str, int, bool]]) -> tuple[list[dict], list[dict]]:
    """Play a frame; returns the log records and the referee's outputs (as dicts)."""
    rules = get_ruleset("snooker")
    m = Match()
    log: list[dict] = []

    def feed(rec):
        log.append(record_to_dict(rec))
        return m.feed(rec)

    feed(FrameStart(1, ("A", "B"), breaker="A"))
    n = 0
    while not m.state.frame_over and n < MAX_RANDOM + 200:
        n += 1
        if n <= len(actions) and n <= MAX_RANDOM:
            action, k, again = actions[n - 1]
        else:
            action, k, again = "pot", 0, False
        before = m.state
        out = feed(make_shot(n, rules, m.state, action, k))
        dec = out[0]
        assert min(dec["score"].values()) >= min(before.scores)
        assert all(dec["score"][p] >= s for p, s in zip(before.players, before.scores, strict=True))
        if dec["foul"] and not m.state.frame_over and again:
            feed(OperatorInput(InputKind.OPTION, choice="play_again"))
        check_invariants(rules, m.state, log)
    assert m.state.frame_over, "the frame did not end"
    return log, m.history


def check_invariants(rules, st: FrameState, log: list[dict]) -> None:
    reds_on = len(rules.reds(st.on_table))
    reds_gone = set()
    for rec in log:
        for e in rec.get("events", []):
            if e["type"] in ("pot", "off_table") and B.is_red(e.get("ball", "")):
                reds_gone.add(e["ball"])
    # the generic "red" is never used here, so each red leaves once
    assert reds_on + len(reds_gone) == 15
    if st.frame_over or st.phase == Phase.RESPOTTED_BLACK:
        return
    colours = sum(B.VALUES[c] for c in B.COLOURS if c in st.on_table)
    expected = {Phase.RED: 8 * reds_on + colours, Phase.COLOUR_CHOICE: 8 * reds_on + colours + 7,
                Phase.SEQ: colours}[st.phase]
    assert rules.points_remaining(st) == expected
    if st.phase == Phase.SEQ:
        assert st.seq_colour == next(c for c in B.COLOURS if c in st.on_table)
    if st.phase == Phase.RED:
        assert reds_on > 0
        assert set(B.COLOURS) <= st.on_table  # colours are all re-spotted while reds remain


def replay(log: list[dict]) -> list[dict]:
    text = "\n".join(json.dumps(r) for r in log)
    m = Match()
    out = []
    for line in io.StringIO(text):
        out.extend(m.feed(record_from_dict(json.loads(line))))
    return out


action_lists = st_.lists(
    st_.tuples(st_.sampled_from(ACTIONS), st_.integers(0, 20), st_.booleans()),
    min_size=0, max_size=MAX_RANDOM,
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(action_lists)
def test_random_frames_keep_the_invariants_and_end(actions):
    play_frame(actions)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(action_lists)
def test_replaying_a_log_gives_the_same_decisions(actions):
    log, live = play_frame(actions)
    replayed = replay(log)
    assert replayed == live
    assert any("frame_end" in r for r in replayed)
