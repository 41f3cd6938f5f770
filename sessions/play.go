package sessions

import (
	"context"
	"errors"
	"slices"
	"strings"

	"github.com/boardgamebot/bot/rules"
)

// playing checks that a game runs and that the user plays in it, and
// returns the user's seats (not those that have left the game).
func playing(cur *live, u User) ([]int, error) {
	switch cur.phase() {
	case PhaseNone:
		return nil, errf(ErrNoGame, nil, "no game")
	case PhaseChallenge:
		return nil, errf(ErrNotStarted, nil, "the challenge is not accepted yet")
	}
	if len(cur.rec.SeatsOf(u)) == 0 {
		return nil, errf(ErrNotPlayer, nil, "%s does not play here", u.Name)
	}
	seats := cur.rec.active(u)
	if len(seats) == 0 {
		return nil, errf(ErrNotPlayer, nil, "%s has left the game", u.Name)
	}
	return seats, nil
}

// active returns the seats u holds that have not left the game.
func (r *Record) active(u User) []int {
	return slices.DeleteFunc(r.SeatsOf(u), r.Retired)
}

// stillIn counts the seats that have not left the game.
func (r *Record) stillIn() int {
	n := 0
	for seat := range r.Seats {
		if !r.Retired(seat) {
			n++
		}
	}
	return n
}

// toMove checks that the user is to move and returns the seat.
func toMove(cur *live, u User) (int, error) {
	seats, err := playing(cur, u)
	if err != nil {
		return -1, err
	}
	turn := cur.state.Turn()
	if turn < 0 {
		if f, ok := cur.state.(rules.Former); ok && len(f.Pending()) > 0 {
			return -1, errf(ErrNotNow, nil, "formation step")
		}
		return -1, errf(ErrNoGame, nil, "the game is over")
	}
	if !slices.Contains(seats, turn) {
		return -1, errf(ErrNotYourTurn, nil, "seat %d is to move", turn)
	}
	return turn, nil
}

// Move plays a move in the game's notation for the user, who must be to move.
func (s *Service) Move(ctx context.Context, req Request, text string) (Event, error) {
	return s.change(ctx, req, func(cur *live) (*live, Event, error) {
		seat, err := toMove(cur, req.User)
		if err != nil {
			return nil, Event{}, err
		}
		st, m, err := cur.state.Play(text)
		if err != nil {
			return nil, Event{}, errf(ErrIllegalMove, err, "")
		}
		next := cur.clone()
		next.state, next.last = st, &m
		next.rec.DrawOffer = nil
		next.rec.Takeback = nil
		if seat < len(next.rec.Auto) {
			next.rec.Auto[seat] = 0
		}
		next.add(Action{Kind: ActMove, Seat: seat, Text: m.Text, At: s.now().UTC()})
		s.checkEnd(next)
		return next, Event{Kind: EvMoved, Seat: seat, Move: &m}, nil
	})
}

// Huff removes an opponent's piece that failed to capture (Damas with
// huff=yes); the user must be to move, and then plays a move as usual.
func (s *Service) Huff(ctx context.Context, req Request, square string) (Event, error) {
	return s.change(ctx, req, func(cur *live) (*live, Event, error) {
		seat, err := toMove(cur, req.User)
		if err != nil {
			return nil, Event{}, err
		}
		h, ok := cur.state.(rules.Huffer)
		if !ok {
			return nil, Event{}, errf(ErrNotNow, nil, "this game has no huffing")
		}
		text := strings.ToLower(strings.TrimSpace(square))
		st, err := h.Huff(text)
		if err != nil {
			if errors.Is(err, rules.ErrNotNow) {
				return nil, Event{}, errf(ErrNotNow, err, "")
			}
			return nil, Event{}, errf(ErrIllegalMove, err, "")
		}
		next := cur.clone()
		next.state = st
		next.add(Action{Kind: ActHuff, Seat: seat, Text: text, At: s.now().UTC()})
		s.checkEnd(next)
		return next, Event{Kind: EvHuffed, Seat: seat}, nil
	})
}

// Draw offers a draw, or accepts the draw the other players offer; when
// every seat still in the game agrees, the game ends drawn.
func (s *Service) Draw(ctx context.Context, req Request) (Event, error) {
	return s.change(ctx, req, func(cur *live) (*live, Event, error) {
		if _, err := playing(cur, req.User); err != nil {
			return nil, Event{}, err
		}
		return s.draw(cur, req)
	})
}

