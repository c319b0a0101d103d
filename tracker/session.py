"""A table's session: frame after frame, match after match (:class:`TableSession`).

A run (:class:`tracker.pipeline.RefereeRun`) is a table's session, not one frame. The session
holds the match set-up (:class:`tracker.session_setup.MatchSetup`, with its queue of next
matches) and the between-frames watcher (:class:`tracker.session_watch.RackWatcher`), and
decides, from the referee's match (:class:`tracker.rules.match.Match`):

- whether the run goes on after a frame ends (:meth:`TableSession.goes_on`): while the match
  is not over, while a next match is queued (or the same players play again), or while the
  run waits for racks (a table with no match set);
- which ``frame_start`` the next rack begins (:meth:`TableSession.next_start`): a frame
  start of the operator's match log first, else frame n+1 of the set-up's match (the breaker
  by rotation, S3 R3), else the first frame of the next match;
- what a re-rack seen before the frame is over means (:func:`rerack_inputs`): with the scores
  level, the referee's re-rack (a stalemate, S3 R16: the same player breaks again); otherwise
  the player behind conceded (S4 R5), marked for review.

A table's process stopped and started again on a live stream takes the match up from what it
had called (:func:`take_up`: frames won, the frame's scores and breaker, who is at the table,
the matches still queued).

The state a scoreboard shows (:attr:`TableSession.phase`): ``waiting`` (no frame yet: no match
set, or the next match not racked), ``playing``, ``between frames``, ``match over``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from calibration.table import TableGeometry
from tracker.records.shot import FrameStart, InputKind, OperatorInput, Record
from tracker.rules.match import Match
from tracker.rules.registry import Ruleset
from tracker.session_setup import MatchSetup, SetupError
from tracker.session_watch import RACK_PARAMS, RackParams, RackWatcher


@dataclass
class TableSession:
    """See the module docstring.

    Attributes:
        setup: the current match's set-up (None: the match comes from the match log's frame
            start or the first picture, one match).
        wait: the run waits for a rack before the first frame, and after the last match
            keeps watching for the next rack (a hall table with nobody at the keyboard).
        params: the watcher's tunables.
        phase: what the scoreboard shows (see the module docstring).
        watcher: the between-frames watcher of the current game (None before a frame or
            :meth:`watch` gave the game).
    """

    setup: MatchSetup | None = None
    wait: bool = False
    params: RackParams = RACK_PARAMS
    phase: str = "waiting"
    watcher: RackWatcher | None = None

    def watch(self, rules: Ruleset, table: TableGeometry) -> RackWatcher:
        """The watcher for ``rules``' rack on ``table`` (made again when the game changes)."""
        w = self.watcher
        if w is None or w.n_reds != len(rules.balls.reds) or w.table is not table:
            positions = rules.setup_positions()
            w = self.watcher = RackWatcher(table, positions, rules.balls, self.params)
        return w

    def take_setup(self, new: MatchSetup, queue: bool, match: Match) -> str:
        """A match set while the run goes on (the referee console), given the referee's
        ``match``; returns what will happen, in a referee's words.

        ``queue``: ``new`` follows the matches already set (after the one under way, or the
        one set for the next rack). Otherwise ``new`` is the table's next match, starting on
        the next rack: the table must be between matches (no match yet, or the last one over);
        the matches queued stay queued after it.

        Raises:
            SetupError: a match is under way and ``new`` was not queued (one line: what to
                do instead).
        """
        who = f"{new.players[0]} v {new.players[1]}"
        started = match.players is not None
        over = started and match.match_over
        if not queue and started and not over:
            raise SetupError(f"a match is under way at this table ({match.players[0]} v "
                             f"{match.players[1]}): queue {who} as the next match, or end "
                             "this one first (concede or award its frames)")
        set_now = f"{who} is set: it starts when the balls are racked"
        if not started:  # nothing played yet: the set-up is the match the next rack starts
            if queue and self.setup is not None:
                self.setup = replace(self.setup, then=(*self.setup.then, new))
                return f"{who} is queued: match {len(self.setup.then)} after the one set"
            self.setup = replace(new, then=self.setup.then if self.setup is not None else ())
            return set_now
        if self.setup is None or tuple(self.setup.players) != tuple(match.players or ()):
            rules = match.rules.name if match.rules is not None else "snooker"
            base = MatchSetup(players=match.players, best_of=match.best_of, ruleset=rules)
            self.setup = replace(base, then=self.setup.then if self.setup else ())
        assert self.setup is not None
        if queue:
            self.setup = replace(self.setup, then=(*self.setup.then, new))
            return f"{who} is queued: match {len(self.setup.then)} after this one"
        self.setup = replace(self.setup, then=(new, *self.setup.then))
        return set_now

    def goes_on(self, match: Match) -> bool:
        """Whether the run keeps watching once the current frame is over."""
        if self.wait:
            return True
        if not match.match_over:
            return True
        return self.setup is not None and self.setup.next_match() is not None

    def next_start(self, match: Match, logged: FrameStart | None) -> tuple[FrameStart | None,
                                                                             bool]:
        """The frame start a rack begins, and whether it begins a new match (the referee's
        match then starts afresh). ``logged``: the match log's next frame start, if any.
        (None, False): no frame to start (the last match is over and nothing follows)."""
        if logged is not None:
            new = match.players is None or match.match_over
            return logged, new
        if match.players is None:  # no frame yet: the set-up's first, or a plain frame
            setup = self.setup or MatchSetup()
            return setup.first_frame(), True
        if not match.match_over:
            n = (match.state.frame if match.state is not None else match.frames_started) + 1
            if self.setup is not None and tuple(self.setup.players) == tuple(match.players):
                return self.setup.frame_start(n), False
            rules = match.rules.name if match.rules is not None else "snooker"
            return FrameStart(n, match.players, ruleset=rules, best_of=match.best_of), False
        nxt = self.setup.next_match() if self.setup is not None else None
        if nxt is None and self.wait:  # a table with no match set: the same players again
            nxt = replace(self.setup or MatchSetup(players=match.players), frames_won=(0, 0),
                          score=None, breaker=None, then=())
        if nxt is None:
            return None, False
        self.setup = nxt
        return nxt.first_frame(), True


