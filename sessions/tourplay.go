package sessions

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/boardgamebot/bot/rules"
	"github.com/boardgamebot/bot/sessions/tournament"
)

// The terms of /tournament new and start.
const (
	// DefaultSwissRounds is a Swiss's number of rounds without rounds=.
	DefaultSwissRounds = 3
	// MaxSwissRounds is the most rounds a Swiss takes.
	MaxSwissRounds = 11
	// MinTourPlayers is the fewest players a tournament starts with.
	MinTourPlayers = 3
	// MaxRoundRobinPlayers is the most players of a round-robin.
	MaxRoundRobinPlayers = 12
	// tourRetries bounds the loads again after another process changed a
	// tournament first (ErrConflict).
	tourRetries = 5
	// TourRetryEvery is how long Tick waits before it tries again to open a
	// tournament game whose place did not open (the platform failed), or
	// to store a round the store failed to write.
	TourRetryEvery = time.Minute
	// TourStallAfter is how long after a round was paired its games may
	// stay unopened before Tick takes the process that paired it for dead
	// (it stopped, or crashed, while opening them) and opens them itself;
	// every TourRetryEvery, Tick looks at the running tournaments for such
	// rounds, and for complete rounds whose next one nobody paired.
	TourStallAfter = 10 * time.Minute
)

// Tournaments runs the tournaments of a Service: their signup, their
// rounds, the games it opens for them in places of the platforms
// (Config.Places) as sessions of the Service, and the results of those
// games, which the Service commits with the games' ends (commitTour).
// The Service's tournament methods are its facade.
type Tournaments struct {
	// svc runs the tournaments' games and tells their news.
	svc    *Service
	store  Store
	now    func() time.Time
	log    *slog.Logger
	games  func(id string, opts map[string]string) (rules.Game, error)
	places PlaceSet
	tours  tourLocks
}

// tourLocks serialises the changes of each tournament inside the process
// (by tournament id; by channel for /tournament new). The lock order is a
// session's lock, then a tournament's: nothing takes a session's lock while
// it holds a tournament's.
type tourLocks struct {
	mu sync.Mutex
	m  map[string]*tourLock
	// stuck are the tournaments where opening a game or storing the next
	// round failed, with when Tick tries again.
	stuck map[string]time.Time
	// swept is when Tick last looked at every running tournament.
	swept time.Time
	// opening are the tournaments whose games a goroutine opens now.
	opening map[string]bool
}

type tourLock struct {
	ch   chan struct{}
	refs int
}

// lockTour takes the lock of name and returns its unlock.
func (tr *Tournaments) lockTour(ctx context.Context, name string) (func(), error) {
	l := &tr.tours
	l.mu.Lock()
	if l.m == nil {
		l.m = map[string]*tourLock{}
	}
	x := l.m[name]
	if x == nil {
		x = &tourLock{ch: make(chan struct{}, 1)}
		l.m[name] = x
	}
	x.refs++
	l.mu.Unlock()
	drop := func() {
		l.mu.Lock()
		if x.refs--; x.refs == 0 {
			delete(l.m, name)
		}
		l.mu.Unlock()
	}
	select {
	case x.ch <- struct{}{}:
	case <-ctx.Done():
		drop()
		return nil, errf(ErrStorage, ctx.Err(), "waiting for tournament %s", name)
	}
	return func() { <-x.ch; drop() }, nil
}

