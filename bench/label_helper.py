"""Helper for labelling real stills by eye (bench/labels/*.json).

    .venv/bin/python bench/label_helper.py IMAGE OUT.png            # numbered ball candidates
    .venv/bin/python bench/label_helper.py IMAGE OUT.png --crop X0 Y0 X1 Y1 [--mark X,Y ...]

The first form proposes ball centres (blobs that are not cloth-coloured, of about a ball's
size, their minimum enclosing circle's centre) and draws them numbered on the picture; a person
then picks, by eye, the ones that sit on their spots and checks each on a zoomed crop (the
second form: a 4x crop with a 10 px ruler and crosses at the given points). Nothing here
decides a label: it only helps a person read pixels.
"""

from __future__ import annotations

import argparse
import json

import cv2
import numpy as np

from calibration.finder import cloth_mask


def ball_candidates(img: np.ndarray, min_r: float = 3.0, max_r: float = 40.0) -> list[dict]:
    """Blobs of non-cloth colour inside the cloth region: centre (px), radius (px), mean BGR."""
    region = cloth_mask(img)
    hsv = cv2.cvtColor(cv2.GaussianBlur(img, (3, 3), 0), cv2.COLOR_BGR2HSV)
    h, w = region.shape
    centre = hsv[int(h * 0.3):int(h * 0.7), int(w * 0.3):int(w * 0.7)].reshape(-1, 3)
    sat = centre[:, 1] > 25
    hue, s0, v0 = (np.median(centre[sat, i]) for i in range(3))
    dh = np.abs(hsv[..., 0].astype(int) - int(hue))
    dh = np.minimum(dh, 180 - dh)
    cloth = (dh < 10) & (hsv[..., 1] > 0.6 * s0) & (hsv[..., 2] > 0.55 * v0)
    fg = (region & ~cloth).astype(np.uint8)
    fg = cv2.morphologyEx(fg, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    n, lab, stats, _ = cv2.connectedComponentsWithStats(fg, 8)
    out = []
    for k in range(1, n):
        area = stats[k, cv2.CC_STAT_AREA]
        if area < np.pi * min_r ** 2 or area > np.pi * max_r ** 2 * 1.5:
            continue
        ys, xs = np.nonzero(lab == k)
        (cx, cy), r = cv2.minEnclosingCircle(np.stack([xs, ys], 1).astype(np.float32))
        out.append({"px": [round(float(cx), 1), round(float(cy), 1)], "r": round(float(r), 1),
                    "bgr": img[ys, xs].mean(0).round().astype(int).tolist()})
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("image")
    ap.add_argument("out")
    ap.add_argument("--crop", nargs=4, type=int)
    ap.add_argument("--mark", nargs="*", default=[])
    ap.add_argument("--scale", type=int, default=4)
    a = ap.parse_args()
    img = cv2.imread(a.image)
    if a.crop:
        x0, y0, x1, y1 = a.crop
        s = a.scale
        c = cv2.resize(img[y0:y1, x0:x1], None, fx=s, fy=s, interpolation=cv2.INTER_NEAREST)
        for x in range(x0 - x0 % 10 + 10, x1, 10):
            cv2.line(c, ((x - x0) * s, 0), ((x - x0) * s, 8 if x % 50 else 20), (255, 255, 255), 1)
            if x % 50 == 0:
                cv2.putText(c, str(x), ((x - x0) * s + 2, 30), 0, 0.4, (255, 255, 255), 1)
        for y in range(y0 - y0 % 10 + 10, y1, 10):
            cv2.line(c, (0, (y - y0) * s), (8 if y % 50 else 20, (y - y0) * s), (255, 255, 255), 1)
            if y % 50 == 0:
                cv2.putText(c, str(y), (22, (y - y0) * s + 4), 0, 0.4, (255, 255, 255), 1)
        for m in a.mark:
            x, y = map(float, m.split(","))
            cv2.drawMarker(c, (int(round((x - x0 + 0.5) * s)), int(round((y - y0 + 0.5) * s))),
                           (255, 0, 255), cv2.MARKER_CROSS, 16, 1)
        cv2.imwrite(a.out, c)
        return
    cands = ball_candidates(img)
    vis = img.copy()
    for i, c in enumerate(cands):
        x, y = c["px"]
        cv2.circle(vis, (int(x), int(y)), int(c["r"]) + 2, (255, 0, 255), 1)
        cv2.putText(vis, str(i), (int(x) + 8, int(y) - 8), 0, 0.5, (255, 0, 255), 1)
    cv2.imwrite(a.out, vis)
    print(json.dumps(cands))


if __name__ == "__main__":
    main()
