package sessions

import (
	"context"
	"log/slog"
	"math/rand/v2"
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
	// Resident is how many sessions the Service keeps in memory at most
	// (0: DefaultResident). Beyond it, the sessions used least recently
	// leave memory (nobody waiting for them, no computer searching); they
	// load again from the store on their next use, or when their clock is
	// due.
	Resident int
	// Places opens tournament games' places, per platform; nil: no
	// platform runs tournaments.
	Places PlaceSet
	// Metrics is told of commits, loads and clocks; nil counts nothing.
	Metrics Metrics
	// Changed, when set, is called after every change of a session this
	// Service commits (a command, the computer's move, the clock's), with
	// the session after it: its Record.Result is set when the game ended,
	// and s is nil when the session is gone without a game (a challenge
	// declined, cancelled or lapsed). The web board pushes it to the pages
	// watching the game. It runs under the session's lock: it must not
	// block, nor call the Service.
	Changed func(key Key, s *Snapshot)
	// Caps bound the open challenges, games against the computer and
	// tournaments one user may hold at once; the zero value sets none
	// (the bot sets DefaultCaps, or its configuration's).
	Caps Caps
	// ReviewNodes is a review's budget: the positions searched at most
	// for each ply (0: ai.DefaultReviewNodes).
	ReviewNodes int64
	// ReviewAuto reviews every rated game when it ends, in the background.
	ReviewAuto bool
	// Reviewer computes reviews; nil means the Computer's Review when it
	// is an *ai.Player, else a rules/ai Player's with its defaults.
	Reviewer Reviewer
}

// DefaultResident is Config.Resident's default.
const DefaultResident = 10000

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
	resident     int
	metrics      Metrics
	changed      func(Key, *Snapshot)
	caps         Caps

	// base is the context of the background searches; Close cancels it.
	base       context.Context
	cancelBase context.CancelFunc
	wg         sync.WaitGroup

	mu       sync.Mutex
	sessions map[Key]*entry
	// lru lists the entries of sessions, the one used last first (a ring
	// through entry.prev and entry.next).
	lru    entry
	due    map[Key]time.Time // when the clock next has something to do per session
	jobs   map[Key]*job      // the computer's search running per session
	forgot time.Time         // when request ids were last forgotten

	tournaments *Tournaments
	reviews     *reviews
}

// entry is one session in memory with its lock (a channel, so that waiting
// for it honours a context).
type entry struct {
	key    Key
	lock   chan struct{}
	refs   int // goroutines holding or waiting for the lock; guarded by Service.mu
	loaded bool
	cur    *live // nil: no session
	// prev and next link the entry in Service.lru; guarded by Service.mu.
	prev, next *entry
}

// New returns a Service on c.Store.
func New(c Config) *Service {
	s := &Service{store: c.Store, notify: c.Notifier, games: c.Games, now: c.Now, rand: c.Rand, log: c.Log,
		defaultTime: c.DefaultTime, challengeTTL: c.ChallengeTTL, computer: c.Computer, autoLevel: c.AutoLevel,
		resident: c.Resident, changed: c.Changed, metrics: c.Metrics, caps: c.Caps, sessions: map[Key]*entry{}, due: map[Key]time.Time{}, jobs: map[Key]*job{}}
	s.lru.prev, s.lru.next = &s.lru, &s.lru
	if s.resident <= 0 {
		s.resident = DefaultResident
	}
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
	if s.metrics == nil {
		s.metrics = noMetrics{}
	}
	s.reviews = newReviews(c, s.computer)
	s.tournaments = &Tournaments{svc: s, store: s.store, now: s.now, log: s.log, games: s.games, places: c.Places}
	return s
}

// Request says who acts where. ID is the platform's id of the update or
// interaction (for duplicate detection); it may be empty.
type Request struct {
	Key  Key
	User User
	ID   string
	// Manager: the platform says the user manages the place (Discord's
	// Manage Server): they may start and cancel any tournament there.
	Manager bool
	// Elsewhere: the request was made away from the session's channel
	// (on the web board), so the players there see its change only if
	// it is posted: the Service sends a NoticeEvent for it.
	Elsewhere bool
	// Game, when not zero, is when the game the request is for was
	// created (Record.Created): the web board's links name their game. At
	// a key that holds another session, or none, the request is refused
	// with ErrNoGame, under the session's lock.
	Game time.Time
	// Community is the community the request comes from, whose ladders
	// (TopQuery.Community) the games played from it join: the Discord
	// server (its guild id), the Telegram group or supergroup (its chat
	// id, whatever the topic); empty in private chats and the console,
	// where only the platform's ladders are shown. Each adapter sets it
	// in one place.
	Community string
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
	// tourPut is a tournament to write in the change's transaction (a
	// tournament game opened); tourEnded, after the commit, the id of the
	// tournament whose game the change ended.
	tourPut   *Tournament
	tourEnded string
}

// Ended reports whether the change ended the game.
func (e Event) Ended() bool {
	return e.Session != nil && e.Session.Record.Result != nil
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

// Resident returns how many sessions the Service holds in memory.
func (s *Service) Resident() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.sessions)
}
