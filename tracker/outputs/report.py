"""The match report: one HTML file per run, with plots, from a match store.

``snooker-tracker report STORE_OR_OUTDIR --out report.html`` writes a self-contained page (the
plots are PNG embedded as base64; matplotlib with the Agg backend): the match (players, frames
won, each frame's result), then per frame: score progression, breaks, pots by colour and
pocket, where the cue ball stood before each stroke (heat map), a shot map (cue ball to the
first ball hit, coloured by the call), and every stroke's call with its review notes.
The statistics (:mod:`tracker.stats`: pot success, safeties, fouls, shot time, points per
visit, breaks) are given over the match and per frame. A break counts every visit that
scored, one that ends in a foul too (its points before the foul).
Pockets are named as a player at the baulk end does (:mod:`tracker.words`).
"""

from __future__ import annotations

import base64
import io
from dataclasses import dataclass, field
from html import escape
from pathlib import Path
from typing import Any

import numpy as np

from calibration.table import TableGeometry
from tracker import balls as B
from tracker.outputs.highbreaks import clips_section
from tracker.outputs.store import MatchStore
from tracker.server.diagram import BALL_FILL
from tracker.stats import MatchStats, PlayerStats, Visit, match_stats, split_by_match
from tracker.words import POCKET_WORDS, VIEWPOINT, ball_words, capital, pocket_words, say

#: Plot size, inches, and resolution.
FIG_W, FIG_H, DPI = 7.0, 3.4, 110
#: Heat-map cells along the table's length and width.
HEAT_BINS = (24, 12)
#: Colours of the two players' lines and bars.
PLAYER_COLOURS = ("#1f6fd1", "#d1541f")
#: Shot map: the arrows' colours by call, and the legend's background and text (dark, so
#: that the light "no score" arrow shows in it as it does on the cloth).
SHOT_COLOURS = {"scored": "#33cc33", "no score": "#e6e6e6", "foul": "#ee3333"}
LEGEND_FACE, LEGEND_TEXT = "#262626", "#ffffff"


@dataclass
class FrameData:
    """One snooker frame of a run, gathered for the report."""

    number: int
    players: list[str]
    shots: list[dict[str, Any]] = field(default_factory=list)
    events: list[dict[str, Any]] = field(default_factory=list)
    result: dict[str, Any] | None = None
    table: TableGeometry = field(default_factory=TableGeometry.standard)
    visits: list[Visit] = field(default_factory=list)
    stats: dict[str, PlayerStats] = field(default_factory=dict)

    def score_progression(self) -> dict[str, list[int]]:
        """Each player's score after each stroke (starting at 0)."""
        out = {p: [0] for p in self.players}
        for s in self.shots:
            score = (s["decision"] or {}).get("score") or {}
            for p in self.players:
                out[p].append(score.get(p, out[p][-1]))
        return out

    def breaks(self) -> list[tuple[str, int]]:
        """(player, points) of every scoring visit, in order; a visit that ends in a foul
        keeps the points it scored before it (:func:`tracker.stats.visits_of`)."""
        return [(v.player, v.points) for v in self.visits if v.points > 0]

    def score(self) -> dict[str, int]:
        """Each player's score in the frame: its result, or after its last stroke."""
        if self.result and self.result.get("score"):
            return dict(self.result["score"])
        last = (self.shots[-1]["decision"] or {}).get("score", {}) if self.shots else {}
        return {p: int(last.get(p, 0)) for p in self.players}

    def pots(self) -> list[tuple[str, str]]:
        """(ball kind, pocket id) of every ball potted."""
        return [(B.kind(e["balls"][0]), e["pocket"]) for e in self.events
                if e["type"] == "pot" and e["balls"] and e["pocket"]]

    def cue_positions(self) -> np.ndarray:
        """The cue ball's position before each stroke, (N, 2) mm."""
        pts = [s["record"].get("positions_before", {}).get(B.WHITE) for s in self.shots]
        return np.array([p for p in pts if p], float).reshape(-1, 2)


def _png(fig) -> str:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=DPI, bbox_inches="tight")
    import matplotlib.pyplot as plt

    plt.close(fig)
    return base64.b64encode(buf.getvalue()).decode()


