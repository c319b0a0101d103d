"""Specular highlights: in a blob of several balls each lit ball shows one (the lamps'
reflection on its top half), and its centre lies a little below it. The learned judge takes
them as more places to look (:class:`tracker.perception.params.LearnedParams`)."""

from __future__ import annotations

import cv2
import numpy as np

from tracker.perception.candidates import Blob, peaks
from tracker.perception.geometry import TableView
from tracker.perception.params import LearnedParams


def highlight_centres(view: TableView, frame: np.ndarray, px: np.ndarray, in_cluster: np.ndarray,
                      blobs: list[Blob], params: LearnedParams) -> np.ndarray:
    """Ball centres (M, 2) full-resolution px proposed by the specular highlights inside
    ``blobs`` of several balls (``params.highlight_contrast``): each highlight's centre lies
    below it by the median drop of the frame's single balls (candidates ``px`` (N, 2) not
    ``in_cluster`` with a highlight within a radius above them), else by
    ``highlight_drop_radii`` local radii."""
    multi = blobs
    if not multi:
        return np.zeros((0, 2))
    s = view.scale
    spots = []
    for x, y, sub, r in multi:
        R = r / s
        X0, Y0 = max(0, int(x / s - R)), max(0, int(y / s - R))
        X1 = min(frame.shape[1], int((x + sub.shape[1]) / s + R))
        Y1 = min(frame.shape[0], int((y + sub.shape[0]) / s + R))
        grey = cv2.cvtColor(frame[Y0:Y1, X0:X1], cv2.COLOR_BGR2GRAY)
        spots.extend(p + [X0, Y0] for p in spots_in(grey, R, params))
    if not spots:
        return np.zeros((0, 2))
    spots = np.array(spots, float)
    # keep the spots on the blobs themselves
    sm = np.zeros((view.small[1], view.small[0]), bool)
    for x, y, sub, _ in multi:
        sm[y:y + sub.shape[0], x:x + sub.shape[1]] |= sub
    ij = np.clip(np.round(spots * s).astype(int), 0, [view.small[0] - 1, view.small[1] - 1])
    spots = spots[sm[ij[:, 1], ij[:, 0]]]
    drop = (highlight_drop(view, frame, px[~in_cluster], params) if len(px)
            else params.highlight_drop_radii)
    return spots + np.c_[np.zeros(len(spots)), drop * view.radius_at(spots)]


def spots_in(gray: np.ndarray, R: float, params: LearnedParams) -> list[np.ndarray]:
    """Specular highlights (x, y) px in a grey image of balls of radius ``R`` px: peaks of
    the top-hat by a disc of 0.8 radii at least ``params.highlight_contrast`` high and
    ``highlight_min_grey`` bright, at least ``highlight_min_sep_radii`` apart."""
    if min(gray.shape) < 3:
        return []
    g = gray.astype(np.float32)
    k = max(3, int(0.8 * R) | 1)
    th = g - cv2.morphologyEx(g, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    th = cv2.GaussianBlur(th, (3, 3), 0)
    bright = (th > params.highlight_contrast) & (g >= params.highlight_min_grey)
    return peaks(np.where(bright, th, 0), params.highlight_contrast,
                 max(2.0, params.highlight_min_sep_radii * R))


def highlight_drop(view: TableView, frame: np.ndarray, single: np.ndarray,
                   params: LearnedParams) -> float:
    """How far below its highlight a ball's centre lies, in local radii: the median over
    single balls (centres (N, 2) px) of the drop from the brightest spot within a radius
    above each; ``params.highlight_drop_radii`` when none shows one."""
    drops = []
    for (x, y), R in zip(single, view.radius_at(single), strict=True):
        X0, Y0 = int(x - R), int(y - 1.4 * R)
        if X0 < 0 or Y0 < 0:
            continue
        win = frame[Y0:int(y + 0.2 * R) + 1, X0:int(x + R) + 1]
        if min(win.shape[:2]) < 3:
            continue
        win = cv2.cvtColor(win, cv2.COLOR_BGR2GRAY)
        sp = spots_in(win, R, params)
        if sp:
            best = max(sp, key=lambda p: win[int(p[1]), int(p[0])])
            drops.append((y - (best[1] + Y0)) / R)
    return float(np.clip(np.median(drops), 0.2, 0.9)) if len(drops) >= 2 \
        else params.highlight_drop_radii
