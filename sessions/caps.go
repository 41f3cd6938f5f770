package sessions

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
)

// Caps bound what one user may hold at once; a field of 0 is no cap. Past
// a cap, the command that would open one more is refused with ErrCapped
// (a *Capped cause saying which cap, the count and where), and nothing is
// stored.
//
// The counts come from the store, not from memory: the live sessions a
// user holds a seat in (Store.LiveOf, an index by user in bbolt and in
// etcd) and the active tournaments (Store.ActiveTournaments). So they are
// right after a restart, and on etcd they include what other processes
// opened. Inside a process, counting and storing the new one happen under
// the user's lock (taken before the session's or the channel's), so that
// one user's commands in two chats at once cannot both pass a cap; two
// processes at once may let one through past the cap, never more than
// one per process.
type Caps struct {
	// Challenges is the most open challenges (waiting for an answer) a
	// user may have opened.
	Challenges int
	// ComputerGames is the most games against the computer a user may
	// play at once.
	ComputerGames int
	// Tournaments is the most tournaments in sign-up or running a user may
	// organise at once.
	Tournaments int
}

// DefaultCaps are the bot's caps unless its configuration says otherwise
// (limits.open_challenges, limits.computer_games, limits.open_tournaments).
func DefaultCaps() Caps { return Caps{Challenges: 10, ComputerGames: 3, Tournaments: 2} }

// CapKind names a cap of Caps.
type CapKind int

// The caps.
const (
	CapChallenges    CapKind = iota + 1 // Caps.Challenges
	CapComputerGames                    // Caps.ComputerGames
	CapTournaments                      // Caps.Tournaments
)

// Capped is the cause of an ErrCapped error: which cap a command met, how
// many the user holds (Count, at least Max), the cap, and which ones: the
// sessions of the challenges or games (Keys, newest first) or the ids of
// the tournaments (Tournaments, newest first), for the adapter to word.
type Capped struct {
	Cap         CapKind
	Count       int
	Max         int
	Keys        []Key
	Tournaments []string
}

func (e *Capped) Error() string {
	what := map[CapKind]string{CapChallenges: "open challenges", CapComputerGames: "games against the computer", CapTournaments: "open tournaments"}[e.Cap]
	return fmt.Sprintf("%d %s, the most is %d", e.Count, what, e.Max)
}

// lockHolder takes the lock of what u holds on the platform, when a cap
// applies (on caps not 0), and returns its unlock.
func (s *Service) lockHolder(ctx context.Context, platform string, u User, caps ...int) (func(), error) {
	if !slices.ContainsFunc(caps, func(n int) bool { return n > 0 }) {
		return func() {}, nil
	}
	return s.tournaments.lockTour(ctx, "holder\x00"+u.Key(platform))
}

// lockSessionCaps takes u's lock for opening a challenge or a game against
// the computer.
func (s *Service) lockSessionCaps(ctx context.Context, req Request) (func(), error) {
	return s.lockHolder(ctx, req.Key.Platform, req.User, s.caps.Challenges, s.caps.ComputerGames)
}

// checkSessionCap refuses a challenge (computer: a game against the
// computer) that would take req.User past its cap. The caller holds the
// user's lock (lockSessionCaps).
func (s *Service) checkSessionCap(ctx context.Context, req Request, computer bool) error {
	cap, most := CapChallenges, s.caps.Challenges
	if computer {
		cap, most = CapComputerGames, s.caps.ComputerGames
	}
	if most <= 0 || req.User.ID == "" {
		return nil
	}
	recs, err := s.store.LiveOf(ctx, req.Key.Platform, req.User.ID)
	if err != nil && !errors.Is(err, ErrDamaged) { // a damaged session is not counted
		s.storeFailed("reading a user's live sessions failed", err, "key", req.Key.String())
		return errf(storeKind(err), err, "live sessions of %s", req.User.Name)
	}
	var held []*Record
	for _, r := range recs {
		counts := r.Phase() == PhaseChallenge && r.Challenger.Is(req.User)
		if computer {
			counts = r.Phase() == PhasePlaying && isComputerGame(r)
		}
		if counts {
			held = append(held, r)
		}
	}
	if len(held) < most {
		return nil
	}
	slices.SortFunc(held, func(a, b *Record) int { return b.Created.Compare(a.Created) })
	c := &Capped{Cap: cap, Count: len(held), Max: most}
	for _, r := range held {
		c.Keys = append(c.Keys, r.Key)
	}
	return &Error{Kind: ErrCapped, Err: c, Msg: req.User.Name}
}

// capTournaments refuses a new tournament of req.User past its cap, or
// takes the user's lock until the tournament is stored: call the unlock
// it returns then.
func (s *Service) capTournaments(ctx context.Context, req Request) (func(), error) {
	unlock, err := s.lockHolder(ctx, req.Key.Platform, req.User, s.caps.Tournaments)
	if err != nil || s.caps.Tournaments <= 0 {
		return unlock, err
	}
	active, err := s.store.ActiveTournaments(ctx)
	if err != nil && !errors.Is(err, ErrDamaged) {
		unlock()
		s.storeFailed("reading the active tournaments failed", err, "key", req.Key.String())
		return nil, errf(storeKind(err), err, "active tournaments")
	}
	var held []*Tournament
	for _, t := range active {
		if t.Key.Platform == req.Key.Platform && t.Organiser.Is(req.User) && t.Status.Active() {
			held = append(held, t)
		}
	}
	if len(held) < s.caps.Tournaments {
		return unlock, nil
	}
	unlock()
	slices.SortFunc(held, func(a, b *Tournament) int {
		return cmp.Or(b.Created.Compare(a.Created), cmp.Compare(b.ID, a.ID))
	})
	c := &Capped{Cap: CapTournaments, Count: len(held), Max: s.caps.Tournaments}
	for _, t := range held {
		c.Tournaments = append(c.Tournaments, t.ID)
	}
	return nil, &Error{Kind: ErrCapped, Err: c, Msg: req.User.Name}
}