def _plt():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _table_axes(ax, t: TableGeometry) -> None:
    """A landscape table (baulk on the left) on ``ax``: x = table y, y = table x (down)."""
    from matplotlib.patches import Arc, Circle, Rectangle

    ax.add_patch(Rectangle((0, 0), t.length, t.width, color="#1f7a3a", zorder=0))
    ax.plot([t.baulk_line] * 2, [0, t.width], color="#dfe", lw=0.8, zorder=1)
    ax.add_patch(Arc((t.baulk_line, t.centre_x), 2 * t.d_radius, 2 * t.d_radius, theta1=90,
                     theta2=270, color="#dfe", lw=0.8, zorder=1))
    for p in t.pockets.values():
        x, y = p.mouth_centre
        ax.add_patch(Circle((y, x), 60, color="#111", zorder=1))
    ax.set_xlim(-80, t.length + 80)
    ax.set_ylim(t.width + 80, -80)
    ax.set_aspect("equal")
    ax.set_xticks([])
    ax.set_yticks([])
    ax.set_facecolor("#5a3a1e")


def plot_scores(fr: FrameData) -> str:
    """Score progression, stroke by stroke."""
    plt = _plt()
    fig, ax = plt.subplots(figsize=(FIG_W, FIG_H))
    for (p, pts), c in zip(fr.score_progression().items(), PLAYER_COLOURS, strict=False):
        ax.step(range(len(pts)), pts, where="post", label=p, color=c, lw=2)
    ax.set_xlabel("stroke")
    ax.set_ylabel("points")
    ax.set_title(f"Frame {fr.number}: score")
    ax.grid(alpha=0.3)
    ax.legend()
    return _png(fig)


def plot_breaks(fr: FrameData) -> str:
    """Every scoring visit's break, by player."""
    plt = _plt()
    fig, ax = plt.subplots(figsize=(FIG_W, FIG_H))
    brk = fr.breaks()
    colours = {p: c for p, c in zip(fr.players, PLAYER_COLOURS, strict=False)}
    ax.bar(range(1, len(brk) + 1), [b for _, b in brk], color=[colours.get(p, "#888") for p, _ in brk])
    from matplotlib.patches import Patch
    from matplotlib.ticker import MaxNLocator

    ax.legend(handles=[Patch(color=colours[p], label=p) for p in colours])
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("scoring visit")
    ax.set_ylabel("break")
    ax.set_title(f"Frame {fr.number}: breaks" + ("" if brk else " (none)"))
    ax.grid(alpha=0.3, axis="y")
    return _png(fig)


def plot_pots(fr: FrameData) -> str:
    """Balls potted per pocket, stacked by colour."""
    plt = _plt()
    fig, ax = plt.subplots(figsize=(FIG_W, FIG_H))
    pockets = list(POCKET_WORDS)
    kinds = ["red", *B.COLOURS, "white"]
    pots = fr.pots()
    bottom = np.zeros(len(pockets))
    for k in kinds:
        n = np.array([sum(1 for kk, p in pots if kk == k and p == pk) for pk in pockets], float)
        if n.any():
            ax.bar([pocket_words(p) for p in pockets], n, bottom=bottom, color=BALL_FILL[k],
                   edgecolor="#333", label="cue ball (in-off)" if k == "white" else k)
            bottom += n
    from matplotlib.ticker import MaxNLocator

    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_ylabel("balls potted")
    ax.set_title(f"Frame {fr.number}: pots by pocket ({VIEWPOINT})" + ("" if pots else ": none"))
    if pots:
        ax.legend(fontsize=8)
    ax.tick_params(axis="x", labelsize=8)
    return _png(fig)


def plot_heat(fr: FrameData) -> str:
    """Where the cue ball stood before each stroke."""
    plt = _plt()
    fig, ax = plt.subplots(figsize=(FIG_W, FIG_H))
    t = fr.table
    _table_axes(ax, t)
    pts = fr.cue_positions()
    if len(pts):
        h, xe, ye = np.histogram2d(pts[:, 1], pts[:, 0], bins=HEAT_BINS,
                                   range=[[0, t.length], [0, t.width]])
        h = np.ma.masked_equal(h.T, 0)
        m = ax.pcolormesh(xe, ye, h, cmap="magma", alpha=0.85, zorder=2, vmin=0,
                          vmax=max(1, int(h.max())))
        from matplotlib.ticker import MaxNLocator

        fig.colorbar(m, ax=ax, label="strokes", shrink=0.8, ticks=MaxNLocator(integer=True))
        ax.scatter(pts[:, 1], pts[:, 0], s=10, c="white", edgecolors="black", zorder=3)
    ax.set_title(f"Frame {fr.number}: cue ball before each stroke (baulk on the left)")
    return _png(fig)


