package sessions

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/boardgamebot/bot/rules"
	"github.com/boardgamebot/bot/rules/ai"
	"github.com/boardgamebot/bot/rules/games"
)

// Config is what a Service needs. Store is required; the rest have defaults.
type Config struct {
	Store Store
	// Notifier receives turn and game-over notices; nil sends none.
	Notifier Notifier
	// Games builds a game from its id and options; nil means games.New.
	Games func(id string, opts map[string]string) (rules.Game, error)
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Rand returns a number in [0, n): random colours and Halma's first
	// player. Nil means math/rand/v2.
	Rand func(n int) int
	// Log receives errors of the store; nil discards them.
	Log *slog.Logger
	// DefaultTime is the time per move of a /play without time= on a
	// platform; nil means no clock.
	DefaultTime func(platform string) Duration
	// ChallengeTTL is how long a challenge waits for its answer; 0 means
	// 24 hours, a negative value for ever.
	ChallengeTTL time.Duration
	// Computer plays the computer opponent's moves and the clock's moves
	// for players out of time; nil means a rules/ai Player with its defaults.
	Computer Computer
	// AutoLevel is the computer's level for the clock's moves (0: 1, the
	// quickest).
	AutoLevel int
}

// Computer picks moves: *ai.Player implements it (and ComputerHuffer).
type Computer interface {
	// Move picks a move for the seat to move in s; Play(m.Text) plays it.
	Move(ctx context.Context, s rules.State, level int, seed uint64) (rules.Move, error)
}

// ComputerHuffer is a Computer that also huffs (damas huff=yes).
type ComputerHuffer interface {
	Huff(ctx context.Context, s rules.State, level int, seed uint64) (rules.Square, bool, error)
}

// Service runs the sessions. It is safe for concurrent use.
type Service struct {
	store  Store
	notify Notifier
	games  func(id string, opts map[string]string) (rules.Game, error)
	now    func() time.Time
	rand   func(n int) int
	log    *slog.Logger

	defaultTime  func(platform string) Duration
	challengeTTL time.Duration
	computer     Computer
	autoLevel    int

	// base is the context of the background searches; Close cancels it.
	base       context.Context
	cancelBase context.CancelFunc
	wg         sync.WaitGroup

	mu       sync.Mutex
	sessions map[Key]*entry
	due      map[Key]time.Time // when the clock next has something to do per session
	jobs     map[Key]*job      // the computer's search running per session
	forgot   time.Time         // when request ids were last forgotten
}

// entry is one session in memory with its lock (a channel, so that waiting
// for it honours a context).
type entry struct {
	key    Key
	lock   chan struct{}
	refs   int // goroutines holding or waiting for the lock; guarded by Service.mu
	loaded bool
	cur    *live // nil: no session
}

// live is a session with its game state rebuilt.
type live struct {
	rec   *Record
	game  rules.Game
	state rules.State // nil during a challenge
	last  *rules.Move
}