// NewTournament opens sign-up for a tournament in req.Key's channel, with
// req.User as its organiser. Refused with ErrTournamentOpen when one is
// active in the channel, ErrBadOption for a bad game, option or format (the
// four-player Halma is not offered), ErrNoPlaces when the platform cannot
// open game places here.
func (tr *Tournaments) NewTournament(ctx context.Context, req Request, spec TournamentSpec) (TourEvent, error) {
	if req.User.ID == "" {
		return TourEvent{}, errf(ErrNotPlayer, nil, "a tournament's organiser needs a user id")
	}
	game, err := tr.games(spec.Game, spec.Options)
	if err != nil {
		return TourEvent{}, errf(ErrBadOption, err, "")
	}
	if n := len(game.Seats()); n != 2 {
		return TourEvent{}, badValue("players", strconv.Itoa(n), []string{"2"})
	}
	format := spec.Format
	switch format {
	case "":
		format = FormatSwiss
	case FormatSwiss, FormatRoundRobin:
	default:
		return TourEvent{}, badValue("format", string(format), []string{string(FormatSwiss), string(FormatRoundRobin)})
	}
	rounds := 0
	if format == FormatSwiss {
		rounds = spec.Rounds
		if rounds == 0 {
			rounds = DefaultSwissRounds
		}
		if rounds < 1 || rounds > MaxSwissRounds {
			return TourEvent{}, badValue("rounds", strconv.Itoa(rounds), []string{"1-" + strconv.Itoa(MaxSwissRounds)})
		}
	}
	if err := tr.checkPlaces(ctx, req.Key); err != nil {
		return TourEvent{}, err
	}
	play := spec.Play
	play.Color, play.Level = "", 0
	if play.Time == TimeDefault {
		play.Time = tr.svc.DefaultTime(req.Key.Platform)
	}
	play.Time = max(play.Time, 0)

	release, err := tr.svc.capTournaments(ctx, req) // Config.Caps.Tournaments
	if err != nil {
		return TourEvent{}, err
	}
	defer release()
	unlock, err := tr.lockTour(ctx, "at\x00"+req.Key.Platform+"\x00"+req.Key.Channel)
	if err != nil {
		return TourEvent{}, err
	}
	defer unlock()
	if cur, err := tr.tourAt(ctx, req.Key); err != nil {
		return TourEvent{}, err
	} else if cur != nil && cur.Status.Active() {
		return TourEvent{Tournament: cur}, errf(ErrTournamentOpen, nil, "tournament %s is %s", cur.ID, cur.Status)
	}
	t := &Tournament{V: TournamentVersion, Rev: 1, Key: req.Key, Community: req.Community, Organiser: req.User, Game: game.ID(),
		Options: game.Options(), Play: play, Format: format, Rounds: rounds, Double: spec.Double && format == FormatRoundRobin,
		Status: StatusSignup, Created: tr.now().UTC()}
	if err := tr.store.PutTournament(ctx, t); errors.Is(err, ErrTournamentOpen) {
		// Another process opened one in the channel first: the store
		// keeps a channel to one active tournament.
		ev := TourEvent{}
		if cur, cerr := tr.tourAt(ctx, req.Key); cerr == nil && cur != nil {
			ev.Tournament = cur
		}
		return ev, errf(ErrTournamentOpen, nil, "%v", err)
	} else if err != nil {
		tr.svc.storeFailed("writing a tournament failed", err, "key", req.Key.String())
		return TourEvent{}, errf(storeKind(err), err, "new tournament")
	}
	return tr.tourEvent(TourOpened, req.User, 0, t), nil
}

// checkPlaces asks the platform's Places whether games can be opened under key.
func (tr *Tournaments) checkPlaces(ctx context.Context, key Key) error {
	v := tr.places[key.Platform]
	if v == nil {
		return &Error{Kind: ErrNoPlaces, Err: &NoPlaces{Problem: PlaceNone}}
	}
	err := v.CheckPlaces(ctx, key)
	if err == nil {
		return nil
	}
	var se *Error
	if errors.As(err, &se) && se.Kind == ErrNoPlaces {
		return se
	}
	var nv *NoPlaces
	if errors.As(err, &nv) {
		return &Error{Kind: ErrNoPlaces, Err: nv}
	}
	// Not a reason of the platform's: it could not be asked.
	tr.log.Warn("checking a platform's tournament venues failed", key.LogAttr(), "err", err)
	return &Error{Kind: ErrNoPlaces, Err: fmt.Errorf("%w: %w", &NoPlaces{Problem: PlaceUnreachable}, err)}
}

// tourAt returns the newest tournament of key's channel, nil when none.
func (tr *Tournaments) tourAt(ctx context.Context, key Key) (*Tournament, error) {
	ts, err := tr.store.TournamentsAt(ctx, key, 1)
	if err != nil {
		tr.svc.storeFailed("reading tournaments failed", err, "key", key.String())
		return nil, errf(storeKind(err), err, "tournaments at %s", key)
	}
	if len(ts) == 0 {
		return nil, nil
	}
	return ts[0], nil
}

