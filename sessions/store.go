package sessions

import (
	"context"
	"slices"
	"time"

	"github.com/boardgamebot/bot/rules"
)

// Store keeps sessions and finished games. Package storage implements it on
// bbolt; sessionstest.NewMemoryStore is an in-memory one for tests.
type Store interface {
	// Load returns the live session of key, or an error wrapping ErrNotFound
	// (none) or ErrDamaged (its record is damaged). Any method may fail with
	// ErrDamaged when the data it reads is damaged.
	Load(ctx context.Context, key Key) (*Record, error)
	// Commit applies c in one transaction: all of it or nothing. When
	// c.Finished is set, the store gives it an ID (Record.ID) on success.
	// A store shared by several processes fails with an error wrapping
	// ErrConflict when another process changed the session since this
	// store loaded it.
	// A live session's actions only grow at the end or are cut back (a
	// takeback) from one commit to the next, so that a store may write
	// only the new ones. An error means nothing changed, except one
	// wrapping ErrUnknownOutcome: the store could not find out whether c
	// was applied.
	Commit(ctx context.Context, c *Change) error
	// Live returns every live session (for tools and tests: start-up
	// reads LiveIndex). When some records are damaged it returns the
	// others with an error wrapping ErrDamaged.
	Live(ctx context.Context) ([]*Record, error)
	// LiveIndex returns what start-up needs of every live session,
	// without reading its game: its key, when its clock is due, whether
	// the computer plays in it. It skips the sessions it finds damaged
	// and returns the others with an error wrapping ErrDamaged.
	LiveIndex(ctx context.Context) ([]LiveEntry, error)
	// LiveOf returns the live sessions in which the user of a platform
	// with this id holds a seat (the challenges they opened or joined, the
	// games they play), from an index of live sessions by user, as their
	// heads: records without their actions. Config.Caps counts them. An
	// empty userID holds none. When some records are damaged it returns
	// the others with an error wrapping ErrDamaged.
	LiveOf(ctx context.Context, platform, userID string) ([]*Record, error)
	// Finished returns the finished game with the given id, or an error
	// wrapping ErrNotFound.
	Finished(ctx context.Context, id string) (*Record, error)
	// History returns the finished games of a user (q.User) or a channel
	// (q.Key), newest first, at most q.Limit.
	History(ctx context.Context, q HistoryQuery) ([]*Record, error)
	// Seen reports whether a change with this request id (Change.Request)
	// of the platform was committed and not yet forgotten.
	Seen(ctx context.Context, platform, id string) (bool, error)
	// Forget drops the request ids committed before t.
	Forget(ctx context.Context, before time.Time) error
	// Standings returns a user's standings, every game and period, or one
	// game's when game is not empty; sorted by game, then period.
	Standings(ctx context.Context, platform, userID, game string) ([]Standing, error)
	// Top returns the first q.Limit of a ladder and q.User's place in it:
	// the platform's, or a community's (q.Community).
	Top(ctx context.Context, q TopQuery) (Ladder, error)
	// RatingHistory returns what each finished game did to a user's
	// all-time rating (RatedGames: one entry per game that changed it), in
	// one game or, when game is empty, in every game; oldest first (by
	// the time the game ended, then by its id). The store writes the
	// entries in the game's ending transaction and reads them without
	// going through other players' entries.
	RatingHistory(ctx context.Context, platform, userID, game string) ([]RatedGame, error)
	// FindUser returns the user of the platform who last finished a game
	// under this name (any case, without @), or an error wrapping ErrNotFound.
	FindUser(ctx context.Context, platform, name string) (User, error)

	// PutTournament writes t, compare-and-set on t.Rev (see
	// Tournament.Rev): an error wrapping ErrConflict when the stored
	// tournament is not at t.Rev-1. The first write (Rev 1, no ID) gives
	// t its ID. A channel (platform and channel of t.Key) has at most one
	// active tournament, even with several processes on one store: a
	// write that makes t active there (a new tournament, or one that was
	// not active or was in another channel) while another tournament is
	// active there fails with an error wrapping both ErrTournamentOpen
	// and ErrConflict, and writes nothing. Change.Tournament is held to
	// the same terms. An error wrapping ErrUnknownOutcome says, as for
	// Commit, that whether t was written is not known.
	PutTournament(ctx context.Context, t *Tournament) error
	// Tournament returns the tournament with this id, or an error
	// wrapping ErrNotFound.
	Tournament(ctx context.Context, id string) (*Tournament, error)
	// ActiveTournaments returns the tournaments in sign-up or running.
	ActiveTournaments(ctx context.Context) ([]*Tournament, error)
	// TournamentsAt returns the tournaments opened in a channel (platform
	// and channel of key; any thread), newest first, at most limit (0:
	// all).
	TournamentsAt(ctx context.Context, key Key, limit int) ([]*Tournament, error)
}

// SharedStore is a Store that other processes change too (etcd). Before
// the Service uses a session it holds in memory, it asks Changed, and
// loads the session again when another process changed it; a change
// that races with another process's fails with ErrConflict (see Commit).
type SharedStore interface {
	Store
	// Changed reports whether the session of key changed in the store
	// since this Store last loaded or committed it.
	Changed(ctx context.Context, key Key) (bool, error)
	// DueBefore returns the live sessions whose clock is due by t, from
	// the store's due index (sessions other processes changed too): Tick
	// reads it, so that the process that runs the clocks fires theirs.
	DueBefore(ctx context.Context, t time.Time) ([]LiveEntry, error)
}

// LiveEntry is what start-up reads of a live session.
type LiveEntry struct {
	Key Key
	// Due is when its clock next has something to do (Record.Due).
	Due time.Time
	// Computer: the session is a game in play with a computer seat.
	Computer bool
}