// New returns a Service on c.Store.
func New(c Config) *Service {
	s := &Service{store: c.Store, notify: c.Notifier, games: c.Games, now: c.Now, rand: c.Rand, log: c.Log,
		defaultTime: c.DefaultTime, challengeTTL: c.ChallengeTTL, computer: c.Computer, autoLevel: c.AutoLevel,
		sessions: map[Key]*entry{}, due: map[Key]time.Time{}, jobs: map[Key]*job{}}
	s.base, s.cancelBase = context.WithCancel(context.Background())
	if s.computer == nil {
		s.computer = ai.New(ai.Config{})
	}
	if s.autoLevel == 0 {
		s.autoLevel = ai.MinLevel
	}
	if s.challengeTTL == 0 {
		s.challengeTTL = 24 * time.Hour
	}
	if s.games == nil {
		s.games = games.New
	}
	if s.now == nil {
		s.now = time.Now
	}
	if s.rand == nil {
		s.rand = rand.IntN
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	return s
}

// Request says who acts where. ID is the platform's id of the update or
// interaction (for duplicate detection); it may be empty.
type Request struct {
	Key  Key
	User User
	ID   string
}

// Snapshot is a session as it stands after a change: its record, its game
// and the game state. A Snapshot is shared: callers must not modify it.
type Snapshot struct {
	Record *Record
	Game   rules.Game
	// State is nil while the session is a challenge.
	State rules.State
	// Last is the last move played, nil before the first.
	Last *rules.Move
}

// Phase returns the session's phase.
func (s *Snapshot) Phase() Phase {
	if s == nil {
		return PhaseNone
	}
	return s.Record.Phase()
}

// Turn returns the seat to move, or -1 (a challenge, a formation step, a
// finished game).
func (s *Snapshot) Turn() int {
	if s == nil || s.State == nil || s.Record.Result != nil {
		return -1
	}
	return s.State.Turn()
}

// Player returns the user of a seat (a zero User for an open seat).
func (s *Snapshot) Player(seat int) User {
	if seat < 0 || seat >= len(s.Record.Seats) {
		return User{}
	}
	return s.Record.Seats[seat]
}

// SeatName returns the name of a seat in its game ("White", "Red", ...).
func (s *Snapshot) SeatName(seat int) string {
	names := s.Game.Seats()
	if seat < 0 || seat >= len(names) {
		return "?"
	}
	return names[seat]
}

// Pending returns the seats that still have to choose a formation, or nil
// when the game is not in a formation step.
func (s *Snapshot) Pending() []int {
	if s == nil || s.State == nil || s.Record.Result != nil {
		return nil
	}
	if f, ok := s.State.(rules.Former); ok {
		return f.Pending()
	}
	return nil
}

// EventKind says what a change did.
type EventKind int

// The kinds of events.
const (
	EvChallenged       EventKind = iota + 1 // a challenge was opened
	EvJoined                                // a seat of a challenge was taken; more are open
	EvStarted                               // the last seat was taken: the game begins
	EvDeclined                              // the challenge was declined and removed
	EvCancelled                             // the challenger withdrew the challenge
	EvFormed                                // a seat chose its formation
	EvMoved                                 // a move was played
	EvHuffed                                // a piece was huffed
	EvDrawOffered                           // a draw was offered
	EvDrawDeclined                          // the draw offer was declined
	EvDrawAgreed                            // every seat agreed to a draw: the game ended
	EvResigned                              // a player resigned: the game ended, or (more than two players, rules.Retirer) the player left and the others play on
	EvTakebackAsked                         // a player asks to take their last move back
	EvTakenBack                             // the last move was taken back
	EvTakebackDeclined                      // the opponent refused the takeback
	EvExpired                               // nobody answered the challenge in time: it is gone
	EvReminded                              // the clock's reminder went out
)

// Event is the result of a change: what happened, by whom, and the session
// after it. When the game ended, Session.Record.Result is set and
// Session.Record.ID is its id in the history.
type Event struct {
	Kind    EventKind
	By      User
	Seat    int // the acting seat, -1 when none
	Move    *rules.Move
	Session *Snapshot

	passed bool // a player left while to move: the turn passed to another
}

// Ended reports whether the change ended the game.
func (e Event) Ended() bool {
	return e.Session != nil && e.Session.Record.Result != nil
}

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

// Look returns the session of key as it stands: ErrNoGame when there is none.
func (s *Service) Look(ctx context.Context, key Key) (*Snapshot, error) {
	e, err := s.acquire(ctx, key)
	if err != nil {
		return nil, err
	}
	defer s.release(e)
	if e.cur == nil {
		return nil, errf(ErrNoGame, nil, "no session at %s", key)
	}
	return e.cur.snapshot(), nil
}

// Challenge opens a challenge: a game, its options, who may accept.
func (s *Service) Challenge(ctx context.Context, req Request, spec ChallengeSpec) (Event, error) {
	return s.change(ctx, req, func(cur *live) (*live, Event, error) {
		if cur != nil {
			return nil, Event{}, errf(ErrGameRunning, nil, "%s is in phase %s", req.Key, cur.rec.Phase())
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
			return nil, Event{}, errf(ErrBadOption, nil, "%s is a game for %d players: name at most %d", game.ID(), n, n-1)
		}
		for i, u := range spec.Invited {
			for _, v := range spec.Invited[:i] {
				if u.Is(v) {
					return nil, Event{}, errf(ErrBadOption, nil, "%s is named twice", u.Name)
				}
			}
		}
		if spec.Computer && len(spec.Invited) > 0 {
			return nil, Event{}, errf(ErrBadOption, nil, "a game against the computer names no one")
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
		rec := &Record{V: RecordVersion, Key: req.Key, Game: game.ID(), Options: game.Options(), Play: play,
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
	next.rec.Result = &Result{Winner: -1, Reason: "draw agreed", Ended: now, FEN: next.state.FEN()}
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
		if next, ok := s.retire(cur, seats, "resigned"); ok {
			return next, Event{Kind: EvResigned, Seat: seat, passed: next.rec.Result == nil && cur.state.Turn() != next.state.Turn()}, nil
		}
		next := cur.clone()
		res := &Result{Winner: -1, Reason: cur.game.Seats()[seat] + " resigned", Ended: s.now().UTC(), FEN: cur.state.FEN()}
		if len(next.rec.Seats) == 2 {
			res.Winner = 1 - seat
		}
		next.rec.Result = res
		next.rec.Updated = res.Ended
		return next, Event{Kind: EvResigned, Seat: seat}, nil
	})
}

// retire returns the session after seats have left the game (why:
// "resigned", "abandoned"), with the others playing on, or reports false
// when that is not the way: a game of two, a game whose state is not a
// rules.Retirer, or one where no person (only the computer) would play on
// and more than one seat would be left. When one seat is left, the rules
// say it has won and the game ends.
func (s *Service) retire(cur *live, seats []int, why string) (*live, bool) {
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
			s.log.Error("retiring failed", "session", cur.rec.Key.String(), "seat", seat, "err", err)
			return nil, false
		}
		next.add(Action{Kind: ActRetire, Seat: seat, Text: why, At: now})
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
	l.rec.Result = &Result{Winner: o.Winner, Reason: o.Reason, Ended: l.rec.Updated, FEN: l.state.FEN()}
}

// change runs fn on the session of req.Key under its lock, commits what fn
// returns in one transaction and only then makes it the session's state.
// fn must not modify cur; it returns the next session (nil: the session is
// removed) and the event to report.
func (s *Service) change(ctx context.Context, req Request, fn func(cur *live) (*live, Event, error)) (Event, error) {
	if strings.TrimSpace(req.User.Name) == "" && req.User.ID == "" {
		return Event{}, errf(ErrNotPlayer, nil, "anonymous request")
	}
	e, err := s.acquire(ctx, req.Key)
	if err != nil {
		return Event{}, err
	}
	defer s.release(e)
	if req.ID != "" {
		seen, err := s.store.Seen(ctx, req.Key.Platform, req.ID)
		if err != nil {
			s.storeFailed("reading request ids failed", err, "session", req.Key.String())
			return Event{}, &Error{Kind: storeKind(err), Err: err, Session: e.cur.snapshot()}
		}
		if seen {
			return Event{}, &Error{Kind: ErrDuplicate, Msg: "request " + req.ID, Session: e.cur.snapshot()}
		}
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
	if err := s.commit(ctx, e, next, req.ID, &ev); err != nil {
		return Event{}, err
	}
	s.sendNotices(ctx, req.User, ev)
	return ev, nil
}

// commit commits next as the session of e (locked), with the clock, the
// version, the ratings of a finished game and the request id, and only then
// makes it the session's state. It fills ev.Session.
func (s *Service) commit(ctx context.Context, e *entry, next *live, reqID string, ev *Event) error {
	now := s.now().UTC()
	c := &Change{Key: e.key, Request: reqID, At: now}
	if next != nil {
		next.rec.Version = 1
		if e.cur != nil {
			next.rec.Version = e.cur.rec.Version + 1
		}
		s.clock(e.cur, next, now)
		if next.rec.Result != nil {
			c.Finished = next.rec
			c.Rate = rateRequest(next.rec)
		} else {
			c.Live = next.rec
		}
	}
	if err := s.store.Commit(ctx, c); err != nil {
		if errors.Is(err, ErrDuplicate) {
			return &Error{Kind: ErrDuplicate, Msg: "request " + reqID, Session: e.cur.snapshot()}
		}
		s.storeFailed("commit failed", err, "session", e.key.String())
		return &Error{Kind: storeKind(err), Err: err, Session: e.cur.snapshot()}
	}
	if next != nil {
		ev.Session = next.snapshot()
	} else {
		ev.Session = e.cur.snapshot()
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
	}
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
		return e, nil
	}
	rec, err := s.store.Load(ctx, key)
	switch {
	case errors.Is(err, ErrNotFound):
		e.cur = nil
	case errors.Is(err, ErrDamaged):
		s.release(e) // the store logged the damage
		return nil, errf(ErrDamaged, err, "loading %s", key)
	case err != nil:
		s.release(e)
		s.log.Error("load failed", "session", key.String(), "err", err)
		return nil, errf(ErrStorage, err, "loading %s", key)
	default:
		l, err := s.rebuild(rec)
		if err != nil {
			s.release(e)
			s.log.Error("replay failed", "session", key.String(), "err", err)
			return nil, errf(ErrBroken, err, "replaying %s", key)
		}
		e.cur = l
	}
	e.loaded = true
	s.track(e)
	return e, nil
}

// release unlocks the session; an entry without a session that nobody
// holds or waits for leaves the map, so that memory holds only the
// sessions in play.
func (s *Service) release(e *entry) {
	s.mu.Lock()
	e.refs--
	if e.refs == 0 && e.loaded && e.cur == nil {
		delete(s.sessions, e.key)
	}
	s.mu.Unlock()
	<-e.lock
}

// Resume loads every live session from the store and replays it; it
// returns how many sessions it loaded. Sessions load lazily anyway; Resume
// finds problems at start rather than at the first command. A session that
// does not replay is logged and skipped (its channel answers with
// ErrBroken until the record is repaired), and so is a damaged record (the
// store's ErrDamaged: its channel answers with ErrDamaged); only a failing
// store is an error.
func (s *Service) Resume(ctx context.Context) (int, error) {
	recs, err := s.store.Live(ctx)
	switch {
	case errors.Is(err, ErrDamaged):
		s.log.Error("resuming: damaged sessions skipped", "err", err)
	case err != nil:
		return 0, errf(ErrStorage, err, "listing sessions")
	}
	n := 0
	for _, r := range recs {
		e, err := s.acquire(ctx, r.Key)
		if err != nil {
			continue // acquire logged it
		}
		s.release(e)
		n++
	}
	return n, nil
}

// Replay rebuilds the game state of a record (a live session or a finished
// game) by playing its actions from the start; it also returns the last move.
func (s *Service) Replay(rec *Record) (*Snapshot, error) {
	l, err := s.rebuild(rec)
	if err != nil {
		return nil, err
	}
	return l.snapshot(), nil
}

func (s *Service) rebuild(rec *Record) (*live, error) {
	if rec.V != RecordVersion {
		return nil, fmt.Errorf("record version %d, want %d", rec.V, RecordVersion)
	}
	game, err := s.games(rec.Game, rec.Options)
	if err != nil {
		return nil, err
	}
	l := &live{rec: rec, game: game}
	if rec.Phase() == PhaseChallenge {
		return l, nil
	}
	st, err := startState(game, rec)
	if err != nil {
		return nil, err
	}
	for i, a := range rec.Actions {
		var m *rules.Move
		st, m, err = apply(st, a)
		if err != nil {
			return nil, fmt.Errorf("action %d (%s %q): %w", i+1, a.Kind, a.Text, err)
		}
		if m != nil {
			l.last = m
		}
	}
	l.state = st
	return l, nil
}

func startState(game rules.Game, rec *Record) (rules.State, error) {
	if rec.Start != "" {
		return game.Load(rec.Start)
	}
	return game.Start(rec.First), nil
}

func apply(st rules.State, a Action) (rules.State, *rules.Move, error) {
	switch a.Kind {
	case ActMove:
		next, m, err := st.Play(a.Text)
		if err != nil {
			return nil, nil, err
		}
		return next, &m, nil
	case ActForm:
		f, ok := st.(rules.Former)
		if !ok {
			return nil, nil, errors.New("no formation step")
		}
		next, err := f.Form(a.Seat, a.Text)
		return next, nil, err
	case ActHuff:
		h, ok := st.(rules.Huffer)
		if !ok {
			return nil, nil, errors.New("no huffing")
		}
		next, err := h.Huff(a.Text)
		return next, nil, err
	case ActRetire:
		r, ok := st.(rules.Retirer)
		if !ok {
			return nil, nil, errors.New("no retiring")
		}
		next, err := r.Retire(a.Seat)
		return next, nil, err
	}
	return nil, nil, fmt.Errorf("unknown action %q", a.Kind)
}

func (l *live) phase() Phase {
	if l == nil {
		return PhaseNone
	}
	return l.rec.Phase()
}

func (l *live) clone() *live {
	c := *l
	c.rec = l.rec.Clone()
	return &c
}

func (l *live) add(a Action) {
	l.rec.Actions = append(l.rec.Actions, a)
	l.rec.Updated = a.At
}

func (l *live) snapshot() *Snapshot {
	if l == nil {
		return nil
	}
	return &Snapshot{Record: l.rec, Game: l.game, State: l.state, Last: l.last}
}
