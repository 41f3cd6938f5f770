package sessions

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/boardgamebot/bot/rules"
)

// change runs fn on the session of req.Key under its lock, commits what fn
// returns in one transaction and only then makes it the session's state.
// fn must not modify cur; it returns the next session (nil: the session is
// removed) and the event to report.
func (s *Service) change(ctx context.Context, req Request, fn func(cur *live) (*live, Event, error)) (Event, error) {
	ev, err := s.changeLocked(ctx, req, fn)
	if err == nil && ev.tourEnded != "" {
		s.tournaments.advance(ctx, ev.tourEnded) // outside the session's lock
	}
	return ev, err
}

// changeLocked is change under the session's lock.
func (s *Service) changeLocked(ctx context.Context, req Request, fn func(cur *live) (*live, Event, error)) (Event, error) {
	if strings.TrimSpace(req.User.Name) == "" && req.User.ID == "" {
		return Event{}, errf(ErrNotPlayer, nil, "anonymous request")
	}
	e, err := s.acquire(ctx, req.Key)
	if err != nil {
		return Event{}, err
	}
	defer s.release(e)
	for retry := true; ; retry = false {
		ev, err := s.try(ctx, e, req, fn)
		if retry && errors.Is(err, ErrConflict) {
			// Another process changed the session first: load it again
			// and judge the request on what it is now, once.
			if err := s.load(ctx, e); err != nil {
				return Event{}, err
			}
			continue
		}
		if err != nil {
			return Event{}, err
		}
		if req.Elsewhere && s.notify != nil {
			s.notify.Notify(ctx, Notice{Kind: NoticeEvent, Key: req.Key, Session: ev.Session, Event: &ev})
		}
		s.sendNotices(ctx, req.User, ev)
		return ev, nil
	}
}

// try runs fn on the session of e (locked) and commits what it returns.
func (s *Service) try(ctx context.Context, e *entry, req Request, fn func(cur *live) (*live, Event, error)) (Event, error) {
	if req.ID != "" {
		seen, err := s.store.Seen(ctx, req.Key.Platform, req.ID)
		if err != nil {
			s.storeFailed("reading request ids failed", err, req.Key.LogAttr())
			return Event{}, &Error{Kind: storeKind(err), Err: err, Session: e.cur.snapshot()}
		}
		if seen {
			return Event{}, &Error{Kind: ErrDuplicate, Msg: "request " + req.ID, Session: e.cur.snapshot()}
		}
	}
	if !req.Game.IsZero() && (e.cur == nil || !e.cur.rec.Created.Equal(req.Game)) {
		return Event{}, errf(ErrNoGame, nil, "the game of %s created %s is over", req.Key, req.Game)
	}
	next, ev, err := fn(e.cur)
	if err != nil {
		var se *Error
		if errors.As(err, &se) && se.Session == nil && e.cur != nil {
			se.Session = e.cur.snapshot()
		}
		return Event{}, err
	}
	ev.By = req.User
	if next != nil && next != e.cur && next.rec.Community == "" {
		next.rec.Community = req.Community // a game an older bot started
	}
	if err := s.commit(ctx, e, next, req.ID, &ev); err != nil {
		return Event{}, err
	}
	return ev, nil
}

// commit commits next as the session of e (locked), with the clock, the
// version, the ratings of a finished game and the request id, and only then
// makes it the session's state. It fills ev.Session. The end of a
// tournament game writes its result in the tournament in the same
// transaction (ev.tourEnded says which, for advance); ev.tourPut, when
// set, is written with the change too.
func (s *Service) commit(ctx context.Context, e *entry, next *live, reqID string, ev *Event) error {
	now := s.now().UTC()
	c := &Change{Key: e.key, Request: reqID, At: now, Tournament: ev.tourPut}
	if next != nil {
		next.rec.Version = 1
		if e.cur != nil {
			next.rec.Version = e.cur.rec.Version + 1
		}
		s.clock(e.cur, next, now)
		snapshot(e.cur, next)
		if next.rec.Result != nil {
			c.Finished = next.rec
			c.Rate = rateRequest(next.rec)
		} else {
			c.Live = next.rec
		}
	}
	if c.Finished != nil && c.Finished.Tour != nil {
		unlock, err := s.tournaments.tourResult(ctx, c)
		if err != nil {
			var se *Error
			if errors.As(err, &se) {
				se.Session = e.cur.snapshot()
			}
			return err
		}
		defer unlock()
	}
	began := time.Now()
	err := s.tournaments.commitTour(ctx, c)
	s.metrics.Committed(time.Since(began), ev.Move != nil, err)
	if err != nil {
		if errors.Is(err, ErrDuplicate) {
			return &Error{Kind: ErrDuplicate, Msg: "request " + reqID, Session: e.cur.snapshot()}
		}
		if errors.Is(err, ErrConflict) {
			// What this process holds is stale: the next acquire loads
			// the session again.
			e.loaded = false
			return &Error{Kind: ErrStorage, Err: err, Session: e.cur.snapshot()}
		}
		s.storeFailed("commit failed", err, e.key.LogAttr())
		if errors.Is(err, ErrUnknownOutcome) {
			// The change may be stored: load the session again on its
			// next use, whatever the store holds.
			e.loaded = false
		}
		return &Error{Kind: storeKind(err), Err: err, Session: e.cur.snapshot()}
	}
	s.reviewEnded(c)
	if c.Finished != nil && c.Finished.Tour != nil && c.Tournament != nil {
		ev.tourEnded = c.Tournament.ID
	}
	if next != nil {
		ev.Session = next.snapshot()
	} else {
		ev.Session = e.cur.snapshot()
	}
	if s.changed != nil {
		switch {
		case next != nil:
			s.changed(e.key, ev.Session)
		default:
			s.changed(e.key, nil)
		}
	}
	if next != nil && next.rec.Result != nil {
		next = nil
	}
	e.cur = next
	s.track(e)
	return nil
}

