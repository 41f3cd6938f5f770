package sessions

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/boardgamebot/bot/sessions/tournament"
)

// TournamentVersion is the schema version written in every stored
// Tournament.
const TournamentVersion = 1

// Format is how a tournament pairs its rounds.
type Format string

// The formats /tournament new takes (format=).
const (
	FormatSwiss      Format = "swiss"
	FormatRoundRobin Format = "roundrobin"
)

// TourStatus is where a tournament is in its life.
type TourStatus string

// The statuses of a tournament. Sign-up and running tournaments are
// active: a channel has at most one active tournament.
const (
	StatusSignup    TourStatus = "signup"
	StatusRunning   TourStatus = "running"
	StatusFinished  TourStatus = "finished"
	StatusCancelled TourStatus = "cancelled"
)

// Active reports whether the status is sign-up or running.
func (s TourStatus) Active() bool { return s == StatusSignup || s == StatusRunning }

// Tournament is a stored event: its terms, its players, its rounds and
// their results. The store writes it whole, compare-and-set on Rev.
type Tournament struct {
	V int `json:"v"`
	// ID is given by the store when the tournament is first written (a
	// decimal number, its own sequence: "/tournament show 3").
	ID string `json:"id,omitempty"`
	// Rev counts the tournament's writes: the store writes a tournament
	// only when the stored one's Rev is Rev-1 (the first write has Rev 1
	// and no ID), and otherwise fails with an error wrapping ErrConflict.
	Rev int64 `json:"rev"`
	// Key is where the tournament was opened (its channel; Thread is the
	// thread or forum topic the command came from, where standings go).
	Key Key `json:"key"`
	// Community is the Request.Community of /tournament new: its games
	// are played there (Record.Community).
	Community string            `json:"community,omitempty"`
	Organiser User              `json:"organiser"`
	Game      string            `json:"game"`
	Options   map[string]string `json:"options,omitempty"`
	// Play are the terms of every game: the clock and whether rated
	// (Color is ignored: the pairing gives the colours).
	Play   PlayOptions `json:"play"`
	Format Format      `json:"format"`
	// Rounds is the number of rounds: asked for in a Swiss, set at the
	// start of a round-robin (players-1, or players when odd; twice that
	// when Double).
	Rounds int        `json:"rounds"`
	Double bool       `json:"double,omitempty"`
	Status TourStatus `json:"status"`
	// Players are the entrants in sign-up order (the round-robin's
	// pairing numbers).
	Players []Entrant `json:"players"`
	// Played are the rounds paired so far; the last one may be under way.
	Played  []TourRound `json:"played,omitempty"`
	Created time.Time   `json:"created"`
	Started time.Time   `json:"started,omitzero"`
	Ended   time.Time   `json:"ended,omitzero"`
}

// Entrant is a player of a tournament.
type Entrant struct {
	User User `json:"user"`
	// Rating is the player's rating in the game when they joined (Swiss
	// ranking inside a score group).
	Rating int `json:"rating"`
	// Joined is the number of rounds paired when the player joined (0:
	// during sign-up).
	Joined int `json:"joined,omitempty"`
	// Left is the round number during which the player left (0: still in):
	// they are not paired any more and forfeit the games of later rounds.
	Left int `json:"left,omitempty"`
}

// TourRound is one paired round.
type TourRound struct {
	Number int        `json:"number"`
	Games  []TourGame `json:"games"`
	// Paired is when the round was paired (TourStallAfter).
	Paired time.Time `json:"paired,omitzero"`
}

// TourGame is one pairing of a round: White and Black are user ids (Black
// is empty for a bye), Result its outcome (tournament.Pending while it is
// played), Key the session where it is played (zero for a bye or a
// forfeit), GameID its finished game in the history.
type TourGame struct {
	White  string            `json:"white"`
	Black  string            `json:"black,omitempty"`
	Result tournament.Result `json:"result,omitempty"`
	Key    Key               `json:"key,omitzero"`
	GameID string            `json:"game_id,omitempty"`
	// Wait, while the game has no Key, says why the platform would not
	// open its place (the bot lacks a right): the players and the
	// organiser were told, and the bot tries again every TourRetryEvery.
	// Nil once the place opened, and before any refusal.
	Wait *NoPlaces `json:"wait,omitempty"`
}

// Waiting reports whether the game waits for its place: it is paired
// against an opponent, has no result and no place yet.
func (g TourGame) Waiting() bool {
	return g.Result == tournament.Pending && g.Black != "" && g.Key == (Key{})
}

