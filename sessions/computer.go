package sessions

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"slices"
	"time"

	"github.com/boardgamebot/bot/rules"
	"github.com/boardgamebot/bot/rules/ai"
)

// job is a computer search in the background for one session: the
// computer opponent's reply, or the clock's move for a player out of time.
type job struct {
	from   *live // the session searched; the result applies only if it is still current
	cancel context.CancelFunc
	done   chan struct{}
}

// startJob starts the computer's search for seat in the session from.
// auto is the clock's move for a player out of time. s.mu is held.
func (s *Service) startJob(key Key, from *live, seat int, auto bool) {
	ctx, cancel := context.WithCancel(s.base)
	j := &job{from: from, cancel: cancel, done: make(chan struct{})}
	s.jobs[key] = j
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		defer close(j.done)
		defer cancel()
		s.runJob(ctx, key, j, seat, auto)
		s.mu.Lock()
		if s.jobs[key] == j {
			delete(s.jobs, key)
		}
		s.mu.Unlock()
	}()
}

// seed varies per game and per position, so that the computer does not
// play every game alike.
func seed(r *Record) uint64 {
	h := fnv.New64a()
	fmt.Fprintf(h, "%s|%d|%d", r.Key, r.Created.UnixNano(), len(r.Actions))
	return h.Sum64()
}

// searchOwner is whose turn a search of the session r takes among the
// computer's searches (ai.WithOwner): the person playing the computer, so
// that one person's many games take one turn per round; the chat for the
// clock's moves in a game between people.
func searchOwner(r *Record, auto bool) string {
	if !auto {
		for _, u := range r.Seats {
			if !u.Computer && !u.IsZero() {
				return "user\x00" + u.Key(r.Key.Platform)
			}
		}
	}
	return "chat\x00" + r.Key.Platform + "\x00" + r.Key.Channel
}

// runJob searches off the session's lock, then applies the move as a
// normal change if the session is still the one searched.
func (s *Service) runJob(ctx context.Context, key Key, j *job, seat int, auto bool) {
	from := j.from
	ctx = ai.WithOwner(ctx, searchOwner(from.rec, auto))
	level := from.rec.Play.Level
	if auto {
		level = s.autoLevel
	}
	st, acts, moved, ok := s.computerActs(ctx, key, from, seat, level, auto)
	if !ok {
		return
	}
	e, err := s.acquire(ctx, key)
	if err != nil {
		return
	}
	var ended string
	defer func() {
		if ended != "" {
			s.tournaments.advance(s.base, ended) // after the release below: outside the session's lock
		}
	}()
	defer s.release(e)
	if e.cur != from {
		return // someone acted meanwhile: the search is stale
	}
	next := from.clone()
	now := s.now().UTC()
	next.state = st
	if moved != nil {
		next.last = moved
	}
	next.rec.DrawOffer = nil
	next.rec.Takeback = nil
	for _, a := range acts {
		a.At = now
		next.add(a)
	}
	s.checkEnd(next)
	by := from.rec.Seats[seat]
	if auto && moved != nil {
		next = s.countAuto(next, seat, now, st)
	}
	kind := EvMoved
	switch {
	case moved != nil:
	case acts[len(acts)-1].Kind == ActHuff:
		kind = EvHuffed
	default:
		kind = EvFormed
	}
	ev := Event{Kind: kind, By: by, Seat: seat, Move: moved}
	if err := s.commit(ctx, e, next, "", &ev); err != nil {
		return
	}
	ended = ev.tourEnded
	s.send(ctx, Notice{Kind: NoticeMoved, Key: key, Session: ev.Session, Seat: seat, Move: moved, Auto: auto})
	actor := by
	if auto {
		actor = User{} // the player out of time did not act: tell them too
	}
	s.sendNotices(ctx, actor, ev)
}

