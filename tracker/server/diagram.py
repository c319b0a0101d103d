"""A table diagram in SVG: where the balls stood, for review pages and reports.

Drawn landscape with the baulk end on the left (the canonical frame turned a quarter: the
table's ``y`` runs to the right, its ``x`` down, so the left-hand pockets, as seen from the
baulk end, are at the top). Units are table millimetres (``viewBox``), so the drawing scales.
"""

from __future__ import annotations

from html import escape

from calibration.table import TableGeometry
from tracker import balls as B
from tracker.words import ball_words

#: Ball fill colours on the diagram (CSS).
BALL_FILL = {"white": "#f4f4f0", "red": "#c8102e", "yellow": "#f2d21b", "green": "#157a3c",
             "brown": "#7b4a24", "blue": "#1f4fd1", "pink": "#f29bb7", "black": "#111"}


def table_svg(positions: dict[str, list[float] | tuple[float, float]] | None,
              table: TableGeometry | None = None, ghost: dict | None = None,
              marks: list[tuple[float, float, str]] | None = None, width_px: int = 720,
              title: str = "") -> str:
    """The table with balls at ``positions`` (id -> (x, y) mm), optionally ``ghost``
    positions drawn faintly (e.g. where they came to rest), and ``marks`` (x, y, label)."""
    t = table or TableGeometry.standard()
    L, W, r = t.length, t.width, t.ball_radius
    rail = 90.0
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{-rail} {-rail} {L + 2 * rail} '
             f'{W + 2 * rail}" width="{width_px}" role="img" aria-label="{escape(title or "table")}">',
             f'<rect x="{-rail}" y="{-rail}" width="{L + 2 * rail}" height="{W + 2 * rail}" '
             'rx="40" fill="#5a3a1e"/>',
             f'<rect x="0" y="0" width="{L}" height="{W}" fill="#1f7a3a"/>',
             f'<line x1="{t.baulk_line}" y1="0" x2="{t.baulk_line}" y2="{W}" stroke="#dfe" '
             'stroke-width="4" opacity=".7"/>',
             f'<path d="M {t.baulk_line} {t.centre_x - t.d_radius} A {t.d_radius} {t.d_radius} 0 0 '
             f'0 {t.baulk_line} {t.centre_x + t.d_radius}" fill="none" stroke="#dfe" '
             'stroke-width="4" opacity=".7"/>']
    for p in t.pockets.values():
        cx, cy = p.mouth_centre
        parts.append(f'<circle cx="{cy:.0f}" cy="{cx:.0f}" r="55" fill="#111"/>')
    for name, (sx, sy) in t.spots.items():
        parts.append(f'<circle cx="{sy:.0f}" cy="{sx:.0f}" r="8" fill="#dfe" opacity=".6">'
                     f'<title>{name} spot</title></circle>')
    for ball, (x, y) in (ghost or {}).items():
        parts.append(f'<circle cx="{y:.1f}" cy="{x:.1f}" r="{r:.1f}" fill="none" '
                     f'stroke="{BALL_FILL[B.kind(ball)]}" stroke-width="6" stroke-dasharray="12 8" '
                     f'opacity=".8"><title>{escape(ball_words(ball))} after</title></circle>')
    for ball, (x, y) in (positions or {}).items():
        fill = BALL_FILL.get(B.kind(ball), "#888")
        parts.append(f'<circle class="ball" data-ball="{escape(ball)}" cx="{y:.1f}" cy="{x:.1f}" '
                     f'r="{r:.1f}" fill="{fill}" stroke="#000" stroke-width="3">'
                     f'<title>{escape(ball_words(ball))} ({x:.0f}, {y:.0f}) mm</title></circle>')
    for x, y, label in marks or []:
        parts.append(f'<g><circle cx="{y:.0f}" cy="{x:.0f}" r="{2.2 * r:.0f}" fill="none" '
                     'stroke="#ff0" stroke-width="8"/>'
                     f'<text x="{y:.0f}" y="{x - 3 * r:.0f}" font-size="70" fill="#ff0" '
                     f'text-anchor="middle">{escape(label)}</text></g>')
    parts.append("</svg>")
    return "".join(parts)
