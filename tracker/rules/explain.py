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
    "in_hand": "play from in-hand",
    "spot_balls": "play from in-hand with the red and the other ball spotted",
    "in_hand_kitchen": "play with the cue ball in hand behind the head string",
    "pass": "have the player who pushed out shoot again",
    "rerack": "re-rack and break",
    "rerack_offender": "re-rack and have the breaker break again",
    "respot": "have the 8 spotted and play on",
    "rebreak": "re-rack and break again",
}


#: An operator input's kind as the call names it.
_INPUT_WORDS = {
    "option": "After the foul",
    "concede": "Concession",
    "claim": "Claim",
    "award_frame": "Frame awarded",
    "award_game": "Match awarded",
    "lots": "Lots",
    "striker": "Who is to strike",
    "stalemate": "Stalemate",
    "time": "Time",
}

#: Why a frame ended, in words.
_END_WORDS = {
    "points": "on points",
    "conceded": "conceded",
    "claimed": "claimed",
    "awarded": "awarded",
    "forfeit": "forfeited",
    "four_snookers": "more than four snookers needed",
    "three_failures": "a third failure to hit the ball on",
    "time": "the time limit",
    "nine_ball": "the 9 pocketed",
    "eight_ball": "the 8 pocketed",
    "eight_ball_lost": "the 8 lost",
    "three_fouls": "three fouls in a row",
}


def explain(res: dict[str, Any]) -> str:
    """One output line (decision, input result, frame start/end) in a referee's words."""
    if "frame_start" in res:
        text = f"Frame {res['frame_start']} ({res['ruleset']}): {res['breaker']} to break."
        return say(" ".join([text, *res.get("notes", [])]))
    if "frame_end" in res:
        return say(_frame_end(res))
    if "input" in res:
        head = res["message"] if res["accepted"] else f"(refused) {res['message']}"
        kind = _INPUT_WORDS.get(res["input"], str(res["input"]).replace("_", " ").capitalize())
        return say(" ".join([f"{kind}: {head}.", *res.get("notes", [])]))
    if "error" in res and "striker" not in res:  # the referee could not call the stroke
        return say(f"Shot {res['shot']}: NOT CALLED: {res['error']}. NEEDS REVIEW.")
    parts = [f"Shot {res['shot']} ({res.get('player') or res['striker']}):", *_call(res)]
    for r in res["respots"]:
        where = f" at ({r['position'][0]:.0f}, {r['position'][1]:.0f}) mm" if r["position"] else ""
        how = "put back" if r["how"] == "put_back" else f"re-spotted ({r['how'].replace('_', ' ')})"
        parts.append(f"The {r['ball']} is {how}{where}.")
    if res["free_ball"]:
        parts.append("FREE BALL.")
    if res["miss_warning"]:
        parts.append("WARNING: a further failure will award the frame to the opponent.")
    parts.extend(n if n.endswith(".") else n + "." for n in res["notes"])
    parts.extend(_next(res))
    score = " - ".join(f"{p} {s}" for p, s in res["score"].items())
    parts.append(f"Score: {score}.")
    if res["needs_review"]:
        parts.append("NEEDS REVIEW: " + "; ".join(res["needs_review"]) + ".")
    return say(" ".join(parts))


def _frame_end(res: dict[str, Any]) -> str:
    score = " - ".join(f"{p} {s}" for p, s in res["score"].items())
    won = f"to {res['winner']}" if res["winner"] else "drawn"
    reason = _END_WORDS.get(res["reason"], str(res["reason"]).replace("_", " "))
    text = f"Frame {res['frame_end']} {won} ({score}, {reason})."
    if res.get("aggregate"):
        text += " Aggregate: " + " - ".join(f"{p} {s}" for p, s in res["aggregate"].items()) + "."
    if res.get("match_over"):
        text += f" GAME AND MATCH, {res['match_winner']}."
    return text


def _call(res: dict[str, Any]) -> list[str]:
    """The call itself: foul and penalty, a billiards miss, or the points scored."""
    if res.get("replay"):
        out = ["REPLAY: all balls are replaced."]
        if res["foul"]:
            out.append(f"FOUL, {res['penalty']} away.")
        return out
    if res["foul"]:
        reasons = "; ".join(f["message"] for f in res["fouls"])
        if not res["penalty"]:  # pool: no points, the cue ball in hand instead
            return [f"FOUL. {reasons.capitalize()}."]
        opp = next(p for p, v in res["points"].items() if v)
        out = [f"FOUL, {res['penalty']} away. {reasons.capitalize()}."]
        if res["miss"]:
            out.append("FOUL AND A MISS.")
        return [*out, f"{res['penalty']} to {opp}."]
    if res["miss"] and res["penalty"]:
        opp = next(p for p, v in res["points"].items() if v)
        return [f"MISS, {res['penalty']} to {opp}."]
    pts = sum(res["points"].values())
    if not pts:  # pool pockets balls without points
        return [f"{potted_words(res['potted']).capitalize()} pocketed."] if res["potted"] \
            else ["No score."]
    what = ", ".join(f"{s['what']} {s['points']}" for s in res.get("scoring", [])) \
        or potted_words(res["potted"])
    return [f"{pts} ({what}), break {res['break']}."]


def _next(res: dict[str, Any]) -> list[str]:
    """Who plays next and how, or the end of the frame."""
    if res["frame_over"]:
        return [f"Frame over: {res['winner']} wins." if res["winner"] else "Frame over, drawn."]
    if res.get("draw_lots"):
        return ["Lots are drawn for who plays the re-spotted ball from in-hand."]
    who = res.get("next_player") or res["next_striker"]
    hand = " from in-hand" if res.get("cue_in_hand") else ""
    opts = ""
    if res["options"]:
        opts = " (options: " + ", ".join(_OPTION_WORDS.get(o, o) for o in res["options"]) + ")"
    return [f"{who} to play{hand}{opts}.", f"Ball on: {res['ball_on']}."]