// loadTour reads the tournament with this id.
func (tr *Tournaments) loadTour(ctx context.Context, id string) (*Tournament, error) {
	t, err := tr.store.Tournament(ctx, id)
	if errors.Is(err, ErrNotFound) {
		return nil, errf(ErrNoTournament, nil, "tournament %q", id)
	}
	if err != nil {
		tr.svc.storeFailed("reading a tournament failed", err, "tournament", id)
		return nil, errf(storeKind(err), err, "tournament %q", id)
	}
	return t, nil
}

// putTour writes t at its next revision (t.Rev is bumped first; a
// failure leaves it bumped). A conflict is returned as is (wrapping
// ErrConflict) for the caller to load again; other failures as an *Error.
func (tr *Tournaments) putTour(ctx context.Context, t *Tournament) error {
	t.Rev++
	err := tr.store.PutTournament(ctx, t)
	if err == nil || errors.Is(err, ErrConflict) {
		return err
	}
	tr.svc.storeFailed("writing a tournament failed", err, "tournament", t.ID)
	return errf(storeKind(err), err, "tournament %s", t.ID)
}

// changeTour runs fn on the active tournament of key's channel under its
// lock and writes what fn made of it, loading it again and re-running fn
// when another process wrote it first. fn changes t in place; it returns
// false when there is nothing to write.
func (tr *Tournaments) changeTour(ctx context.Context, key Key, fn func(t *Tournament) (bool, error)) (*Tournament, error) {
	t, err := tr.tourAt(ctx, key)
	if err != nil {
		return nil, err
	}
	if t == nil || !t.Status.Active() {
		return t, errf(ErrNoTournament, nil, "no active tournament at %s", key)
	}
	return tr.changeTourID(ctx, t.ID, fn)
}

// changeTourID is changeTour on the tournament with this id.
func (tr *Tournaments) changeTourID(ctx context.Context, id string, fn func(t *Tournament) (bool, error)) (*Tournament, error) {
	unlock, err := tr.lockTour(ctx, id)
	if err != nil {
		return nil, err
	}
	defer unlock()
	for try := 0; ; try++ {
		t, err := tr.loadTour(ctx, id)
		if err != nil {
			return nil, err
		}
		write, err := fn(t)
		if err != nil || !write {
			return t, err
		}
		err = tr.putTour(ctx, t)
		if errors.Is(err, ErrConflict) && try < tourRetries {
			continue
		}
		if errors.Is(err, ErrConflict) {
			return nil, errf(ErrStorage, err, "tournament %s keeps changing", id)
		}
		return t, err
	}
}

// entrant returns the index of u in t.Players, -1 when not entered.
func (t *Tournament) entrant(u User) int {
	return slices.IndexFunc(t.Players, func(e Entrant) bool { return e.User.Is(u) })
}

// mayDirect reports whether the request may start or cancel t.
func mayDirect(t *Tournament, req Request) bool {
	return req.Manager || t.Organiser.Is(req.User)
}

// JoinTournament enters req.User in the active tournament of req.Key's
// channel: during sign-up, or (a Swiss) while it runs, with zero points,
// when a round is left to pair them in (else ErrNoRoundLeft). A player
// who left a running tournament cannot come back (ErrWithdrawn).
func (tr *Tournaments) JoinTournament(ctx context.Context, req Request) (TourEvent, error) {
	if req.User.ID == "" || req.User.Computer {
		return TourEvent{}, errf(ErrNotPlayer, nil, "a player needs a user id")
	}
	var rating int
	t, err := tr.changeTour(ctx, req.Key, func(t *Tournament) (bool, error) {
		i := t.entrant(req.User)
		switch {
		case i >= 0 && t.Players[i].Left > 0:
			return false, errf(ErrWithdrawn, nil, "%s left tournament %s in round %d", req.User.Name, t.ID, t.Players[i].Left)
		case i >= 0:
			return false, errf(ErrAlreadyJoined, nil, "%s is entered", req.User.Name)
		case t.Status == StatusRunning && t.Format == FormatSwiss && len(t.Played) >= t.Rounds:
			// Paired from the next round on: there is none.
			return false, errf(ErrNoRoundLeft, nil, "tournament %s plays its last round, %d", t.ID, len(t.Played))
		case t.Status == StatusRunning && t.Format == FormatSwiss:
		case t.Status != StatusSignup:
			return false, errf(ErrSignupClosed, nil, "tournament %s is %s", t.ID, t.Status)
		}
		if rating == 0 {
			r, err := tr.tourRating(ctx, t, req.User)
			if err != nil {
				return false, err
			}
			rating = r
		}
		t.Players = append(t.Players, Entrant{User: req.User, Rating: rating, Joined: len(t.Played)})
		return true, nil
	})
	if err != nil {
		return tr.tourRefusal(t, err)
	}
	return tr.tourEvent(TourJoined, req.User, len(t.Played), t), nil
}

