package sessions

import (
	"context"
	"slices"
	"time"
)

// AutoMovesToAbandon is how many moves in a row the clock plays for a
// player before the player has abandoned the game (and lost it).
const AutoMovesToAbandon = 3

// ReminderShare is the share of the time per move left when the reminder
// goes out: a tenth.
const ReminderShare = 10

// RequestIDsKept is how long the ids of applied requests are kept to
// recognise a platform's second delivery of an update.
const RequestIDsKept = 24 * time.Hour

// waiting returns the seats that must act now: the seat to move, or the
// seats still to choose a formation.
func (l *live) waiting() []int {
	if l == nil || l.state == nil || l.rec.Result != nil {
		return nil
	}
	if t := l.state.Turn(); t >= 0 {
		return []int{t}
	}
	if f, ok := l.state.(interface{ Pending() []int }); ok {
		return f.Pending()
	}
	return nil
}

// humansWaiting reports whether a person (not the computer) must act.
func (l *live) humansWaiting() bool {
	for _, seat := range l.waiting() {
		if !l.rec.Seats[seat].Computer {
			return true
		}
	}
	return false
}

// computerWaiting returns the computer's seats that must act now.
func (l *live) computerWaiting() []int {
	var out []int
	for _, seat := range l.waiting() {
		if l.rec.Seats[seat].Computer {
			out = append(out, seat)
		}
	}
	return out
}

func turnOf(l *live) int {
	if l == nil || l.state == nil {
		return -2
	}
	return l.state.Turn()
}

// clock sets the deadline of next, the session after a change of prev: a
// fresh deadline when the turn passed (or a move was taken back), none
// without a clock or when only the computer is to act.
func (s *Service) clock(prev, next *live, now time.Time) {
	r := next.rec
	per := time.Duration(r.Play.Time)
	if r.Phase() != PhasePlaying || per <= 0 || !next.humansWaiting() {
		r.Deadline, r.Reminded = time.Time{}, false
		return
	}
	if r.Deadline.IsZero() || turnOf(prev) != turnOf(next) || prev == nil || len(next.rec.Actions) < len(prev.rec.Actions) {
		r.Deadline, r.Reminded = now.Add(per), false
	}
}

// due is when the clock next has something to do for the session: the
// reminder, the deadline, the challenge's expiry; zero for nothing.
func (l *live) due() time.Time {
	if l == nil {
		return time.Time{}
	}
	return l.rec.Due()
}

// track updates what the Service keeps about e's session besides the
// session itself: the clock's index and the computer's search. e is locked.
func (s *Service) track(e *entry) {
	s.mu.Lock()
	defer s.mu.Unlock()
	cur := e.cur
	if d := cur.due(); cur != nil && !d.IsZero() {
		s.due[e.key] = d
	} else {
		delete(s.due, e.key)
	}
	j := s.jobs[e.key]
	if j != nil && j.from != cur {
		j.cancel() // the session changed: the search is of no use
		j = nil
	}
	if j == nil && cur != nil && len(cur.computerWaiting()) > 0 {
		s.startJob(e.key, cur, cur.computerWaiting()[0], false)
	}
}

// Tick does what the clocks ask at this moment (Config.Now): it sends the
// reminders, plays a move (in the background, with the computer at
// Config.AutoLevel) for each player out of time, and removes the challenges
// nobody answered. It also forgets request ids older than RequestIDsKept,
// and tries again to open the tournament games whose place did not open
// (TourRetryEvery).
// Run calls it periodically; tests call it with a fake clock. Tick looks at
// an index in memory of what is due, so its cost is that of the sessions
// due, plus one pass over a map of the sessions with a clock.
func (s *Service) Tick(ctx context.Context) {
	now := s.now().UTC()
	var shared []LiveEntry
	if sh, ok := s.store.(SharedStore); ok {
		// Other processes' sessions: a move there moved their clock, a
		// game started there has one this process never saw. Firing
		// twice is prevented by the commit's revision compare.
		var err error
		if shared, err = sh.DueBefore(ctx, now); err != nil {
			s.log.Error("reading the due index failed", "err", err)
		}
	}
	s.mu.Lock()
	for _, x := range shared {
		s.due[x.Key] = x.Due
	}
	var keys []Key
	for k, t := range s.due {
		if !t.After(now) && s.jobs[k] == nil {
			keys = append(keys, k)
		}
	}
	forget := now.Sub(s.forgot) >= time.Hour
	if forget {
		s.forgot = now
	}
	s.mu.Unlock()
	slices.SortFunc(keys, func(a, b Key) int {
		if a.String() < b.String() {
			return -1
		}
		return 1
	})
	for _, k := range keys {
		s.tickOne(ctx, k, now)
	}
	s.tournaments.retryTournaments(ctx, now)
	if forget {
		if err := s.store.Forget(ctx, now.Add(-RequestIDsKept)); err != nil {
			s.log.Error("forgetting request ids failed", "err", err)
		}
	}
	s.metrics.Ticked()
}

func (s *Service) tickOne(ctx context.Context, key Key, now time.Time) {
	e, err := s.acquire(ctx, key)
	if err != nil {
		return // acquire logged it
	}
	defer s.release(e)
	cur := e.cur
	switch cur.phase() {
	case PhaseChallenge:
		if cur.rec.Expires.IsZero() || now.Before(cur.rec.Expires) {
			return
		}
		ev := Event{Kind: EvExpired, Seat: -1}
		if err := s.commit(ctx, e, nil, "", &ev); err != nil {
			return // commit logged it
		}
		s.metrics.Fired(DeadlineExpired)
		s.log.Info("challenge expired", key.LogAttr())
		s.send(ctx, Notice{Kind: NoticeExpired, Key: key, Session: ev.Session, Seat: -1})
	case PhasePlaying:
		r := cur.rec
		if r.Deadline.IsZero() {
			return
		}
		if !now.Before(r.Deadline) {
			s.mu.Lock()
			if s.jobs[key] == nil {
				if w := cur.waiting(); len(w) > 0 {
					s.startJob(key, cur, w[0], true)
					s.metrics.Fired(DeadlineAutoMove)
				}
			}
			s.mu.Unlock()
			return
		}
		if r.Reminded {
			return
		}
		next := cur.clone()
		next.rec.Reminded = true
		ev := Event{Kind: EvReminded, Seat: -1}
		if err := s.commit(ctx, e, next, "", &ev); err != nil {
			return
		}
		s.metrics.Fired(DeadlineReminder)
		for _, seat := range next.waiting() {
			if u := next.rec.Seats[seat]; !u.Computer {
				s.send(ctx, Notice{Kind: NoticeReminder, Key: key, To: u, Session: ev.Session, Seat: seat,
					Left: r.Deadline.Sub(now)})
			}
		}
	}
}

// Run calls Tick every interval (0: every 5 seconds) until ctx is done.
func (s *Service) Run(ctx context.Context, every time.Duration) {
	if every <= 0 {
		every = 5 * time.Second
	}
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		s.Tick(ctx)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

func (s *Service) send(ctx context.Context, n Notice) {
	if s.notify != nil {
		s.notify.Notify(ctx, n)
	}
}
