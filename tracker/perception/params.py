"""The ball detector's tunables: one frozen, documented parameters object per stage, bundled
in :class:`DetectorParams` (as :class:`tracker.rules.options.RuleOptions` is for the referee).

Every value here was measured, not tuned on the footage being judged; each field says on what.
A detector takes its bundle at construction (``BallDetector(cal, params=...)``); one made
without takes :data:`DEFAULT` as it is then (a test may put another bundle there).
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class ForegroundParams:
    """What is not cloth (:mod:`tracker.perception.cloth`).

    Attributes:
        chroma: a pixel whose chroma (|a - a_cloth| + |b - b_cloth| in 8-bit Lab) exceeds this
            is not cloth.
        dark: a pixel darker than this fraction of the cloth's lightness is not cloth (the
            black ball).
        bright: a pixel brighter than the cloth's lightness by this (8-bit Lab) is not cloth.
        glyph_light_share: a blob that the foreground's opening erased is kept whole when it
            is small and compact (a ball close to the cloth's colour shows only scattered
            parts), unless at least this share of it is far brighter or darker than the cloth
            and it spans at least ``glyph_min_extent`` times the opening's disc: a ball that
            bright or dark and that big holds the disc, and so stands the opening; such a blob
            is thin strokes (the figures of a score bar laid over the table, each smaller than
            a ball: harder world, overhead 5).
        glyph_min_extent: see ``glyph_light_share``.
        map_cells: the cloth's colour is learned on a grid of this many cells along each side
            of the picture (its lightness falls off away from the lamps: one colour for the
            whole cloth would take a shaded corner for foreground).
        map_max_chroma: only pixels within this chroma of the cloth (8-bit Lab, as ``chroma``)
            and ...
        map_max_lightness_share: ... within this share of its lightness count toward a cell's
            colour (pocket holes, balls and fittings do not pull a cell's median); ...
        map_min_cloth_share: ... a cell with fewer than this share of such pixels takes its
            nearest bed cell's colour.
    """

    chroma: float = 22
    dark: float = 0.45
    bright: float = 60
    glyph_light_share: float = 0.5
    glyph_min_extent: float = 1.2
    map_cells: int = 24
    map_max_chroma: float = 40
    map_max_lightness_share: float = 0.5
    map_min_cloth_share: float = 0.3


@dataclass(frozen=True)
class FixtureParams:
    """Which dark patches in a pocket's zone are the pocket's (:func:`tracker.perception.
    cloth.pocket_parts`).

    A dark greyish patch in a pocket's zone that lies wholly on the calibrated bed is the
    pocket's (a sliver of its hole or of the shadow under its rim, where the calibrated bed
    takes the pocket in), masked as fixture, when no disc of ``min_ball_core_radii`` local
    ball radii fits in it and either it keeps within ``edge_reach_radii`` of the bed's edge or
    less than ``ball_rim_share`` of its outline borders other non-cloth: a ball's dark part
    too thin to hold a ball's core (its shaded side, the contact shadow between touching
    balls) lies against that ball's lit part or the ball it touches, and reaches further in
    from the cushion than a ball's radius, where the dark face of a cushion that the
    calibrated bed takes in hugs the bed's edge and borders the rest of that face.
    Measured at the working scale (1 px round the patch): the 9-ball clearance's near corner
    pocket, two slivers of 0.08 and 0.12 radii bordering 0 % and 14 % other non-cloth; lab
    still 15's black 0.42 radii; the contact shadows and shaded sides in the jaws of
    without_halo 1.png and 2.png 0.18-0.30 radii bordering 45-85 %, the nearest of those
    bordering a third or more 1.19 radii in from the bed's edge; the cushion faces beside the
    corner pockets of the synthetic overhead view (the bench's seed 7) 0.27 radii thick, 0.8
    radii in from the edge, bordering 56-76 %.
    """

    min_ball_core_radii: float = 0.3
    ball_rim_share: float = 1 / 3
    edge_reach_radii: float = 1.0


@dataclass(frozen=True)
class FaintParams:
    """The search for balls close to the cloth's colour (:mod:`tracker.perception.faint`).

    A ball whose colour is close to the cloth's (a green on a blue-green or green cloth) is
    found as a ball-sized disc (about 0.7 radii) whose mean difference from the cloth, in
    lightness relative to the cloth's (per ``lightness``) plus chroma (per ``chroma``, 8-bit
    Lab), reaches ``score``, away from everything the ordinary mask found. Bare cloth, its
    nap, the lamps' fall-off and sensor noise reach about 0.1 in lightness and 8 in chroma on
    such a disc (measured on the harder synthetic world's draws); such balls 0.15-0.8 and 9-21.

    Attributes:
        enabled: search for them at all.
    """

    lightness: float = 0.12
    chroma: float = 12.0
    score: float = 2.0
    enabled: bool = True


@dataclass(frozen=True)
class CandidateParams:
    """Where balls may be (:mod:`tracker.perception.candidates`).

    Attributes:
        uncovered_min_radii: a part of a blob of touching balls that the found circles (discs
            of a radius) leave uncovered is one more ball when a disc of this many radii fits
            in it (a ball with a bite taken out where it touches another holds about 0.8
            radii; a shadow's crescent or a sliver between circles much less).
        hold_slack_radii: a detection is a ball only where a ball's centre can be: at least a
            radius from every cushion nose less this many radii (the calibration's error), or
            in a pocket's jaws; a "ball" on the rail or the cushion top is a fixture or a hand.
    """

    uncovered_min_radii: float = 0.7
    hold_slack_radii: float = 0.6


@dataclass(frozen=True)
class RefineParams:
    """Sub-pixel centres and the disc fit (:mod:`tracker.perception.refine`).

    A ball's centre is the centroid of its pixels' difference from the cloth. That centroid
    is the ball's only when the ball makes most of the difference: where the weights within
    1.15 radii of it add up to less than ``low_contrast_share`` of that disc, the ball is
    nearly the cloth's colour (a green on a blue-green cloth) and its grey shadow pulls the
    centroid toward it; once its colour is judged, such a ball is placed by fitting a disc of
    its radius to its colour instead: the disc, within ``disc_fit_reach_radii`` of the
    centroid, whose pixels are most like that colour rather than the local cloth, each
    pixel's vote clipped to ``disc_fit_clip`` (squared feature distance) so a highlight or a
    shadow counts no more than a pixel of plain cloth. Measured on the lab stills (every ball
    found within a radius of its label): the greens' shares 0.07-0.60, every other colour's
    0.68 or more; the 14 labelled greens of with_halo_2 lay 0.23 radii from their labels
    (median; at most 0.78, counted as not found) by the centroid, 0.06 (at most 0.14) by the
    disc.
    """

    low_contrast_share: float = 0.6
    disc_fit_reach_radii: float = 0.7
    disc_fit_clip: float = 0.3


@dataclass(frozen=True)
class ColourParams:
    """Colour features and the colour judge (:mod:`tracker.perception.colour`,
    :class:`tracker.perception.judge.ColourJudge`).

    Attributes:
        clipped_level: a ball's colour is the median over its centre's disc of the pixels no
            channel of which reaches this (8-bit): a core blown out by the lamps is white
            whatever the ball (a pink under a canopy of lamps read as a second cue ball:
            harder world, overhead 5; its rim is pink).
        min_unclipped_share: when fewer than this share of the disc's pixels are left, that
            share of its least bright pixels (brightest channel) counts: the ball's colour
            where the lamps blow out least.
        cluster_max_cost: a circle found inside a bigger blob (or a faint disc) is a ball only
            if its colour is within this squared feature distance of a learned class (a
            player's hair or shirt has circles too).
        missing_max_cost: a unique colour missing from a still is the disc of 0.6 radii
            nearest its prototype when that disc's mean cost is under this.
        distinct_min_sep_radii: of two detections closer than this many local radii on screen
            the darker is dropped (a ball lit from above shows a bright top and a dark underside
            that a cluster split can take for two balls; touching balls stand at least ~1.4
            radii apart on screen even one behind the other in a TV view).
    """

    clipped_level: int = 250
    min_unclipped_share: float = 0.3
    cluster_max_cost: float = 0.15
    missing_max_cost: float = 0.15
    distinct_min_sep_radii: float = 1.2


@dataclass(frozen=True)
class LearnedParams:
    """The learned judge (:class:`tracker.perception.judge.LearnedJudge`) and its highlight
    search (:mod:`tracker.perception.highlights`).

    Attributes:
        max_none: a candidate whose "not a ball" probability (the network's last answer) is
            this or more is no ball: the network's own even odds.
        min_sep: two detections closer than this many local radii on screen are one ball (the
            more ball-like stays): touching balls one behind the other in a TV view stand
            about 1.1 radii apart on screen, and the classifier answers "ball" only within
            about half a radius of a centre.
        cost_scale: a class's cost is this times -log(probability): a detection below about
            4 % for every free class is left unlabelled by the game's constraint.
        highlight_contrast: in a blob of several balls, a lit ball shows one specular
            highlight (the lamps' reflection, on its top half in every view): a bright spot
            this much (8-bit grey) over its surroundings (a top-hat of 0.8 radii) and at least
            ``highlight_min_grey`` bright marks a ball; each one proposes a centre (touching
            reds in a real TV pack, 8-10 px across, show no sharp circle, but each shows its
            highlight).
        highlight_min_grey: see ``highlight_contrast``.
        highlight_min_sep_radii: two highlights closer than this many radii are one (the bars
            of one window-shaped reflection); farther apart, two balls.
        highlight_drop_radii: where a ball's centre lies below its highlight on screen, in
            local radii, when no isolated ball of the frame says (the median over the frame's
            single balls is used when there are some).
        missing_min_prob: a unique colour missing from a still is looked for at the small
            non-cloth spots the candidates pass over; the network must give the spot at least
            this probability of being that colour.
        unique_twin_radii: two detections of the same unique colour (white, a colour) closer
            than this many local radii on screen are one ball and its shadow.
        white_bonus: the cue ball's place is filled first under the game's constraint (cost
            units): a cream-lit cue ball the network finds as likely the yellow is still the
            white when no other ball is.
        unique_hold_prob: a detection at least this sure of a unique colour holds it: no other
            detection of the frame is that colour.
        streak_white_prob: with no white in a frame, a candidate the network refuses is the
            white when the colour prototypes give it at least this probability of being the
            white (a real cue ball struck hard: a long faint streak).
        grid_max_none: a point the blob search adds is a ball only when the network's "not a
            ball" is under this: the shadowed gap under two touching balls of a real TV pack
            reads 0.4-0.6 "not a ball" and the rest spread over the colours (a false black), a
            ball the search rightly adds under 0.15 (the smaller of this and ``max_none``).
        search_blobs: also search blobs of several balls for balls the candidates missed.
        grid_stride_radii: inside a blob of several balls the classifier judges points on a
            grid this many local radii apart (finer finds no more balls and costs more).
    """

    max_none: float = 0.5
    min_sep: float = 1.0
    cost_scale: float = 0.08
    highlight_contrast: float = 90
    highlight_min_grey: float = 140
    highlight_min_sep_radii: float = 0.7
    highlight_drop_radii: float = 0.55
    missing_min_prob: float = 0.6
    unique_twin_radii: float = 1.6
    white_bonus: float = 0.2
    unique_hold_prob: float = 0.9
    streak_white_prob: float = 0.8
    grid_max_none: float = 0.25
    search_blobs: bool = True
    grid_stride_radii: float = 0.4


@dataclass(frozen=True)
class GateParams:
    """The change gate (:class:`tracker.perception.change.ChangeGatedDetector`): detection work
    in proportion to what changes on the table. Not part of :class:`DetectorParams`: the
    gate wraps a detector.

    Attributes:
        level: a quarter-resolution pixel whose largest colour-channel difference from the
            reference exceeds this (8-bit levels) has changed (H.264 noise on a still table
            stays below about 8; a ball shifted by 2 px at 1080p changes its rim by 20-60).
            Not the cadence's ``CadenceParams.repeat_level`` (12, :mod:`tracker.cadence`): that compares grey
            levels of two successive frames at 640 x 360, where a repeat must read as no
            change at all; this compares each colour channel with the reference, where noise
            and slow light drift build up.
        min_pixels: fewer changed quarter-resolution pixels than this in the table: nothing
            moved.
        box_margin_r: boxes are grown by this many ball radii around the changed pixels.
        inner_r: a box's inner part (where its new detections are taken) stands this many
            ball radii inside its edges (except at the frame's edges).
        grow_r: a box whose foreground runs off its edge is grown by this many ball radii on
            that side, twice as far at each further growth (a cue or an arm laid along the
            table runs on for 20-50 radii: reached in a few growths, each of which finds the
            box's foreground again) ...
        max_grow: ... at most this many times (3 + 6 + 12 + 24 = 45 radii), then the whole
            frame is searched.
        full_share: when the boxes cover more than this share of the frame, the whole frame
            is searched.
        full_every_s: the whole frame is searched at least this often, seconds.
        cell: changed pixels are grouped into boxes on a grid of this many quarter-resolution
            pixels.
        same_ball_r: two detections closer than this many local radii (one new, one kept) are
            one ball.
        full_margin_r: a full search looks only at the table's bounding box and this many (of
            the frame's largest) ball radii round it. Foreground lies only in the table region
            (the bed grown by a radius), so a ball's centre stands at least a radius inside
            the box, and the searches round it reach less far than this margin beyond the
            region: the faint-ball search's peak window 3 radii round a peak (peaks lie a
            radius inside the region at least), the circle search of a cluster one radius
            round its blob, the centre refinement 1.5 radii round a centre. The detections are
            the whole frame's (to float rounding) at about 94 % of the cost from overhead and
            75-80 % from the TV camera (a full search: 24 and 25 ms at 1080p before).
        settle_every_s: while a new frame's rack settles (:meth:`ChangeGatedDetector.settle`,
            from the frame's start until its first stroke), the whole frame is searched at
            least this often, seconds: a red nudged against the pack by the racking hand
            changes too few pixels of the quarter-resolution picture to be searched again
            (red on red), and its centre would otherwise stay where the last search saw it
            until ``full_every_s`` (the synthetic match's frame 2: 12 mm off at the
            break-off, the cue ball's contact with the pack lost).
        settle_s: ... for at most this many seconds after the frame's start (a break-off that
            waits longer costs no more than a still table; the rack's last nudges come
            within a second or two of its being seen complete).
    """

    level: int = 18
    min_pixels: int = 1
    box_margin_r: float = 2.5
    inner_r: float = 1.2
    grow_r: float = 3.0
    max_grow: int = 4
    full_share: float = 0.35
    full_every_s: float = 4.0
    cell: int = 4
    same_ball_r: float = 1.2
    full_margin_r: float = 2.5
    settle_every_s: float = 0.4
    settle_s: float = 12.0


@dataclass(frozen=True)
class ColourLearningParams:
    """Learning a camera's colours from its frames
    (:meth:`tracker.perception.judge.ColourJudge.learn_colours`).

    Attributes:
        iterations: rounds of labelling every frame's balls under the game's constraint and
            moving each class's prototype to its balls' mean (it stops earlier when nothing
            moves).
        first_round_lightness: the weight of lightness in the first round's cost and in the
            spot's tie test (exposure moves lightness most; the stock prototypes are a rough
            guide only).
        rank_below_cost: in the first round a cost under this is ranked within the frame (each
            class's cost less its best ball's), ...
        rank_abs_weight: ... plus this share of the absolute cost to break ties (when a class
            has no ball in view, the ball most like it is often most like its own class too).
        spot_tolerance_radii: a ball within this many radii of a colour's spot is taken to be
            that colour unless its colour says clearly otherwise (the apex red of a rack is two
            radii from the pink spot), ...
        spot_reach_px: ... widened by this many pixels' worth of table where the view is coarse
            (a far ball in a TV view: a few px are tens of mm), ...
        spot_reach_max_radii: ... never beyond this many radii (a racked red from the pink).
        spot_bonus: the cost a ball on a colour's spot takes off that colour, ...
        spot_tie_cost: ... only where that colour is within this of the ball's best (the spot
            breaks near-ties only: a red on the green spot stays a red).
        unique_bonus, white_bonus: the constrained labelling's bonus for one of each colour and
            for the cue ball (:func:`tracker.perception.constraint.constrained_classes`).
    """

    iterations: int = 5
    first_round_lightness: float = 0.2
    rank_below_cost: float = 0.6
    rank_abs_weight: float = 0.25
    spot_tolerance_radii: float = 0.8
    spot_reach_px: float = 3.0
    spot_reach_max_radii: float = 1.6
    spot_bonus: float = 0.3
    spot_tie_cost: float = 0.5
    unique_bonus: float = 0.1
    white_bonus: float = 0.3


@dataclass(frozen=True)
class CastShadowParams:
    """Cast shadows beside balls taken out of the foreground
    (:mod:`tracker.perception.castshadow`).

    Measured on the harder world's cast shadows (overhead draw 0 of
    ``bench/tv_lens_clips.py``, a lamp off to one side, shadow 0.59): the shadows' pixels are
    0.25-0.28 of the cloth's Lab lightness, their chroma 0.2-0.35 of the cloth's and within
    3 levels of its line; the green ball's body (darkened cloth too) 0.7 and 0.7, its
    highlight peaks 119 levels over the cloth (the cloth's own texture up to 32); the black ball 0.05-0.07 of the lightness.

    Attributes:
        enabled: take cast shadows out at all.
        min_light: a cast shadow's pixel is at least this share of the cloth's lightness (a
            black ball is darker) ...
        max_light: ... and at most this share (darker than the cloth) ...
        max_chroma_share: ... its chroma at most this share of the cloth's, on the cloth's
            side of neutral (a shadow's colour is the cloth's, shrunken) ...
        max_off_line: ... and within this (8-bit Lab levels) ...
        off_line_share: ... plus this share of its own chroma of the line from neutral to
            the cloth's chroma (the cloth's hue).
        min_area_share: a blob's shadow-coloured pixels are looked at when they cover at
            least this share of a ball's disc (fewer: a ball's own dark rim).
        max_blob_balls: blobs bigger than this many balls' discs are left alone (a player, a
            pack: a ball and its shadow make two or three).
        beside_radii: a shadow lies beside its ball: the shadow-coloured pixels' centroid at
            least this many radii from the other pixels' (a dark pool ball round its lighter
            number is shadow-coloured round its centre: real pool still, game1_clip3's 8).
        highlight_over: a specular highlight is a local maximum of lightness this much
            (8-bit Lab) over the cloth's, on the blob itself.
        highlight_sep_radii: two highlights closer than this many ball radii are one.
        highlight_ring_radii: a highlight is compact: every point this many ball radii from
            it is no lighter than halfway from the cloth to it (a chalk line running through
            it is, as is the body of a ball lighter than the cloth: such a ball is no
            shadow's colour anyway).
        keep_radii: shadow-coloured pixels within this many ball radii of a highlight are
            the ball's own (a green's body around its highlight, which lies on the lamp's
            side of the centre: the ball's far edge about 1.3 radii from it) and stay.

    On in the product. Off from the lead's merge of 2026-11-28 until the interaction it met
    was traced (branch shadowon): with shadows gone, broadcast clip 1's red was last seen
    faster into the bottom-left mouth, and the pocket's own dark, found a few frames later
    as a ball of no sure colour, was taken for the red by position and undid the pot; a ball
    pending a pot is now taken back only by its own colour
    (:meth:`tracker.perception.track.Tracker._match_by_position`).
    ``CastShadowParams(enabled=False)`` turns it off (docs/ACCURACY.md, "Cast shadows and the
    cue ball's slot" and "The cast-shadow stage switched back on", have its figures).
    """

    enabled: bool = True
    min_light: float = 0.15
    max_light: float = 0.85
    max_chroma_share: float = 1.0
    max_off_line: float = 6.0
    off_line_share: float = 0.25
    min_area_share: float = 0.25
    max_blob_balls: float = 6.0
    beside_radii: float = 0.8
    highlight_over: float = 60.0
    highlight_sep_radii: float = 0.7
    highlight_ring_radii: float = 0.6
    keep_radii: float = 1.3


@dataclass(frozen=True)
class ApparentCentreParams:
    """Where a ball's image centre lies when the camera sees it obliquely (a TV camera).

    The detector's centre (the centroid of the ball's difference from the cloth) takes in the
    ball's shadow on the cloth in front of it, which an oblique view shows beyond the ball's
    outline and an overhead one hides under it: the centre found is the projection of a point
    below the ball's centre, and mapped through the plane of ball centres it lands nearer the
    camera (6-12 mm under 20-45 degree lenses, issue 31). The position is moved away from the
    camera as if that point were ``drop_mm`` below the centre, in full where the camera sees
    the ball from ``full_below_deg`` or lower, tapering to nothing at ``none_above_deg``
    (an overhead camera: unchanged; the harder world's overhead draws see every point of the
    bed from 51.9 degrees or higher, the stock overhead camera from 56.2). Set on synthetic
    stills (``bench/tv_lens.py`` draws, seeds 10-12 of every band and overhead; the clips of
    ``bench/tv_lens_clips.py`` use seeds 0-2): the drop was 3-4 mm median at every elevation
    under 50 degrees, none above 60."""

    drop_mm: float = 3.5
    full_below_deg: float = 35.0
    none_above_deg: float = 50.0


@dataclass(frozen=True)
class DetectorParams:
    """Every stage's tunables."""

    foreground: ForegroundParams = field(default_factory=ForegroundParams)
    fixtures: FixtureParams = field(default_factory=FixtureParams)
    faint: FaintParams = field(default_factory=FaintParams)
    candidates: CandidateParams = field(default_factory=CandidateParams)
    refine: RefineParams = field(default_factory=RefineParams)
    colour: ColourParams = field(default_factory=ColourParams)
    learned: LearnedParams = field(default_factory=LearnedParams)
    learning: ColourLearningParams = field(default_factory=ColourLearningParams)
    apparent: ApparentCentreParams = field(default_factory=ApparentCentreParams)
    shadows: CastShadowParams = field(default_factory=CastShadowParams)


#: The bundle a detector made without one takes.
DEFAULT = DetectorParams()