def plot_shot_map(fr: FrameData) -> str:
    """Each stroke as an arrow from the cue ball to the first ball it hit."""
    return _png(shot_map_figure(fr))


def shot_map_figure(fr: FrameData):
    """The shot map's matplotlib figure (see :func:`plot_shot_map`)."""
    plt = _plt()
    fig, ax = plt.subplots(figsize=(FIG_W, FIG_H))
    _table_axes(ax, fr.table)
    by_seq: dict[int, list[dict]] = {}
    for e in fr.events:
        by_seq.setdefault(e["seq"], []).append(e)
    for s in fr.shots:
        before = s["record"].get("positions_before") or {}
        d = s["decision"] or {}
        first = next((e for e in by_seq.get(s["seq"], []) if e["type"] == "contact"
                      and B.WHITE in e["balls"]), None)
        w = before.get(B.WHITE)
        if w is None or first is None:
            continue
        other = next((b for b in first["balls"] if b != B.WHITE), None)
        if other not in before:
            continue
        o = before[other]
        call = "foul" if d.get("foul") else ("scored" if sum(d.get("points", {}).values())
                                             else "no score")
        colour = SHOT_COLOURS[call]
        ax.annotate("", xy=(o[1], o[0]), xytext=(w[1], w[0]),
                    arrowprops={"arrowstyle": "->", "color": colour, "lw": 1.6}, zorder=3)
        ax.text(w[1], w[0], str(s["shot"]), color="white", fontsize=7, zorder=4)
    for label, colour in SHOT_COLOURS.items():
        ax.plot([], [], color=colour, label=label, lw=2)
    ax.legend(fontsize=7, loc="upper right", facecolor=LEGEND_FACE, edgecolor=LEGEND_FACE,
              labelcolor=LEGEND_TEXT, framealpha=0.9)
    ax.set_title(f"Frame {fr.number}: shot map (cue ball → first ball hit)")
    return fig


def gather(store: MatchStore, run_id: int | None = None, match: int | None = None
           ) -> tuple[dict[str, Any], list[FrameData]]:
    """The run (latest by default) and the frames of its match ``match`` (default: its
    current match), ready to plot."""
    run, frames, _ = gather_with_stats(store, run_id, match)
    return run, frames


def _run_of(store: MatchStore, run_id: int | None) -> dict[str, Any]:
    run = store.run(run_id) if run_id is not None else store.latest_run()
    if run is None:
        from tracker.outputs.store import StoreError

        raise StoreError(f"{store.path}: the store holds no run yet")
    return run


def gather_with_stats(store: MatchStore, run_id: int | None = None, match: int | None = None
                      ) -> tuple[dict[str, Any], list[FrameData], MatchStats]:
    """:func:`gather` and the match's statistics (each frame's visits and figures filled
    in); the run's ``players`` are the match's."""
    run = _run_of(store, run_id)
    matches = store.matches(run["id"])
    if match is None:
        match = matches[-1]["match"] if matches else 1
    this = next((m for m in matches if m["match"] == match), None)
    if this is not None and this["players"]:
        run = {**run, "players": this["players"]}
    table = TableGeometry.standard()
    cal = run.get("calibration") or {}
    if "table" in cal:
        t = cal["table"]
        table = TableGeometry.of_size(t["length"], t["width"], t.get("ball_diameter", 52.5))
    players = run.get("players") or []
    frames = {f["number"]: FrameData(f["number"], list(players), result=f, table=table)
              for f in store.frames(run["id"], match)}
    for s in store.shots(run["id"]):
        if (s["match"] or 1) != match:
            continue
        frames.setdefault(s["frame"] or 1, FrameData(s["frame"] or 1, list(players),
                                                     table=table)).shots.append(s)
    for e in store.events(run["id"]):
        if e["frame"] in frames and (e["match"] or 1) == match:
            frames[e["frame"]].events.append(e)
    for fr in frames.values():
        if fr.shots and not fr.players:
            fr.players = list((fr.shots[0]["decision"] or {}).get("score", {}))
    pieces = split_by_match(store.log(run["id"]),
                            [d["decision"] for d in store.decisions(run["id"])])
    log, calls = pieces[match - 1] if match <= len(pieces) else ([], [])
    stats = match_stats(log, calls)
    for fr in frames.values():
        fr.visits = [v for v in stats.visits if v.frame == fr.number]
        fr.stats = dict(stats.per_frame.get(fr.number, {}))
    return run, [frames[k] for k in sorted(frames)], stats