// tourRating is u's all-time rating in t's game.
func (tr *Tournaments) tourRating(ctx context.Context, t *Tournament, u User) (int, error) {
	st, err := tr.store.Standings(ctx, t.Key.Platform, u.ID, t.Game)
	if err != nil {
		tr.svc.storeFailed("reading ratings failed", err)
		return 0, errf(storeKind(err), err, "ratings")
	}
	for _, x := range st {
		if x.Period == AllTime {
			return x.Rating, nil
		}
	}
	return StartRating, nil
}

// LeaveTournament takes req.User out of the active tournament of the
// channel: during sign-up they are simply gone; while it runs, their game
// under way is resigned and they forfeit every later game.
func (tr *Tournaments) LeaveTournament(ctx context.Context, req Request) (TourEvent, error) {
	var resign []Key
	t, err := tr.changeTour(ctx, req.Key, func(t *Tournament) (bool, error) {
		resign = nil
		i := t.entrant(req.User)
		if i < 0 || t.Players[i].Left > 0 {
			return false, errf(ErrNotEntered, nil, "%s is not entered", req.User.Name)
		}
		if t.Status == StatusSignup {
			t.Players = slices.Delete(t.Players, i, i+1)
			return true, nil
		}
		id := t.Players[i].User.ID
		t.Players[i].Left = len(t.Played)
		if n := len(t.Played); n > 0 {
			games := t.Played[n-1].Games
			for b, g := range games {
				if g.Result != tournament.Pending || (g.White != id && g.Black != id) {
					continue
				}
				if g.Key == (Key{}) {
					games[b].Result = forfeitOf(g, id) // not opened yet: no game to resign
				} else {
					resign = append(resign, g.Key)
				}
			}
		}
		return true, nil
	})
	if err != nil {
		return tr.tourRefusal(t, err)
	}
	round := len(t.Played)
	for _, k := range resign {
		// The game's end records its result and may end the round.
		if _, err := tr.svc.Resign(ctx, Request{Key: k, User: req.User}); err != nil && KindOf(err) != ErrNoGame {
			tr.log.Error("resigning a tournament game failed", "tournament", t.ID, k.LogAttr(), "err", err)
		}
	}
	if len(resign) == 0 && t.Status == StatusRunning {
		tr.advance(ctx, t.ID) // a forfeit may have completed the round
	}
	if again, err := tr.loadTour(ctx, t.ID); err == nil {
		t = again
	}
	return tr.tourEvent(TourLeft, req.User, round, t), nil
}

// forfeitOf is the result of g when the player id does not play it.
func forfeitOf(g TourGame, id string) tournament.Result {
	if g.White == id {
		return tournament.BlackByForfeit
	}
	return tournament.WhiteByForfeit
}

// StartTournament closes sign-up and pairs round 1, opening its games
// (organiser or Request.Manager only). Two starts at once start once.
func (tr *Tournaments) StartTournament(ctx context.Context, req Request) (TourEvent, error) {
	t, err := tr.changeTour(ctx, req.Key, func(t *Tournament) (bool, error) {
		if !mayDirect(t, req) {
			return false, errf(ErrNotOrganiser, nil, "%s did not open tournament %s", req.User.Name, t.ID)
		}
		if t.Status != StatusSignup {
			return false, errf(ErrSignupClosed, nil, "tournament %s is %s", t.ID, t.Status)
		}
		n, limit := len(t.Players), 0
		if t.Format == FormatRoundRobin {
			limit = MaxRoundRobinPlayers
		}
		if n < MinTourPlayers || limit > 0 && n > limit {
			return false, &Error{Kind: ErrPlayerCount, Err: &BadCount{Players: n, Min: MinTourPlayers, Max: limit}}
		}
		if tr.places[t.Key.Platform] == nil {
			return false, &Error{Kind: ErrNoPlaces, Err: &NoPlaces{Problem: PlaceNone}}
		}
		if t.Format == FormatRoundRobin {
			rounds, err := tournament.RoundRobin(t.ids(), t.Double)
			if err != nil {
				return false, errf(ErrPlayerCount, &BadCount{Players: n, Min: MinTourPlayers, Max: limit}, "%v", err)
			}
			t.Rounds = len(rounds)
		}
		t.Played = nil
		r, err := tr.pair(t)
		if err != nil {
			return false, errf(ErrPlayerCount, &BadCount{Players: n, Min: MinTourPlayers, Max: limit}, "round 1: %v", err)
		}
		t.Status, t.Started = StatusRunning, tr.now().UTC()
		t.Played = append(t.Played, r)
		return true, nil
	})
	if err != nil {
		return tr.tourRefusal(t, err)
	}
	t = tr.openRound(ctx, t, 1, false)
	tr.advance(ctx, t.ID) // a round of byes and forfeits only is over already
	if again, err := tr.loadTour(ctx, t.ID); err == nil {
		t = again
	}
	return tr.tourEvent(TourStarted, req.User, 1, t), nil
}