// TourRef, in a Record, marks a game of a tournament: the game's end
// writes its result into the tournament in the same transaction.
type TourRef struct {
	ID    string `json:"id"`
	Round int    `json:"round"`
	Board int    `json:"board"` // index in TourRound.Games
}

// TournamentSpec is what /tournament new asks for.
type TournamentSpec struct {
	Game    string
	Options map[string]string
	Play    PlayOptions
	Format  Format
	// Rounds: a Swiss's number of rounds (0: the default, 3... see
	// NewTournament); ignored by a round-robin.
	Rounds int
	// Double: a double round-robin.
	Double bool
}

// TourEventKind says what a tournament change did.
type TourEventKind int

// The kinds of tournament events.
const (
	TourOpened      TourEventKind = iota + 1 // sign-up opened
	TourJoined                               // a player joined
	TourLeft                                 // a player left (during the event: forfeits the rest)
	TourStarted                              // sign-up closed; round 1 paired (Round)
	TourRoundPaired                          // round Round paired and its games opened
	TourRoundEnded                           // the last game of round Round ended: standings follow
	TourEnded                                // the last round ended: final standings
	TourCancelled                            // the organiser (or a server manager) cancelled it
	// TourPlaceMissing: the platform would not open the places of the
	// games Boards of round Round (Missing says why: the right the bot
	// lacks); the organiser and those games' players are told (Told), and
	// the bot tries again every TourRetryEvery.
	TourPlaceMissing
	// TourPlaceOpened: the places of the games Boards of round Round
	// opened after the round's pairings were posted (a retry, a restart):
	// their links follow.
	TourPlaceOpened
)

// TourEvent is the result of a tournament change, or of a game's end that
// moved a tournament on: the tournament after it and its standings.
type TourEvent struct {
	Kind       TourEventKind
	By         User
	Round      int
	Tournament *Tournament
	// Standings are the standings after the event (players by user id in
	// Standing.Player; Tournament.Players gives their names). They count
	// exactly the rounds 1 to Counted, every game of which has a result:
	// the finished games of a round under way are not in them.
	Standings []tournament.Standing
	// Counted is the number of rounds the Standings count.
	Counted int
	// Boards are the games (indexes in the round's Games) of a
	// TourPlaceMissing or TourPlaceOpened.
	Boards []int
	// Missing says why the places of a TourPlaceMissing did not open.
	Missing *NoPlaces
}

// Told returns who a TourPlaceMissing is for: the organiser and the
// players of its games, each once.
func (ev TourEvent) Told() []User {
	t := ev.Tournament
	if t == nil {
		return nil
	}
	out := []User{t.Organiser}
	add := func(id string) {
		u := t.userOf(id)
		if !slices.ContainsFunc(out, u.Is) {
			out = append(out, u)
		}
	}
	if ev.Round >= 1 && ev.Round <= len(t.Played) {
		games := t.Played[ev.Round-1].Games
		for _, b := range ev.Boards {
			if b >= 0 && b < len(games) {
				add(games[b].White)
				add(games[b].Black)
			}
		}
	}
	return out
}

// Places opens the places where tournament games are played, one per
// platform: a thread (Discord), a forum topic (Telegram), a channel (the
// console). Each adapter that runs tournaments implements it.
type Places interface {
	// CheckPlaces returns nil when games can be opened under key, or an
	// error of kind ErrNoPlaces saying why not (Telegram: not a forum, or
	// no right to manage topics).
	CheckPlaces(ctx context.Context, key Key) error
	// OpenPlace opens the place of one game under g.Tournament.Key and
	// returns its session key. When the platform refuses for want of a
	// right, the error is of kind ErrNoPlaces with a *NoPlaces naming it.
	OpenPlace(ctx context.Context, g PlaceGame) (Key, error)
}

// PlaceGame is a tournament game whose place a Places opens.
type PlaceGame struct {
	Tournament   *Tournament
	Round, Board int // Board is the index in the round's Games
	White, Black User
	// Start is the game as it starts there, its Record without a Key
	// yet, for a platform whose places open with their first message (a
	// Discord forum post starts with the board).
	Start *Snapshot
}

// PlaceSet holds each platform's Places (by Key.Platform). Fill it before
// the Service resumes its games (it has no lock), like Notifiers.
type PlaceSet map[string]Places

