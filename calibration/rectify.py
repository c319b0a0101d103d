"""A rectified top-down picture of the table with the model's markings drawn over it, so a
person can see at a glance whether a calibration fits."""

from __future__ import annotations

import cv2
import numpy as np

from calibration.profile import Calibration

MARGIN_MM = 120.0
MODEL_BGR = (255, 0, 255)


def rectified(img: np.ndarray, cal: Calibration, px_per_mm: float = 0.5,
              draw_model: bool = True) -> np.ndarray:
    """The bed seen from straight above, baulk on the left, BGR uint8.

    Args:
        img: the camera frame (BGR).
        cal: its calibration.
        px_per_mm: scale of the output.
        draw_model: draw the cushion faces, baulk line, D, spots and pocket mouths in magenta.
    """
    t = cal.table
    W = int(round((t.length + 2 * MARGIN_MM) * px_per_mm))
    H = int(round((t.width + 2 * MARGIN_MM) * px_per_mm))
    us, vs = np.meshgrid(np.arange(W), np.arange(H))
    # output column -> table y (baulk on the left), output row -> table x (top row = x = 0)
    y_mm = us / px_per_mm - MARGIN_MM
    x_mm = vs / px_per_mm - MARGIN_MM
    pts = np.stack([x_mm.ravel(), y_mm.ravel()], 1)
    src = cal.to_image(pts, 0.0).reshape(H, W, 2).astype(np.float32)
    out = cv2.remap(img, src[..., 0], src[..., 1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
    if draw_model:
        def p(x: float, y: float) -> tuple[int, int]:
            return (int(round((y + MARGIN_MM) * px_per_mm)), int(round((x + MARGIN_MM) * px_per_mm)))

        cv2.rectangle(out, p(0, 0), p(t.width, t.length), MODEL_BGR, 1, cv2.LINE_AA)
        cv2.line(out, p(0, t.baulk_line), p(t.width, t.baulk_line), MODEL_BGR, 1, cv2.LINE_AA)
        r = int(round(t.d_radius * px_per_mm))
        cx, cy = p(t.centre_x, t.baulk_line)
        cv2.ellipse(out, (cx, cy), (r, r), 0, 90, 270, MODEL_BGR, 1, cv2.LINE_AA)
        for sx, sy in t.spots.values():
            cv2.circle(out, p(sx, sy), 3, MODEL_BGR, 1, cv2.LINE_AA)
        for pk in t.pockets.values():
            cv2.line(out, p(*pk.mouth_a), p(*pk.mouth_b), (0, 255, 255), 2, cv2.LINE_AA)
    return out


def overlay(img: np.ndarray, cal: Calibration) -> np.ndarray:
    """The camera frame with the table model projected on it (cushion faces, markings)."""
    t = cal.table
    out = img.copy()

    def poly(pts_mm: np.ndarray, z: float, closed: bool, colour=MODEL_BGR) -> None:
        px = cal.to_image(pts_mm, z)
        cv2.polylines(out, [np.round(px).astype(np.int32)], closed, colour, 1, cv2.LINE_AA)

    edge = np.array([[0, 0], [t.width, 0], [t.width, t.length], [0, t.length]], float)
    dense = np.concatenate([np.linspace(edge[i], edge[(i + 1) % 4], 50) for i in range(4)])
    poly(dense, t.cushion_height, True)
    poly(np.linspace([0, t.baulk_line], [t.width, t.baulk_line], 30), 0.0, False)
    ang = np.linspace(np.pi, 2 * np.pi, 60)
    poly(np.stack([t.centre_x + t.d_radius * np.cos(ang), t.baulk_line + t.d_radius * np.sin(ang)], 1),
         0.0, False)
    for sx, sy in t.spots.values():
        c = cal.to_image(np.array([[sx, sy]]), 0.0)[0]
        cv2.circle(out, (int(round(c[0])), int(round(c[1]))), 4, MODEL_BGR, 1, cv2.LINE_AA)
    return out
