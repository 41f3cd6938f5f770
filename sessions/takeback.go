package sessions

import (
	"context"
	"slices"
)

// Takeback asks to take the user's last move back, before the opponent
// has moved; the opponent answers with Accept or Decline. Against the
// computer the takeback is granted at once and takes back the computer's
// reply too; against yourself it is granted at once.
func (s *Service) Takeback(ctx context.Context, req Request) (Event, error) {
	return s.change(ctx, req, func(cur *live) (*live, Event, error) {
		seats, err := playing(cur, req.User)
		if err != nil {
			return nil, Event{}, err
		}
		acts := cur.rec.Actions
		if isComputerGame(cur.rec) {
			for i := len(acts) - 1; i >= 0; i-- {
				a := acts[i]
				if cur.rec.Seats[a.Seat].Computer {
					continue
				}
				if a.Kind != ActMove {
					break
				}
				return s.takeBack(cur, a.Seat)
			}
			return nil, Event{}, errf(ErrNoTakeback, nil, "no move of %s to take back", req.User.Name)
		}
		last := lastMove(acts)
		if last < 0 || !slices.Contains(seats, acts[last].Seat) {
			return nil, Event{}, errf(ErrNoTakeback, nil, "the last move is not %s's", req.User.Name)
		}
		if leftSince(acts, last) {
			return nil, Event{}, errf(ErrNoTakeback, nil, "a player has left the game since the last move")
		}
		seat := acts[last].Seat
		if !slices.ContainsFunc(cur.rec.Seats, func(u User) bool { return !u.Is(req.User) }) {
			// Against yourself there is no one to ask: granted at once.
			return s.takeBack(cur, seat)
		}
		if slices.Contains(cur.rec.Takeback, seat) {
			return nil, Event{}, errf(ErrAlreadyOffered, nil, "%s asked already", req.User.Name)
		}
		next := cur.clone()
		next.rec.Takeback = []int{seat}
		next.rec.Updated = s.now().UTC()
		return next, Event{Kind: EvTakebackAsked, Seat: seat}, nil
	})
}

// leftSince reports whether a player left the game after action i: a
// takeback never brings a player back.
func leftSince(acts []Action, i int) bool {
	return slices.ContainsFunc(acts[i+1:], func(a Action) bool { return a.Kind == ActRetire })
}

func lastMove(acts []Action) int {
	for i := len(acts) - 1; i >= 0; i-- {
		if acts[i].Kind == ActMove {
			return i
		}
	}
	return -1
}

// takeBack removes seat's last move (with the huff before it) and every
// action after it, and rebuilds the game state.
func (s *Service) takeBack(cur *live, seat int) (*live, Event, error) {
	acts := cur.rec.Actions
	i := len(acts) - 1
	for ; i >= 0; i-- {
		if acts[i].Kind == ActMove && acts[i].Seat == seat {
			break
		}
	}
	if i < 0 {
		return nil, Event{}, errf(ErrNoTakeback, nil, "no move to take back")
	}
	if leftSince(acts, i) {
		return nil, Event{}, errf(ErrNoTakeback, nil, "a player has left the game since the move")
	}
	for i > 0 && acts[i-1].Kind == ActHuff && acts[i-1].Seat == seat {
		i--
	}
	rec := cur.rec.Clone()
	rec.Actions = rec.Actions[:i]
	rec.Takeback, rec.DrawOffer = nil, nil
	rec.Updated = s.now().UTC()
	next, err := s.rebuild(rec)
	if err != nil {
		return nil, Event{}, errf(ErrBroken, err, "taking back")
	}
	return next, Event{Kind: EvTakenBack, Seat: seat}, nil
}

// Rematch challenges the players of the last game finished in this
// session to the same game with the same options, colours swapped (in a
// two-player game). Against the computer the new game starts at once.
// Config.Caps applies as to Challenge.
func (s *Service) Rematch(ctx context.Context, req Request) (Event, error) {
	unlock, err := s.lockSessionCaps(ctx, req)
	if err != nil {
		return Event{}, err
	}
	defer unlock()
	return s.change(ctx, req, func(cur *live) (*live, Event, error) {
		if cur != nil {
			return nil, Event{}, errf(ErrGameRunning, nil, "%s is in phase %s", req.Key, cur.rec.Phase())
		}
		hist, err := s.store.History(ctx, HistoryQuery{Key: req.Key, Limit: 1})
		if err != nil {
			return nil, Event{}, errf(storeKind(err), err, "history of %s", req.Key)
		}
		if len(hist) == 0 {
			return nil, Event{}, errf(ErrNoSuchGame, nil, "no finished game at %s", req.Key)
		}
		last := hist[0]
		mine := last.SeatsOf(req.User)
		if len(mine) == 0 {
			return nil, Event{}, errf(ErrNotPlayer, nil, "%s did not play game %s", req.User.Name, last.ID)
		}
		spec := ChallengeSpec{Game: last.Game, Options: last.Options, Play: last.Play, Computer: isComputerGame(last)}
		spec.Play.Color = ColorRandom
		if len(last.Seats) == 2 {
			spec.Play.Color = []Color{ColorBlack, ColorWhite}[mine[0]]
		}
		if !spec.Computer {
			for i, u := range last.Seats {
				if i != mine[0] && !slices.ContainsFunc(spec.Invited, u.Is) {
					spec.Invited = append(spec.Invited, u)
				}
			}
		}
		if err := s.checkSessionCap(ctx, req, spec.Computer); err != nil {
			return nil, Event{}, err
		}
		return s.newChallenge(req, spec)
	})
}
