"""Turn the referee's output lines into the words a referee says at the table."""

from __future__ import annotations

from typing import Any

from tracker.words import potted_words, say

_OPTION_WORDS = {
    "play": "play",
    "play_again": "ask the offender to play again",
    "replace": "have the balls replaced",
    "ball_anywhere": "place the cue ball anywhere",
    "ball_in_hand": "play with the cue ball in hand",
}


def explain(res: dict[str, Any]) -> str:
    """One output line (decision, input result, frame start/end) in a referee's words."""
    if "frame_start" in res:
        text = f"Frame {res['frame_start']} ({res['ruleset']}): {res['breaker']} to break."
        return say(" ".join([text, *res.get("notes", [])]))
    if "frame_end" in res:
        score = " - ".join(f"{p} {s}" for p, s in res["score"].items())
        text = f"Frame {res['frame_end']} to {res['winner']} ({score}, {res['reason']})."
        if res.get("match_over"):
            text += f" GAME AND MATCH, {res['match_winner']}."
        return text
    if "input" in res:
        head = res["message"] if res["accepted"] else f"(refused) {res['message']}"
        return say(" ".join([f"[{res['input']}] {head}.", *res.get("notes", [])]))
    parts: list[str] = [f"Shot {res['shot']} ({res['striker']}):"]
    if res["foul"]:
        reasons = "; ".join(f["message"] for f in res["fouls"])
        opp = next(p for p, v in res["points"].items() if v)
        parts.append(f"FOUL, {res['penalty']} away. {reasons.capitalize()}.")
        if res["miss"]:
            parts.append("FOUL AND A MISS.")
        parts.append(f"{res['penalty']} to {opp}.")
    else:
        pts = sum(res["points"].values())
        if pts:
            parts.append(f"{pts} ({potted_words(res['potted'])}), break {res['break']}.")
        else:
            parts.append("No score.")
    for r in res["respots"]:
        where = f" at ({r['position'][0]:.0f}, {r['position'][1]:.0f}) mm" if r["position"] else ""
        how = "put back" if r["how"] == "put_back" else f"re-spotted ({r['how'].replace('_', ' ')})"
        parts.append(f"The {r['ball']} is {how}{where}.")
    if res["free_ball"]:
        parts.append("FREE BALL.")
    if res["miss_warning"]:
        parts.append("WARNING: a further failure will award the frame to the opponent.")
    parts.extend(n if n.endswith(".") else n + "." for n in res["notes"])
    if res["frame_over"]:
        parts.append(f"Frame over: {res['winner']} wins.")
    else:
        if res["options"]:
            opts = ", ".join(_OPTION_WORDS.get(o, o) for o in res["options"])
            parts.append(f"{res['next_striker']} to play (options: {opts}).")
        else:
            parts.append(f"{res['next_striker']} to play.")
        parts.append(f"Ball on: {res['ball_on']}.")
    score = " - ".join(f"{p} {s}" for p, s in res["score"].items())
    parts.append(f"Score: {score}.")
    if res["needs_review"]:
        parts.append("NEEDS REVIEW: " + "; ".join(res["needs_review"]) + ".")
    return say(" ".join(parts))
