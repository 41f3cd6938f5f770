package sessions

import (
	"context"
	"slices"
	"strings"

	"github.com/boardgamebot/bot/rules"
)

// ChallengeSpec is what /play asks for.
type ChallengeSpec struct {
	Game    string
	Options map[string]string
	// Invited are the users named; none means anyone may accept.
	Invited []User
	Play    PlayOptions
	// Computer: the computer takes every other seat (/play <game> bot) and
	// the game starts at once.
	Computer bool
}

// Challenge opens a challenge: a game, its options, who may accept.
// Refused with ErrCapped when the user has as many open challenges (games
// against the computer, for one) as Config.Caps allows.
func (s *Service) Challenge(ctx context.Context, req Request, spec ChallengeSpec) (Event, error) {
	unlock, err := s.lockSessionCaps(ctx, req)
	if err != nil {
		return Event{}, err
	}
	defer unlock()
	return s.change(ctx, req, func(cur *live) (*live, Event, error) {
		if cur != nil {
			return nil, Event{}, errf(ErrGameRunning, nil, "%s is in phase %s", req.Key, cur.rec.Phase())
		}
		if err := s.checkSessionCap(ctx, req, spec.Computer); err != nil {
			return nil, Event{}, err
		}
		return s.newChallenge(req, spec)
	})
}

// newChallenge builds the session of a challenge (or, against the
// computer, of a game that starts at once).
func (s *Service) newChallenge(req Request, spec ChallengeSpec) (*live, Event, error) {
	{
		game, err := s.games(spec.Game, spec.Options)
		if err != nil {
			return nil, Event{}, errf(ErrBadOption, err, "")
		}
		n := len(game.Seats())
		if len(spec.Invited) > n-1 {
			return nil, Event{}, badInvite(BadInvite{Problem: InviteTooMany, Game: game.ID(), Players: n})
		}
		for i, u := range spec.Invited {
			for _, v := range spec.Invited[:i] {
				if u.Is(v) {
					return nil, Event{}, badInvite(BadInvite{Problem: InviteTwice, Game: game.ID(), Name: u.Name})
				}
			}
		}
		if spec.Computer && len(spec.Invited) > 0 {
			return nil, Event{}, badInvite(BadInvite{Problem: InviteComputer, Game: game.ID()})
		}
		seat := 0
		switch spec.Play.Color {
		case ColorBlack:
			seat = 1
		case ColorRandom, "":
			seat = s.rand(n)
		}
		play := spec.Play
		if play.Time == TimeDefault {
			play.Time = 0
			if s.defaultTime != nil {
				play.Time = s.defaultTime(req.Key.Platform)
			}
		}
		if play.Time < 0 {
			play.Time = 0
		}
		now := s.now().UTC()
		rec := &Record{V: RecordVersion, Key: req.Key, Community: req.Community, Game: game.ID(), Options: game.Options(), Play: play,
			Challenger: req.User, Invited: slices.Clone(spec.Invited), Seats: make([]User, n),
			Created: now, Updated: now}
		rec.Seats[seat] = req.User
		if !spec.Computer {
			if s.challengeTTL > 0 {
				rec.Expires = now.Add(s.challengeTTL)
			}
			return &live{rec: rec, game: game}, Event{Kind: EvChallenged, Seat: seat}, nil
		}
		for i := range rec.Seats {
			if i != seat {
				rec.Seats[i] = ComputerUser()
			}
		}
		rec.Started = now
		rec.First = s.rand(n)
		l := &live{rec: rec, game: game}
		if l.state, err = startState(game, rec); err != nil {
			return nil, Event{}, errf(ErrBadOption, err, "cannot start")
		}
		return l, Event{Kind: EvStarted, Seat: seat}, nil
	}
}

// Accept takes a seat of the challenge; the last seat taken starts the
// game. During a game, Accept accepts a draw offered by the other players.
func (s *Service) Accept(ctx context.Context, req Request) (Event, error) {
	return s.change(ctx, req, func(cur *live) (*live, Event, error) {
		switch cur.phase() {
		case PhaseNone:
			return nil, Event{}, errf(ErrNoChallenge, nil, "nothing to accept")
		case PhasePlaying:
			if mine := cur.rec.active(req.User); len(cur.rec.Takeback) > 0 && len(mine) > 0 &&
				!slices.ContainsFunc(cur.rec.Takeback, func(seat int) bool { return slices.Contains(mine, seat) }) {
				return s.takeBack(cur, cur.rec.Takeback[0])
			}
			if len(cur.rec.DrawOffer) > 0 && len(cur.rec.active(req.User)) > 0 {
				return s.draw(cur, req)
			}
			return nil, Event{}, errf(ErrNoChallenge, nil, "a game is running and no draw or takeback is offered")
		}
		rec := cur.rec
		pending := pendingInvited(rec)
		invited := slices.ContainsFunc(pending, req.User.Is)
		if len(rec.SeatsOf(req.User)) > 0 && !invited {
			return nil, Event{}, errf(ErrAlreadyJoined, nil, "%s already holds a seat", req.User.Name)
		}
		open := 0
		for _, u := range rec.Seats {
			if u.IsZero() {
				open++
			}
		}
		if !invited && open <= len(pending) {
			return nil, Event{}, errf(ErrNotInvited, nil, "%s is not invited", req.User.Name)
		}
		next := cur.clone()
		seat := slices.IndexFunc(next.rec.Seats, User.IsZero)
		next.rec.Seats[seat] = req.User
		now := s.now().UTC()
		next.rec.Updated = now
		if open > 1 {
			return next, Event{Kind: EvJoined, Seat: seat}, nil
		}
		next.rec.Started = now
		next.rec.First = s.rand(len(next.rec.Seats))
		st, err := startState(next.game, next.rec)
		if err != nil {
			return nil, Event{}, errf(ErrBadOption, err, "cannot start")
		}
		next.state = st
		return next, Event{Kind: EvStarted, Seat: seat}, nil
	})
}