_CSS = """body{font-family:system-ui,sans-serif;max-width:1000px;margin:1rem auto;padding:0 1rem;
color:#222}h1{font-size:1.6rem}h2{border-bottom:2px solid #1f7a3a;padding-bottom:.2rem}
img{max-width:100%}.grid{display:grid;grid-template-columns:1fr 1fr;gap:.5rem}
table{border-collapse:collapse;width:100%;font-size:.88rem}td,th{border-bottom:1px solid #ddd;
padding:.3rem;vertical-align:top;text-align:left}.foul{color:#b00}.rev{background:#fff1d6}
.muted{color:#666}.lead{font-size:1.1rem;font-weight:600}
.stats th{width:34%}.stats td{font-variant-numeric:tabular-nums}"""


def score_words(players: list[str], score: dict[str, int]) -> str:
    """A score as a scoreboard shows it: "Ann 5 – 6 Bob" (more players: "A 1 – B 2 – C 3")."""
    if len(players) == 2:
        a, b = players
        return f"{a} {score.get(a, 0)} – {score.get(b, 0)} {b}"
    return " – ".join(f"{p} {score.get(p, 0)}" for p in players)


def _clock(t: float | None) -> str:
    """Seconds of video as m:ss."""
    if t is None:
        return "?"
    return f"{int(t // 60)}:{int(t % 60):02d}"


