"""The scoreboard line a run ends with (and the live pages read as it goes): the score, the
strokes, the frames, the session's phase and how the source ended (see
:mod:`tracker.pipeline`)."""

from __future__ import annotations

from typing import Any


def scoreboard_line(run: Any) -> dict[str, Any]:
    """The scoreboard line of ``run`` (a :class:`tracker.pipeline.run.RefereeRun`) as it
    stands: score, strokes, frames, the session's phase, what named pool balls, the stretches
    not refereed, a live source's skipped frames and how the source ended (sets
    ``run.result.score``)."""
    st = run.match.state
    run.result.score = dict(zip(st.players, st.scores, strict=True)) if st else {}
    board: dict[str, Any] = {
        "scoreboard": True, "score": run.result.score, "frame_over": run.frame_over,
        "shots": len(run.result.shots), "frames": run.result.frames,
        "not_refereed_frames": run.result.not_refereed_frames}
    if run.match.frames_started > 1 or run.session.setup is not None \
            or run.session.wait:  # a session: the match as it stands
        phase = run.session.phase
        if run.frame_over:
            phase = "match over" if run.match.match_over else "between frames"
        board.update(state=phase, frames_won=dict(run.match.frames_won),
                     match_over=run.match.match_over, frame=st.frame if st else 0)
    if run.identity is not None:  # a pool game: what named the balls
        board["pool_balls_named_by"] = run.identity.source
    away = run.segments.away(run.source_fps)
    if away:
        board["not_refereed"] = [list(a) for a in away]
    res = run.result
    if res.skipped_frames or res.dropped_frames or res.gaps:
        board["live"] = {"skipped_frames": res.skipped_frames,
                         "startup_skipped": res.startup_skipped,
                         "skipped_while_moving": res.skipped_forced,
                         "dropped_frames": res.dropped_frames,
                         "gaps_s": [[round(a, 2), round(b, 2)] for a, b in res.gaps]}
    end = run.result.end
    if end is not None:
        board["video_end"] = end.reason
        if not end.clean:
            board["warning"] = end.message
    return board