// pendingInvited returns the invited users who hold no seat yet.
func pendingInvited(rec *Record) []User {
	var out []User
	for _, u := range rec.Invited {
		if len(rec.SeatsOf(u)) == 0 || (u.Is(rec.Challenger) && len(rec.SeatsOf(u)) < 2) {
			out = append(out, u)
		}
	}
	return out
}

// Decline turns down a challenge (an invited user) or, during a game, the
// draw offered by the other players.
func (s *Service) Decline(ctx context.Context, req Request) (Event, error) {
	return s.change(ctx, req, func(cur *live) (*live, Event, error) {
		switch cur.phase() {
		case PhaseNone:
			return nil, Event{}, errf(ErrNoChallenge, nil, "nothing to decline")
		case PhasePlaying:
			seats := cur.rec.active(req.User)
			if len(cur.rec.Takeback) > 0 && len(seats) > 0 && !slices.Contains(cur.rec.Takeback, seats[0]) {
				next := cur.clone()
				next.rec.Takeback = nil
				next.rec.Updated = s.now().UTC()
				return next, Event{Kind: EvTakebackDeclined, Seat: seats[0]}, nil
			}
			if len(cur.rec.DrawOffer) == 0 || len(seats) == 0 {
				return nil, Event{}, errf(ErrNoChallenge, nil, "a game is running and no draw is offered")
			}
			next := cur.clone()
			next.rec.DrawOffer = nil
			next.rec.Updated = s.now().UTC()
			return next, Event{Kind: EvDrawDeclined, Seat: seats[0]}, nil
		}
		if !slices.ContainsFunc(pendingInvited(cur.rec), req.User.Is) {
			return nil, Event{}, errf(ErrNotInvited, nil, "%s may not decline", req.User.Name)
		}
		return nil, Event{Kind: EvDeclined, Seat: -1}, nil
	})
}

// Cancel withdraws the challenger's challenge.
func (s *Service) Cancel(ctx context.Context, req Request) (Event, error) {
	return s.change(ctx, req, func(cur *live) (*live, Event, error) {
		switch cur.phase() {
		case PhaseNone:
			return nil, Event{}, errf(ErrNoChallenge, nil, "nothing to cancel")
		case PhasePlaying:
			return nil, Event{}, errf(ErrGameRunning, nil, "the game has started")
		}
		if !cur.rec.Challenger.Is(req.User) {
			return nil, Event{}, errf(ErrNotChallenger, nil, "%s did not open the challenge", req.User.Name)
		}
		return nil, Event{Kind: EvCancelled, Seat: -1}, nil
	})
}

// Setup sets the user's formation (Ultradamas): squares, or "default".
func (s *Service) Setup(ctx context.Context, req Request, squares string) (Event, error) {
	return s.change(ctx, req, func(cur *live) (*live, Event, error) {
		seats, err := playing(cur, req.User)
		if err != nil {
			return nil, Event{}, err
		}
		f, ok := cur.state.(rules.Former)
		if !ok || len(f.Pending()) == 0 {
			return nil, Event{}, errf(ErrNotNow, nil, "no formation step now")
		}
		seat := -1
		for _, p := range f.Pending() {
			if slices.Contains(seats, p) {
				seat = p
				break
			}
		}
		if seat < 0 {
			return nil, Event{}, errf(ErrNotNow, nil, "%s has set up already", req.User.Name)
		}
		text := strings.Join(strings.Fields(squares), " ")
		st, err := f.Form(seat, text)
		if err != nil {
			return nil, Event{}, errf(ErrBadSetup, err, "")
		}
		next := cur.clone()
		next.state = st
		next.add(Action{Kind: ActForm, Seat: seat, Text: text, At: s.now().UTC()})
		s.checkEnd(next)
		return next, Event{Kind: EvFormed, Seat: seat}, nil
	})
}