def rerack_inputs(match: Match, seen_at: float, cleared: bool = False) -> list[OperatorInput]:
    """The inputs that say what a re-rack seen at ``seen_at`` s before the frame's end means
    (each with its note, for review): level scores: the referee re-racked (a stalemate, S3
    R16); else the player behind conceded (S4 R5; if he was not the striker, the striker is
    corrected to him first, as only the striker may concede). ``cleared``: the table was seen
    cleared, not re-racked: a concession only (none with the scores level: the rack decides)."""
    st = match.state
    assert st is not None
    a, b = st.scores
    seen = (f"the camera saw the table cleared at {seen_at:.1f} s before the frame was over"
            if cleared else
            f"the camera saw the balls re-racked at {seen_at:.1f} s before the frame was over")
    if a == b and cleared:
        return []
    if a == b:
        return [OperatorInput(InputKind.STALEMATE, note=f"{seen}, the scores level at {a}-{b}: "
                              "taken as the referee's re-rack (a stalemate); check")]
    behind = st.players[0 if a < b else 1]
    note = (f"{seen}: taken as {behind}'s concession, {a}-{b} behind; check (a restart or a "
            "stalemate re-rack is entered on the console)")
    out = []
    if st.players[st.striker] != behind:
        out.append(OperatorInput(InputKind.STRIKER, player=behind, note=note))
    out.append(OperatorInput(InputKind.CONCEDE, player=behind, note=note))
    return out


@dataclass(frozen=True)
class ConsoleSetup:
    """A match set or queued on the referee console while a run went on, as the store keeps it
    (:meth:`TableSession.take_setup`'s arguments, and where it came): a resumed run sets it again
    at the same place.

    Attributes:
        after: how many of the run's records (its current match log) came before it.
        setup: the match set; queue: queued after the matches already set.
    """

    after: int
    setup: MatchSetup
    queue: bool = False


def replay_setups(setups: list[ConsoleSetup], done: int, current: MatchSetup | None,
                  match: Match) -> MatchSetup | None:
    """The set-up after the console set-ups of ``setups`` due once ``done`` records are met
    (taken from the front of the list, in order), given the referee's ``match`` then and the
    set-up ``current`` before them. Each was accepted when it was made, at the same place."""
    while setups and setups[0].after <= done:
        s = setups.pop(0)
        session = TableSession(setup=current)
        session.take_setup(s.setup, s.queue, match)
        current = session.setup
    return current


@dataclass(frozen=True)
class TakenUp:
    """Where a table's match stood when its process stopped (:func:`take_up`).

    Attributes:
        setup: the set-up to go on with (a match taken up: frames won, the frame's scores and
            breaker; or the next match), None: nothing left to play.
        striker: who was at the table in the frame under way (None: between frames).
        between_frames: the last frame was over: the next starts on the next rack.
        frame: the frame under way or the last one (0: none yet).
    """

    setup: MatchSetup | None
    striker: str | None = None
    between_frames: bool = False
    frame: int = 0


def take_up(records: list[Record], setup: MatchSetup | None,
            setups: tuple[ConsoleSetup, ...] = ()) -> TakenUp:
    """Where the match stood after ``records`` (a stopped run's committed match log), with the
    run's ``setup`` (its queue followed through the matches the log finished) and the matches
    set or queued on the console meanwhile (``setups``, each where it came).

    Raises:
        tracker.rules.errors.RuleError: the records do not replay.
    """
    match, current, due = Match(), setup, list(setups)
    for i, rec in enumerate(records):
        current = replay_setups(due, i, current, match)
        if isinstance(rec, FrameStart) and match.players is not None and match.match_over:
            match, current = Match(), current.next_match() if current is not None else None
        match.feed(rec)
    current = replay_setups(due, len(records), current, match)
    st = match.state
    if st is None or match.players is None:
        return TakenUp(current)
    rules = match.rules.name if match.rules is not None else "snooker"
    base = current or MatchSetup(players=match.players, best_of=match.best_of, ruleset=rules)
    won = (match.frames_won[match.players[0]], match.frames_won[match.players[1]])
    if match.match_over:
        return TakenUp(base.next_match(), between_frames=True, frame=st.frame)
    if st.frame_over:
        nxt = replace(base, breaker=match.players[match.expected_breaker()], frames_won=won,
                      score=None)
        return TakenUp(nxt, between_frames=True, frame=st.frame)
    taken = replace(base, breaker=match.players[st.breaker], frames_won=won,
                    score=(st.scores[0], st.scores[1]))
    return TakenUp(taken, striker=st.players[st.striker], frame=st.frame)