// ids returns the players' user ids in sign-up order.
func (t *Tournament) ids() []string {
	out := make([]string, len(t.Players))
	for i, e := range t.Players {
		out[i] = e.User.ID
	}
	return out
}

// CancelTournament cancels the active tournament of the channel
// (organiser or Request.Manager only); games under way play on, unrated
// for the tournament.
func (tr *Tournaments) CancelTournament(ctx context.Context, req Request) (TourEvent, error) {
	t, err := tr.changeTour(ctx, req.Key, func(t *Tournament) (bool, error) {
		if !mayDirect(t, req) {
			return false, errf(ErrNotOrganiser, nil, "%s did not open tournament %s", req.User.Name, t.ID)
		}
		if !t.Status.Active() {
			return false, errf(ErrSignupClosed, nil, "tournament %s is %s", t.ID, t.Status)
		}
		t.Status, t.Ended = StatusCancelled, tr.now().UTC()
		return true, nil
	})
	if err != nil {
		return tr.tourRefusal(t, err)
	}
	return tr.tourEvent(TourCancelled, req.User, len(t.Played), t), nil
}

// TournamentHere returns the active tournament of key's channel with its
// standings (or, when none is active, the last one that ended there).
func (tr *Tournaments) TournamentHere(ctx context.Context, key Key) (TourEvent, error) {
	t, err := tr.tourAt(ctx, key)
	if err != nil {
		return TourEvent{}, err
	}
	if t == nil {
		return TourEvent{}, errf(ErrNoTournament, nil, "no tournament at %s", key)
	}
	return tr.tourEvent(0, User{}, len(t.Played), t), nil
}

// TournamentByID returns a tournament of the platform with its standings
// (/tournament show); another platform's tournament is ErrNoTournament, as
// a game of another platform is not shown (Game).
func (tr *Tournaments) TournamentByID(ctx context.Context, platform, id string) (TourEvent, error) {
	id = strings.TrimPrefix(strings.TrimSpace(id), "#")
	if id == "" {
		return TourEvent{}, errf(ErrNoTournament, nil, "no id")
	}
	t, err := tr.loadTour(ctx, id)
	if err != nil {
		return TourEvent{}, err
	}
	if t.Key.Platform != platform {
		return TourEvent{}, errf(ErrNoTournament, nil, "tournament %s is on %s", id, t.Key.Platform)
	}
	return tr.tourEvent(0, User{}, len(t.Played), t), nil
}

// tourRefusal returns a refused command's error with the tournament as it
// stands (an *Error; a conflict that outlived the retries is a storage
// failure).
func (tr *Tournaments) tourRefusal(t *Tournament, err error) (TourEvent, error) {
	var se *Error
	if !errors.As(err, &se) {
		se = errf(ErrStorage, err, "")
	}
	ev := TourEvent{}
	if t != nil {
		ev = tr.tourEvent(0, User{}, len(t.Played), t)
	}
	return ev, se
}

// tourEvent builds the event of a change of t, with its standings.
func (tr *Tournaments) tourEvent(kind TourEventKind, by User, round int, t *Tournament) TourEvent {
	return TourEvent{Kind: kind, By: by, Round: round, Tournament: t, Standings: tr.standingsOf(t), Counted: t.roundsDone()}
}