func (s *Service) sendNotices(ctx context.Context, actor User, ev Event) {
	if s.notify == nil || ev.Session == nil || ev.Session.State == nil {
		return
	}
	snap := ev.Session
	if ev.Ended() {
		for _, u := range snap.Record.Seats {
			if !u.Is(actor) && !u.Computer {
				s.notify.Notify(ctx, Notice{Kind: NoticeGameOver, Key: snap.Record.Key, To: u, Session: snap})
			}
		}
		if snap.Record.Tour != nil {
			// Last: the place closes after the game's end was told there.
			s.notify.Notify(ctx, Notice{Kind: NoticePlaceDone, Key: snap.Record.Key, Session: snap})
		}
		return
	}
	if ev.Kind == EvResigned && !ev.passed {
		return // a player left who was not to move: the turn stays where it was
	}
	switch ev.Kind {
	case EvStarted, EvMoved, EvFormed, EvHuffed, EvTakenBack, EvResigned:
		if t := snap.Turn(); t >= 0 && !snap.Player(t).Is(actor) && !snap.Player(t).Computer {
			s.notify.Notify(ctx, Notice{Kind: NoticeYourTurn, Key: snap.Record.Key, To: snap.Player(t), Session: snap})
		}
	}
}

// acquire locks the session of key, loading it from the store the first time.
func (s *Service) acquire(ctx context.Context, key Key) (*entry, error) {
	s.mu.Lock()
	e := s.sessions[key]
	if e == nil {
		e = &entry{key: key, lock: make(chan struct{}, 1)}
		s.sessions[key] = e
	} else {
		e.unlink()
	}
	s.lru.insert(e)
	e.refs++
	s.mu.Unlock()
	select {
	case e.lock <- struct{}{}:
	case <-ctx.Done():
		s.mu.Lock()
		e.refs--
		s.mu.Unlock()
		return nil, errf(ErrStorage, ctx.Err(), "waiting for %s", key)
	}
	if e.loaded {
		if sh, ok := s.store.(SharedStore); ok {
			changed, err := sh.Changed(ctx, key)
			if err != nil {
				s.release(e)
				s.storeFailed("checking the session's revision failed", err, key.LogAttr())
				return nil, errf(storeKind(err), err, "checking %s", key)
			}
			e.loaded = !changed
		}
	}
	if e.loaded {
		return e, nil
	}
	if err := s.load(ctx, e); err != nil {
		s.release(e)
		return nil, err
	}
	return e, nil
}

// load reads the session of e (locked) from the store.
func (s *Service) load(ctx context.Context, e *entry) error {
	key := e.key
	rec, err := s.store.Load(ctx, key)
	switch {
	case errors.Is(err, ErrNotFound):
		e.cur = nil
	case errors.Is(err, ErrDamaged):
		return errf(ErrDamaged, err, "loading %s", key) // the store logged the damage
	case err != nil:
		s.log.Error("load failed", key.LogAttr(), "err", err)
		return errf(ErrStorage, err, "loading %s", key)
	default:
		l, err := s.resume(rec)
		if err != nil {
			s.log.Error("replay failed", key.LogAttr(), "err", err)
			return errf(ErrBroken, err, "replaying %s", key)
		}
		e.cur = l
		s.metrics.Loaded()
	}
	e.loaded = true
	s.track(e)
	return nil
}

// snapshot sets next's Snap, the state its session loads from: the
// state before the last action when the change added one to cur's and
// that state is a rules.Saver; cur's snapshot when it still holds; none
// for a finished game (its record is replayed in full) or after a
// takeback below it.
func snapshot(cur, next *live) {
	r := next.rec
	if cur != nil && cur.state != nil && len(r.Actions) == len(cur.rec.Actions)+1 {
		if sv, ok := cur.state.(rules.Saver); ok {
			r.Snap, r.SnapAt = sv.Save(), len(cur.rec.Actions)
			return
		}
	}
	if r.Result != nil || r.SnapAt > len(r.Actions) {
		r.Snap, r.SnapAt = nil, 0
	}
}

// release unlocks the session; an entry without a session that nobody
// holds or waits for leaves the map, so that memory holds only the
// sessions in play, and so do the sessions used least recently beyond
// Config.Resident.
func (s *Service) release(e *entry) {
	s.mu.Lock()
	e.refs--
	if e.refs == 0 && e.loaded && e.cur == nil {
		s.drop(e)
	}
	// A few steps from the end at most: the entries there are seldom busy.
	for x, n := s.lru.prev, 0; len(s.sessions) > s.resident && x != &s.lru && n < 16; n++ {
		prev := x.prev
		if x.refs == 0 && s.jobs[x.key] == nil {
			s.drop(x) // its clock stays in s.due: Tick loads it again
		}
		x = prev
	}
	s.mu.Unlock()
	<-e.lock
}

// drop forgets the entry e (s.mu held).
func (s *Service) drop(e *entry) {
	delete(s.sessions, e.key)
	e.unlink()
}

// insert puts e after the ring's head l.
func (l *entry) insert(e *entry) {
	e.prev, e.next = l, l.next
	l.next.prev = e
	l.next = e
}

// unlink takes e out of its ring, if it is in one.
func (e *entry) unlink() {
	if e.next != nil {
		e.prev.next, e.next.prev = e.next, e.prev
		e.prev, e.next = nil, nil
	}
}