// Entry returns what LiveIndex returns of the live session r.
func (r *Record) Entry() LiveEntry {
	return LiveEntry{Key: r.Key, Due: r.Due(), Computer: r.Phase() == PhasePlaying && slices.ContainsFunc(r.Seats, func(u User) bool { return u.Computer })}
}

// TopQuery selects a ladder: a game's players on a platform, ordered by
// their rating of one period (AllTime or a month "2026-11"); with a
// Community, only the players who played a rated game of the game there
// (in that month, for a month's ladder), still ranked by their rating on
// the platform (a community's ladder is a view of the platform's).
type TopQuery struct {
	Platform  string
	Community string
	Game      string
	Period    string
	// Limit is how many rows to return; 0 or less: all.
	Limit int
	// User, when set, is the player whose place Ladder.Me gives.
	User string
}

// Ladder is the head of a ladder and one player's place in it.
type Ladder struct {
	Rows []Standing
	// Players is how many players the ladder has.
	Players int
	// Me is the standing of TopQuery.User, nil when unrated; Place is its
	// place: 1 + the players rated higher (equal ratings share a place).
	Me    *Standing
	Place int
}

// Change is one state change of a session, committed in one transaction.
type Change struct {
	// Key is the session's key.
	Key Key
	// Live is the session's new record; nil removes the live session.
	Live *Record
	// Finished, when set, is a finished game to add to the history.
	Finished *Record
	// Rate, with Finished, is what the game does to ratings: the store
	// applies it (ApplyRating) in the same transaction and writes the
	// changes in Finished.Ratings.
	Rate *RateRequest
	// Request, when set, is the platform's id of the update that made the
	// change; the store keeps it (for Seen) in the same transaction.
	Request string
	// At is when the change was made (when Request is to be forgotten).
	At time.Time
	// Tournament, when set, is written in the same transaction, on the
	// same terms as PutTournament (a conflict fails the whole change):
	// the result of a tournament game, or a new round's game. With a
	// Finished game of the tournament (Finished.Tour), the store also
	// writes the finished game's id in its TourGame.GameID.
	Tournament *Tournament
}

// HistoryQuery selects finished games: those of one user on a platform,
// or those of one session key. Game, when set, keeps only that game id;
// With, when set with User, keeps only the games that user With (a user
// id) played in too.
type HistoryQuery struct {
	Platform string
	User     string // a user id; empty: query by Key
	Key      Key
	Game     string
	With     string
	Limit    int
}

// Notifier tells players about things that happen outside their own
// requests: whose turn it is, the end of a game. Each adapter implements it.
// Notify must not block for long; it is called after the change committed.
type Notifier interface {
	Notify(ctx context.Context, n Notice)
}

// Notifiers passes every notice to each of its notifiers, for a program
// that serves several platforms: each adapter keeps the notices of its own
// platform (Notice.Key.Platform). Give the service a *Notifiers and fill
// it before the service resumes its games and runs its clocks (it has no
// lock).
type Notifiers []Notifier

// Notify implements Notifier.
func (ns *Notifiers) Notify(ctx context.Context, n Notice) {
	for _, a := range *ns {
		a.Notify(ctx, n)
	}
}

// NoticeKind says what a Notice is about.
type NoticeKind int

// The kinds of notices. Notices with a To are pings for that user (a
// private message, or a mention); an adapter that cannot ping may drop
// them. Notices without a To are posts for the session's channel, things
// that no command's reply told: an adapter must show them.
const (
	NoticeYourTurn NoticeKind = iota + 1 // To is to move
	NoticeGameOver                       // the game has ended; To took part
	// NoticeMoved: a move nobody's command made: the computer opponent's
	// reply, or (Auto) the move the clock played for a player out of time.
	// Seat and Move say which; when the move ended the game (or the clock's
	// third move in a row made the player abandon), Session.Record.Result is set.
	NoticeMoved
	// NoticeReminder: To is to move and has Left of their time.
	NoticeReminder
	// NoticeExpired: nobody answered the challenge in Session in time; it
	// is gone.
	NoticeExpired
	// NoticeTournament: a post for a tournament's channel (Key is the
	// tournament's Key): Tour says what happened (a round paired or
	// ended, the final standings, a forfeit).
	NoticeTournament
	// NoticeTourGame: a tournament game opened at Key (Session): post its
	// board there, mentioning both players; with a To, a ping for that
	// player.
	NoticeTourGame
	// NoticeEvent: a change a player made away from the session's
	// channel (Request.Elsewhere: on the web board). Event says what, as
	// a command's reply would: post it in the channel as that reply.
	NoticeEvent
	// NoticePlaceDone: the tournament game played at Key (Session, its
	// Record.Tour set) has ended, after every notice of its end: the
	// platform closes its place (a Telegram topic, a Discord thread), and
	// nothing more is posted there. Adapters that close nothing ignore it.
	NoticePlaceDone
	// NoticeReviewed: the review of the finished game Game, asked at Key
	// when it was not ready, is ready (Service.Review).
	NoticeReviewed
)

// Notice is one message for one user, or for the channel (To is zero).
type Notice struct {
	Kind    NoticeKind
	Key     Key
	To      User
	Session *Snapshot
	// Seat and Move: the seat that moved and its move (NoticeMoved).
	Seat int
	Move *rules.Move
	// Auto: the clock played the move for a player out of time.
	Auto bool
	// Left is the time left to move (NoticeReminder).
	Left time.Duration
	// Tour is the tournament event (NoticeTournament, NoticeTourGame).
	Tour *TourEvent
	// Event is the change made elsewhere (NoticeEvent).
	Event *Event
	// Game is the id of the finished game reviewed (NoticeReviewed), and
	// By who asked for it there (the notice is in their language).
	Game string
	By   User
}