// standingsOf computes t's standings (every entrant; nil during sign-up
// with nobody entered) after its complete rounds, t.roundsDone(): the
// games of a round under way count once the whole round is over.
func (tr *Tournaments) standingsOf(t *Tournament) []tournament.Standing {
	if len(t.Players) == 0 {
		return nil
	}
	st, err := tournament.Standings(t.players(), t.rounds()[:t.roundsDone()])
	if err != nil {
		tr.log.Error("tournament standings failed", "tournament", t.ID, "err", err)
		return nil
	}
	return st
}

// roundsDone is the number of t's first rounds whose every game has a
// result.
func (t *Tournament) roundsDone() int {
	for i, r := range t.Played {
		if slices.ContainsFunc(r.Games, func(g TourGame) bool { return g.Result == tournament.Pending }) {
			return i
		}
	}
	return len(t.Played)
}

// TourPlaceEnded returns the record of the tournament game that ended at
// key when key is that game's place and nothing has been played there
// since (nil otherwise): such a place serves that one game, and the
// platforms close it (a Telegram topic, a Discord thread), so adapters
// take no command there.
func (tr *Tournaments) TourPlaceEnded(ctx context.Context, key Key) (*Record, error) {
	if key.Thread == "" {
		return nil, nil // a channel is never a game's place of its own
	}
	if _, err := tr.svc.Look(ctx, key); err == nil {
		return nil, nil // a session is under way there
	} else if KindOf(err) != ErrNoGame {
		return nil, err
	}
	hist, err := tr.svc.History(ctx, HistoryQuery{Key: key, Limit: 1})
	if err != nil || len(hist) == 0 || hist[0].Tour == nil {
		return nil, err
	}
	return hist[0], nil
}

// players returns the entrants for package tournament (those who left
// withdrawn).
func (t *Tournament) players() []tournament.Player {
	out := make([]tournament.Player, len(t.Players))
	for i, e := range t.Players {
		out[i] = tournament.Player{ID: e.User.ID, Rating: e.Rating, Withdrawn: e.Left > 0}
	}
	return out
}

// rounds returns the rounds played for package tournament.
func (t *Tournament) rounds() []tournament.Round {
	out := make([]tournament.Round, len(t.Played))
	for i, r := range t.Played {
		ps := make([]tournament.Pairing, len(r.Games))
		for j, g := range r.Games {
			ps[j] = tournament.Pairing{White: g.White, Black: g.Black, Result: g.Result}
		}
		out[i] = tournament.Round{Number: r.Number, Pairings: ps}
	}
	return out
}

// NewTournament is Tournaments.NewTournament.
func (s *Service) NewTournament(ctx context.Context, req Request, spec TournamentSpec) (TourEvent, error) {
	return s.tournaments.NewTournament(ctx, req, spec)
}

// JoinTournament is Tournaments.JoinTournament.
func (s *Service) JoinTournament(ctx context.Context, req Request) (TourEvent, error) {
	return s.tournaments.JoinTournament(ctx, req)
}

// LeaveTournament is Tournaments.LeaveTournament.
func (s *Service) LeaveTournament(ctx context.Context, req Request) (TourEvent, error) {
	return s.tournaments.LeaveTournament(ctx, req)
}

// StartTournament is Tournaments.StartTournament.
func (s *Service) StartTournament(ctx context.Context, req Request) (TourEvent, error) {
	return s.tournaments.StartTournament(ctx, req)
}

// CancelTournament is Tournaments.CancelTournament.
func (s *Service) CancelTournament(ctx context.Context, req Request) (TourEvent, error) {
	return s.tournaments.CancelTournament(ctx, req)
}

// TournamentHere is Tournaments.TournamentHere.
func (s *Service) TournamentHere(ctx context.Context, key Key) (TourEvent, error) {
	return s.tournaments.TournamentHere(ctx, key)
}

// TournamentByID is Tournaments.TournamentByID.
func (s *Service) TournamentByID(ctx context.Context, platform, id string) (TourEvent, error) {
	return s.tournaments.TournamentByID(ctx, platform, id)
}

// TourPlaceEnded is Tournaments.TourPlaceEnded.
func (s *Service) TourPlaceEnded(ctx context.Context, key Key) (*Record, error) {
	return s.tournaments.TourPlaceEnded(ctx, key)
}