func (s *Service) draw(cur *live, req Request) (*live, Event, error) {
	if slices.ContainsFunc(cur.rec.Seats, func(u User) bool { return u.Computer }) {
		return nil, Event{}, errf(ErrNotNow, nil, "the computer plays on: no draws")
	}
	seats := cur.rec.active(req.User)
	added := false
	next := cur.clone()
	for _, seat := range seats {
		if !slices.Contains(next.rec.DrawOffer, seat) {
			next.rec.DrawOffer = append(next.rec.DrawOffer, seat)
			added = true
		}
	}
	if !added {
		return nil, Event{}, errf(ErrAlreadyOffered, nil, "%s offered already", req.User.Name)
	}
	slices.Sort(next.rec.DrawOffer)
	now := s.now().UTC()
	next.rec.Updated = now
	if len(next.rec.DrawOffer) < next.rec.stillIn() {
		return next, Event{Kind: EvDrawOffered, Seat: seats[0]}, nil
	}
	next.rec.Result = &Result{Winner: -1, Reason: rules.DrawAgreed, By: -1, Ended: now, FEN: next.state.FEN()}
	return next, Event{Kind: EvDrawAgreed, Seat: seats[0]}, nil
}

// Resign ends the game: in a two-player game the opponent wins. With more
// players, when the game's state is a rules.Retirer, the user's seats leave
// the game (ActRetire) and the others play on, until one is left, who
// wins; when no one but the computer would play on, or the game has no
// retiring, the game ends with no winner.
func (s *Service) Resign(ctx context.Context, req Request) (Event, error) {
	return s.change(ctx, req, func(cur *live) (*live, Event, error) {
		seats, err := playing(cur, req.User)
		if err != nil {
			return nil, Event{}, err
		}
		seat := seats[0]
		if t := cur.state.Turn(); slices.Contains(seats, t) {
			seat = t
		}
		if next, ok := s.retire(cur, seats, rules.Resigned); ok {
			return next, Event{Kind: EvResigned, Seat: seat, passed: next.rec.Result == nil && cur.state.Turn() != next.state.Turn()}, nil
		}
		next := cur.clone()
		res := &Result{Winner: -1, Reason: rules.Resigned, By: seat, Ended: s.now().UTC(), FEN: cur.state.FEN()}
		if len(next.rec.Seats) == 2 {
			res.Winner = 1 - seat
		}
		next.rec.Result = res
		next.rec.Updated = res.Ended
		return next, Event{Kind: EvResigned, Seat: seat}, nil
	})
}

// retire returns the session after seats have left the game (why:
// rules.Resigned, rules.Abandoned), with the others playing on, or reports false
// when that is not the way: a game of two, a game whose state is not a
// rules.Retirer, or one where no person (only the computer) would play on
// and more than one seat would be left. When one seat is left, the rules
// say it has won and the game ends.
func (s *Service) retire(cur *live, seats []int, why rules.Reason) (*live, bool) {
	if _, ok := cur.state.(rules.Retirer); !ok || len(cur.rec.Seats) <= 2 {
		return nil, false
	}
	left, person := 0, false
	for seat, u := range cur.rec.Seats {
		if !cur.rec.Retired(seat) && !slices.Contains(seats, seat) {
			left++
			person = person || !u.Computer
		}
	}
	if left == 0 || (!person && left > 1) {
		return nil, false
	}
	next := cur.clone()
	now := s.now().UTC()
	st := cur.state
	for _, seat := range seats {
		rt, ok := st.(rules.Retirer)
		if !ok {
			return nil, false
		}
		var err error
		if st, err = rt.Retire(seat); err != nil {
			s.log.Error("retiring failed", cur.rec.Key.LogAttr(), "seat", seat, "err", err)
			return nil, false
		}
		next.add(Action{Kind: ActRetire, Seat: seat, Text: string(why), At: now})
	}
	next.state = st
	next.rec.DrawOffer = nil
	next.rec.Takeback = nil
	s.checkEnd(next)
	return next, true
}

// checkEnd records the end of the game when the rules say it is over.
func (s *Service) checkEnd(l *live) {
	o := l.state.Outcome()
	if !o.Over {
		return
	}
	l.rec.Result = &Result{Winner: o.Winner, Reason: o.Reason, N: o.N, By: -1, Ended: l.rec.Updated, FEN: l.state.FEN()}
}