// computerActs is what the computer does in from, off the session's
// lock: the formations it takes (default ones), else a huff it sees and
// its move; ok is false when it does nothing (it failed, or ctx ended).
func (s *Service) computerActs(ctx context.Context, key Key, from *live, seat, level int, auto bool) (st rules.State, acts []Action, moved *rules.Move, ok bool) {
	sd := seed(from.rec)
	st = from.state
	if f, ok := st.(rules.Former); ok && len(f.Pending()) > 0 {
		for _, p := range f.Pending() {
			if !auto && !from.rec.Seats[p].Computer {
				continue
			}
			next, err := st.(rules.Former).Form(p, "default")
			if err != nil {
				s.log.Error("computer formation failed", key.LogAttr(), "err", err)
				return nil, nil, nil, false
			}
			st = next
			acts = append(acts, Action{Kind: ActForm, Seat: p, Text: "default"})
		}
	} else {
		if h, ok := st.(rules.Huffer); ok && !auto {
			if ch, ok := s.computer.(ComputerHuffer); ok && len(h.Huffable()) > 0 {
				sq, ok, err := ch.Huff(ctx, st, level, sd)
				if ctx.Err() != nil {
					return nil, nil, nil, false
				}
				if err == nil && ok {
					if next, err := h.Huff(sq.String()); err == nil {
						st = next
						acts = append(acts, Action{Kind: ActHuff, Seat: seat, Text: sq.String()})
					}
				}
			}
		}
		// A huff that took the opponent's last piece ends the game by
		// itself, with no move after it.
		if !st.Outcome().Over {
			m, err := s.search(ctx, st, level, sd)
			if ctx.Err() != nil {
				return nil, nil, nil, false
			}
			next, played, perr := st.Play(m.Text)
			if err != nil || perr != nil {
				// The search failed (a game it does not know): any legal move
				// will do, so that the game never stalls.
				moves := st.Moves()
				if len(moves) == 0 {
					s.log.Error("computer has no move", key.LogAttr(), "err", errors.Join(err, perr))
					return nil, nil, nil, false
				}
				next, played, perr = st.Play(moves[sd%uint64(len(moves))].Text)
				if perr != nil {
					s.log.Error("computer move refused", key.LogAttr(), "err", perr)
					return nil, nil, nil, false
				}
			}
			st = next
			moved = &played
			acts = append(acts, Action{Kind: ActMove, Seat: seat, Text: played.Text})
		}
	}
	return st, acts, moved, true
}

// countAuto counts a move the clock made for the player of seat in next
// (their time ran out while auto-play is on); at AutoMovesToAbandon, the
// player abandons: they leave and the others play on, or the game ends.
func (s *Service) countAuto(next *live, seat int, now time.Time, st rules.State) *live {
	for len(next.rec.Auto) < len(next.rec.Seats) {
		next.rec.Auto = append(next.rec.Auto, 0)
	}
	next.rec.Auto[seat]++
	if next.rec.Result == nil && next.rec.Auto[seat] >= AutoMovesToAbandon {
		if left, ok := s.retire(next, []int{seat}, rules.Abandoned); ok {
			// More players: the others play on without this one.
			next = left
			if next.rec.Result != nil {
				next.rec.Result.Abandoned = true
			}
		} else {
			res := &Result{Winner: -1, Reason: rules.Abandoned, N: AutoMovesToAbandon, By: seat, Ended: now, FEN: st.FEN(), Abandoned: true}
			if len(next.rec.Seats) == 2 {
				res.Winner = 1 - seat
			}
			next.rec.Result = res
		}
	}
	return next
}

// search asks the computer for a move, and tells Config.Metrics how long
// the search waited for its turn and how long it took (a state with one
// legal move is answered without a search, and not counted).
func (s *Service) search(ctx context.Context, st rules.State, level int, seed uint64) (rules.Move, error) {
	began := time.Now()
	var started time.Time
	m, err := s.computer.Move(ai.WithStart(ctx, func() { started = time.Now() }), st, level, seed)
	if err == nil && !started.IsZero() {
		s.metrics.Searched(level, started.Sub(began), time.Since(started))
	}
	return m, err
}

// Settle waits until no computer search runs for the session of key (the
// computer's reply has been applied and announced), or until ctx is done.
// Adapters that answer in order (the console) call it after each command.
func (s *Service) Settle(ctx context.Context, key Key) error {
	for {
		s.mu.Lock()
		j := s.jobs[key]
		s.mu.Unlock()
		if j == nil {
			return nil
		}
		select {
		case <-j.done:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// Close stops the computer's searches and waits for them; a search
// stopped this way changes nothing. The Service must not be used after.
func (s *Service) Close() {
	s.cancelBase()
	s.wg.Wait()
}

// isComputerGame reports whether the computer holds a seat.
func isComputerGame(r *Record) bool {
	return slices.ContainsFunc(r.Seats, func(u User) bool { return u.Computer })
}