// The kinds of errors of tournament commands (also in Kinds).
var (
	// ErrNoTournament: no tournament is open in this channel, or no
	// tournament has that id.
	ErrNoTournament = errors.New("sessions: no tournament here")
	// ErrTournamentOpen: /tournament new where one is already active.
	ErrTournamentOpen = errors.New("sessions: a tournament is already open here")
	// ErrNotOrganiser: start or cancel by someone else than the organiser
	// (or a server manager).
	ErrNotOrganiser = errors.New("sessions: not the organiser")
	// ErrNotEntered: leave by someone who has not joined.
	ErrNotEntered = errors.New("sessions: not entered")
	// ErrPlayerCount: start with too few (or, round-robin, too many)
	// players; Err is a *BadCount.
	ErrPlayerCount = errors.New("sessions: wrong number of players")
	// ErrSignupClosed: join, start or cancel after the tournament started
	// (join is open during a Swiss), or when it ended.
	ErrSignupClosed = errors.New("sessions: sign-up closed")
	// ErrNoPlaces: the platform cannot open game places here; Err is a
	// *NoPlaces saying why.
	ErrNoPlaces = errors.New("sessions: games cannot be opened here")
	// ErrWithdrawn: join by a player who left the tournament while it ran
	// (they forfeit its later games and cannot come back).
	ErrWithdrawn = errors.New("sessions: withdrew from the tournament")
	// ErrNoRoundLeft: a late join in a Swiss whose last round is paired:
	// no round is left to pair the newcomer in.
	ErrNoRoundLeft = errors.New("sessions: no round left")
)

// BadCount is the detail of ErrPlayerCount: the players signed up and the
// range the format takes (Max 0: no upper bound).
type BadCount struct {
	Players, Min, Max int
}

func (e *BadCount) Error() string { return "wrong number of players" }

// PlaceProblem says why a platform cannot open game places.
type PlaceProblem string

// The place problems.
const (
	PlaceNotForum PlaceProblem = "not-forum" // Telegram: a plain group or private chat
	PlaceNoRights PlaceProblem = "no-rights" // Telegram: the bot may not manage topics; Discord: may not create threads
	PlaceNone     PlaceProblem = "none"      // the platform runs no tournaments
	// PlaceUnreachable: the platform could not be asked (a network error,
	// the platform down): nothing changed, try again later.
	PlaceUnreachable PlaceProblem = "unreachable"
	// PlaceAnnouncements: a Discord announcement channel, whose threads
	// are for its news, not for games.
	PlaceAnnouncements PlaceProblem = "announcements"
)

// PlaceRight is a right a platform's bot needs to open the games' places,
// named by the adapter that found it missing (its catalogue words it:
// PlaceRight_<name>).
type PlaceRight string

// The rights the adapters name.
const (
	RightManageTopics  PlaceRight = "manage_topics"  // Telegram: an administrator who may manage topics
	RightCreateThreads PlaceRight = "create_threads" // Discord: Create Public Threads
	RightThreadsSend   PlaceRight = "send_threads"   // Discord: Send Messages in Threads
	RightCreatePosts   PlaceRight = "create_posts"   // Discord, a forum channel: Create Posts (Send Messages)
)

// NoPlaces is the detail of ErrNoPlaces: the problem and, for
// PlaceNoRights, the right missing ("" when the platform did not say).
type NoPlaces struct {
	Problem PlaceProblem `json:"problem"`
	Right   PlaceRight   `json:"right,omitempty"`
}

func (e *NoPlaces) Error() string {
	if e.Right != "" {
		return "no venues: " + string(e.Problem) + " (" + string(e.Right) + ")"
	}
	return "no venues: " + string(e.Problem)
}

// Clone returns a deep copy of t.
func (t *Tournament) Clone() *Tournament {
	if t == nil {
		return nil
	}
	c := *t
	if t.Options != nil {
		c.Options = make(map[string]string, len(t.Options))
		for k, v := range t.Options {
			c.Options[k] = v
		}
	}
	c.Players = append([]Entrant(nil), t.Players...)
	if t.Played != nil {
		c.Played = make([]TourRound, len(t.Played))
	}
	for i, r := range t.Played {
		r.Games = append([]TourGame(nil), r.Games...)
		for j, g := range r.Games {
			if g.Wait != nil {
				w := *g.Wait
				r.Games[j].Wait = &w
			}
		}
		c.Played[i] = r
	}
	return &c
}