def _n(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")


def _of(n: int, d: int, ratio: float | None) -> str:
    return f"{n} of {d} ({ratio:.0%})" if ratio is not None else "none attempted"


#: The statistics table's rows: the heading and how one player's figures read.
STAT_ROWS: tuple[tuple[str, Any], ...] = (
    ("Pots (of pot attempts)", lambda s: _of(s.pots, s.pots + s.missed_pots, s.pot_success)),
    ("Long pots", lambda s: _of(s.long_pots, s.long_pots + s.long_missed_pots,
                                s.long_pot_success)),
    ("Safeties (inferred)", lambda s: str(s.safeties)),
    ("Fouls (points given away)", lambda s: f"{s.fouls} ({s.points_given_away})"),
    ("Points per visit", lambda s: f"{s.points_per_visit:.1f} ({s.points_scored} in "
                                   f"{_n(s.visits, 'visit')})" if s.points_per_visit is not None else "–"),
    ("Average shot time", lambda s: f"{s.average_shot_time_s:.1f} s ({_n(s.timed_strokes, 'stroke')})"
                                    if s.average_shot_time_s is not None else "–"),
    ("Breaks of 20+ · 50+ · 100+", lambda s: " · ".join(str(n) for n in s.breaks_at_least.values())),
    ("Highest break", lambda s: str(s.highest_break)),
)

_STATS_NOTE = ("Safeties and missed pots are inferred, not seen: a stroke that scores nothing is "
               "a missed pot when the first ball hit went towards a pocket and most of the way "
               "there, otherwise a safety. A long pot: the object ball a third of the table's "
               "length or more from the pocket, the cue ball a quarter or more from the ball it "
               "hits. A break that ends in a foul keeps the points scored before it.")


def stats_table(players: list[str], stats: dict[str, PlayerStats]) -> str:
    """The statistics as an HTML table: a row per figure, a column per player."""
    cols = [p for p in players if p in stats]
    rows = ["<table class='stats'><tr><th></th>", *(f"<th>{escape(p)}</th>" for p in cols),
            "</tr>"]
    for head, fn in STAT_ROWS:
        rows.append(f"<tr><th>{head}</th>" + "".join(f"<td>{escape(fn(stats[p]))}</td>"
                                                     for p in cols) + "</tr>")
    return "".join(rows) + "</table>"


def breaks_table(visits: list[Visit]) -> str:
    """A frame's breaks: who, points, the balls in them, the strokes, when, how it ended."""
    brk = [v for v in visits if v.points > 0]
    if not brk:
        return "<p class='muted'>No break.</p>"
    rows = ["<table><tr><th>Player</th><th>Break</th><th>Balls</th><th>Strokes</th>"
            "<th>Video time</th><th>Ended</th></tr>"]
    for v in brk:
        shots = f"{v.shots[0]}–{v.shots[-1]}" if len(v.shots) > 1 else str(v.shots[0])
        rows.append(f"<tr><td>{escape(v.player)}</td><td>{v.points}</td>"
                    f"<td>{escape(', '.join(ball_words(b) for b in v.balls))}</td><td>{shots}</td>"
                    f"<td>{_clock(v.t_start)}–{_clock(v.t_end)}</td><td>{escape(v.ended)}</td></tr>")
    return "".join(rows) + "</table>"


def _title(players: list[str], frames: list[FrameData], stats: MatchStats) -> tuple[str, str]:
    """The report's heading (the last frame's score) and the line under it (frames won)."""
    won = score_words(players, {p: stats.frames_won.get(p, 0) for p in players})
    lead = f"Frames won: {won} · best of {stats.best_of}"
    if stats.winner:
        lead += f" · {stats.winner} wins the match"
    if not frames:
        return " v ".join(players) or "no frame played", lead
    last = frames[-1]
    winner = (last.result or {}).get("winner")
    state = f"won by {winner}" if winner else ("over" if (last.result or {}).get("end_seq")
                                               else "in play")
    return f"{score_words(players, last.score())} (frame {last.number}, {state})", lead


def render(store: MatchStore, run_id: int | None = None, link_from: Path | None = None) -> str:
    """The report's HTML; its links to the high breaks' clips are relative to ``link_from``
    (the folder the report is written in; default: the store's). A run of several matches
    (a table's day) lists them, then each match's frames in turn."""
    run = _run_of(store, run_id)
    matches = store.matches(run["id"]) or [{"match": 1}]
    gathered = [gather_with_stats(store, run["id"], m["match"]) for m in matches]
    _, frames, stats = gathered[-1]
    players = list(gathered[-1][0].get("players") or (frames[0].players if frames else []))
    head, lead = _title(players, frames, stats)
    parts = [f"<!doctype html><html lang='en'><head><meta charset='utf-8'><title>Match report: "
             f"{escape(head)}</title><style>{_CSS}</style></head><body>"
             f"<h1>Match report: {escape(head)}</h1><p class='lead'>{escape(lead)}</p>",
             f"<p class='muted'>Video {escape(str(run['video']))} · run {run['id']} · started "
             f"{escape(run['started'])} · {escape(run['status'])} · frames are snooker frames; "
             f"pockets named {VIEWPOINT}.</p>"]
    if len(matches) > 1:
        parts.append(matches_table(matches))
    for m, (mrun, mframes, mstats) in zip(matches, gathered, strict=True):
        mplayers = list(mrun.get("players") or (mframes[0].players if mframes else []))
        if len(matches) > 1:
            parts.append(f"<h2 id='match-{m['match']}'>Match {m['match']}: "
                         f"{escape(' v '.join(mplayers))}</h2>")
        parts += _match_parts(mplayers, mframes, mstats, f"m{m['match']}-"
                              if len(matches) > 1 else "")
    parts.append(clips_section(store, run["id"], link_from or store.path.parent))
    parts.append("</body></html>")
    return "".join(parts)


def matches_table(matches: list[dict[str, Any]]) -> str:
    """The run's matches, one row each: players, frames won, the winner."""
    rows = ["<table><tr><th>Match</th><th>Players</th><th>Frames won</th><th>Winner</th></tr>"]
    for m in matches:
        won = score_words(m["players"], m["frames_won"])
        winner = m["winner"] or ("no winner" if m["over"] else "not finished")
        rows.append(f"<tr><td><a href='#match-{m['match']}'>{m['match']}</a></td>"
                    f"<td>{escape(' v '.join(m['players']))}</td><td>{escape(won)}</td>"
                    f"<td>{escape(winner)}</td></tr>")
    return "".join(rows) + "</table>"


def _match_parts(players: list[str], frames: list[FrameData], stats: MatchStats,
                 anchor: str) -> list[str]:
    """One match's part of the report: its frames table, statistics and each frame's
    plots and strokes (``anchor``: the prefix of the frames' ids, unique in the page)."""
    parts = []
    if not frames:
        parts.append("<p>No frame was played in this run.</p>")
    parts.append("<table><tr><th>Frame</th><th>Winner</th><th>Score</th><th>Strokes</th>"
                 "<th>Fouls</th><th>Highest break</th></tr>")
    for fr in frames:
        best = max(fr.visits, key=lambda v: v.points, default=None)
        brk = f"{best.points} ({best.player})" if best and best.points else "0"
        parts.append(f"<tr><td>{fr.number}</td><td>{escape(str((fr.result or {}).get('winner') or 'not finished'))}"
                     f"</td><td>{escape(score_words(players, fr.score()))}</td>"
                     f"<td>{len(fr.shots)}</td><td>{sum(1 for s in fr.shots if s['foul'])}</td>"
                     f"<td>{escape(brk)}</td></tr>")
    parts.append("</table>")
    if stats.strokes:
        parts.append(f"<h2 id='{anchor}statistics'>Statistics: the match</h2>"
                     f"{stats_table(players, dict(stats.match))}"
                     f"<p class='muted'>{_STATS_NOTE}</p>")
    for fr in frames:
        parts += _frame_parts(players, fr, anchor)
    return parts


def _frame_parts(players: list[str], fr: FrameData, anchor: str) -> list[str]:
    """One frame's part: its plots, breaks, statistics and strokes."""
    parts = [f"<h2 id='{anchor}frame-{fr.number}'>Frame {fr.number}: "
             f"{escape(score_words(players, fr.score()))}</h2><div class='grid'>"]
    for name, fn in (("score progression", plot_scores), ("breaks", plot_breaks),
                     ("pots by colour and pocket", plot_pots),
                     ("cue-ball positions", plot_heat), ("shot map", plot_shot_map)):
        parts.append(f"<img alt='{name}' src='data:image/png;base64,{fn(fr)}'>")
    parts.append(f"</div><h3>Breaks</h3>{breaks_table(fr.visits)}")
    if fr.stats and fr.shots:
        parts.append(f"<h3>Statistics</h3>{stats_table(players, fr.stats)}")
    parts.append("<h3>Strokes</h3><table><tr><th>#</th><th>Striker</th><th>Call</th></tr>")
    for s in fr.shots:
        notes = "".join(f"<br><b>Review:</b> {escape(capital(say(n)))}" for n in s["needs_review"])
        notes += _correction_note(s.get("decision") or {})
        cls = " class='rev'" if notes else (" class='foul'" if s["foul"] else "")
        parts.append(f"<tr{cls}><td>{s['shot']}</td><td>{escape(str(s['striker']))}</td>"
                     f"<td>{escape(s['text'] or '')}{notes}</td></tr>")
    parts.append("</table>")
    return parts


def _correction_note(call: dict) -> str:
    """The line under a corrected stroke's call: when, and what the correction changed."""
    corr = call.get("correction")
    if not isinstance(corr, dict):
        return ""
    when = str(corr.get("at", "")).replace("T", " ").replace("+00:00", " UTC")
    return (f"<br><b>Corrected</b> on the referee console ({escape(when)}): "
            f"{escape(str(corr.get('change', '')))}; the call above replaced the earlier one")


def write_report(store_path: str | Path, out: str | Path, run_id: int | None = None) -> Path:
    """Write the report of a store's run (latest by default) to ``out``."""
    store = MatchStore(store_path, readonly=True)
    try:
        html = render(store, run_id, Path(out).resolve().parent)
    finally:
        store.close()
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(html, encoding="utf-8")
    return out
