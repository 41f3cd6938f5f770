package sessions

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/boardgamebot/bot/rules"
)

// RecordVersion is the schema version written in every stored Record.
// Version 2 stores a finished game's Result as a code (Result.Reason, N,
// By); version 1 stored an English phrase, which reading maps to the code
// (see Result.UnmarshalJSON).
const RecordVersion = 2

// OldestRecordVersion is the oldest record version this bot reads.
const OldestRecordVersion = 1

// Key names a session: one game at a time per platform, channel and thread
// (Discord thread, Telegram forum topic; empty when there is none).
//
// On Telegram the channel is the chat's id, so a group's key names its
// community (see Request.Community); on Discord it is the channel (the
// thread's parent), and the server (guild) the channel belongs to is not
// in the key: requests carry it.
type Key struct {
	Platform string `json:"platform"`
	Channel  string `json:"channel"`
	Thread   string `json:"thread,omitempty"`
}

// String returns the key as "platform:channel" or "platform:channel:thread".
func (k Key) String() string {
	if k.Thread == "" {
		return k.Platform + ":" + k.Channel
	}
	return k.Platform + ":" + k.Channel + ":" + k.Thread
}

// User is a person on a platform: the platform's user id and a display
// name. A User with an empty ID (a challenge to "@bob" on a platform that
// gives no id for a name) matches by name.
type User struct {
	ID   string `json:"id,omitempty"`
	Name string `json:"name"`
	// Computer marks the computer opponent's seat (ComputerID).
	Computer bool `json:"computer,omitempty"`
}

// ComputerID is the user id of the computer opponent; no platform user id
// has a "#".
const ComputerID = "#computer"

// ComputerUser returns the computer opponent as a seat's user.
func ComputerUser() User { return User{ID: ComputerID, Name: "Computer", Computer: true} }

// Is reports whether u and v are the same person: the same ID when v has
// one, otherwise the same name, ignoring case and a leading @.
func (u User) Is(v User) bool {
	if u.ID != "" && v.ID != "" {
		return u.ID == v.ID
	}
	return u.Name != "" && strings.EqualFold(strings.TrimPrefix(u.Name, "@"), strings.TrimPrefix(v.Name, "@"))
}

// Key is the one key of u among the users of a platform, for what is
// kept or locked per user (the rate limits, the caps' locks, the
// computer's turns, the languages seen): the platform and the user's id,
// or, when the platform gives none, their name as Is compares it (any
// case, without @). A User does not know its platform: the caller says it.
func (u User) Key(platform string) string {
	id := u.ID
	if id == "" {
		id = "@" + strings.ToLower(strings.TrimPrefix(u.Name, "@"))
	}
	return platform + "\x00" + id
}

// IsZero reports whether u is nobody (an open seat).
func (u User) IsZero() bool { return u.ID == "" && u.Name == "" }

// ActionKind says what an Action did.
type ActionKind string

// The kinds of actions a record lists.
const (
	ActMove ActionKind = "move" // a move in the game's notation
	ActForm ActionKind = "form" // an Ultradamas formation ("default" or squares)
	ActHuff ActionKind = "huff" // a Damas huff: the square of the huffed piece
	// ActRetire: Seat left a game of more than two players (Text says why:
	// "resigned" or "abandoned") and the others play on (rules.Retirer).
	ActRetire ActionKind = "retire"
)

// Action is one thing a player did to the game state, in the order played.
// Replaying a record's actions from its start rebuilds the state.
type Action struct {
	Kind ActionKind `json:"k"`
	Seat int        `json:"s"`
	Text string     `json:"t"`
	At   time.Time  `json:"at"`
}

// Color is the seat a challenger asks for in a two-player game.
type Color string

// The colours /play accepts.
const (
	ColorRandom Color = "random"
	ColorWhite  Color = "white" // the first seat (White, Red, Player 1)
	ColorBlack  Color = "black" // the second seat
)

// PlayOptions are the options of /play that belong to the session rather
// than to the game: the clock, the challenger's colour, whether the game is
// rated, the computer's level. They are stored with the session; the clock,
// the ratings and the computer opponent use them (issues 7 and 8).
type PlayOptions struct {
	// Time is the time per move ("5m", "1h", "1d", "3d"); 0 means off;
	// TimeDefault takes the platform's default (Config.DefaultTime).
	Time Duration `json:"time,omitempty"`
	// Color is the seat the challenger asked for.
	Color Color `json:"color,omitempty"`
	// Rated is false for rated=no.
	Rated bool `json:"rated"`
	// Level is the computer's level, 1 to 5 (0: the default).
	Level int `json:"level,omitempty"`
}

// DefaultPlayOptions are the session options of a /play without any.
func DefaultPlayOptions() PlayOptions {
	return PlayOptions{Color: ColorRandom, Rated: true, Time: TimeDefault}
}

// TimeDefault, as PlayOptions.Time, asks for the platform's default time
// per move; the Service replaces it before it stores the session.
const TimeDefault Duration = -1

// PlayOptionKeys lists the option keys that PlayOptions.Set takes, in the
// order /games shows them.
var PlayOptionKeys = []string{"time", "color", "rated", "level"}

// Set sets one option from its text. It reports whether key is a session
// option at all; the error is an *Error of kind ErrBadOption.
func (p *PlayOptions) Set(key, value string) (bool, error) {
	typed := strings.TrimSpace(value)
	value = strings.ToLower(typed)
	switch strings.ToLower(key) {
	case "time":
		d, err := ParseDuration(value)
		if err != nil || !IsMoveTime(d) {
			return true, badValue("time", typed, moveTimeChoices())
		}
		p.Time = d
	case "color", "colour":
		switch value {
		case "white", "red", "first":
			p.Color = ColorWhite
		case "black", "second":
			p.Color = ColorBlack
		case "random":
			p.Color = ColorRandom
		default:
			return true, badValue("color", typed, []string{"white", "black", "random"})
		}
	case "rated":
		switch value {
		case "yes":
			p.Rated = true
		case "no":
			p.Rated = false
		default:
			return true, badValue("rated", typed, []string{"yes", "no"})
		}
	case "level":
		if len(value) != 1 || value[0] < '1' || value[0] > '5' {
			return true, badValue("level", typed, []string{"1", "2", "3", "4", "5"})
		}
		p.Level = int(value[0] - '0')
	default:
		return false, nil
	}
	return true, nil
}

// MoveTimes returns the times per move a game may have, shortest first,
// and 0 (off) last: 5m, 10m, 1h, 1d, 3d, off. Nothing else is offered, so
// that a challenger cannot pick a clock that forces the opponent to
// abandon (1s) or that never runs out in practice (100000h).
func MoveTimes() []Duration {
	return []Duration{Duration(5 * time.Minute), Duration(10 * time.Minute), Duration(time.Hour),
		Duration(24 * time.Hour), Duration(72 * time.Hour), 0}
}

// IsMoveTime reports whether d is one of MoveTimes.
func IsMoveTime(d Duration) bool { return slices.Contains(MoveTimes(), d) }

// moveTimeChoices are MoveTimes as /play takes them.
func moveTimeChoices() []string {
	var out []string
	for _, d := range MoveTimes() {
		out = append(out, d.String())
	}
	return out
}

// Duration is a time span written as Go writes durations, with "d" for
// days and "off" for none: "5m", "1h30m", "3d", "off".
type Duration time.Duration

// ParseDuration reads a Duration: "off" or "0" is 0; "Nd" is N days;
// anything else as time.ParseDuration reads it. Negative spans are errors.
func ParseDuration(s string) (Duration, error) {
	s = strings.TrimSpace(strings.ToLower(s))
	if s == "off" || s == "0" || s == "none" {
		return 0, nil
	}
	if n, ok := strings.CutSuffix(s, "d"); ok {
		var days int
		if _, err := fmt.Sscanf(n, "%d", &days); err != nil || fmt.Sprint(days) != n || days <= 0 || days > 365 {
			return 0, fmt.Errorf("%q is not a duration (examples: 5m, 1h, 3d, off)", s)
		}
		return Duration(time.Duration(days) * 24 * time.Hour), nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return 0, fmt.Errorf("%q is not a duration (examples: 5m, 1h, 3d, off)", s)
	}
	return Duration(d), nil
}

// String writes d as ParseDuration reads it: "off", "3d", "1h", "1h30m", "5m".
func (d Duration) String() string {
	td := time.Duration(d)
	switch {
	case d == TimeDefault:
		return "default"
	case td == 0:
		return "off"
	case td%(24*time.Hour) == 0:
		return fmt.Sprintf("%dd", td/(24*time.Hour))
	case td%time.Hour == 0:
		return fmt.Sprintf("%dh", td/time.Hour)
	case td%time.Minute == 0 && td > time.Hour:
		return fmt.Sprintf("%dh%dm", td/time.Hour, td%time.Hour/time.Minute)
	case td%time.Minute == 0:
		return fmt.Sprintf("%dm", td/time.Minute)
	}
	return td.String()
}

// Result is how a finished game ended.
type Result struct {
	// Winner is the winning seat, or -1 for a draw (or no winner).
	Winner int `json:"winner"`
	// Reason is why the game ended, as a code; adapters word it.
	Reason rules.Reason `json:"why"`
	// N is the number Reason names (rules.Outcome.N; for Abandoned, the
	// moves the clock played in a row).
	N int `json:"n,omitempty"`
	// By is the seat that resigned or abandoned (Reason rules.Resigned,
	// rules.Abandoned), -1 otherwise.
	By    int       `json:"by"`
	Ended time.Time `json:"ended"`
	// FEN is the final position.
	FEN string `json:"fen,omitempty"`
	// Abandoned: the loser (the seat that is not Winner; with more players,
	// the last one to leave) let the clock play for them
	// AutoMovesToAbandon times in a row.
	Abandoned bool `json:"abandoned,omitempty"`
}

// Record is a session as it is stored: everything needed to rebuild it.
type Record struct {
	V int `json:"v"`
	// ID is the finished game's id in the history, set by the Store when
	// the game is stored as finished; empty before.
	ID  string `json:"id,omitempty"`
	Key Key    `json:"key"`
	// Community is where the game is played, for the community ladders:
	// the Request.Community of the challenge (or the tournament's); empty
	// for private chats and the console. A game an older bot started
	// takes the community of the next request that changes it.
	Community  string            `json:"community,omitempty"`
	Game       string            `json:"game"`
	Options    map[string]string `json:"options,omitempty"`
	Play       PlayOptions       `json:"play"`
	Challenger User              `json:"challenger"`
	// Invited are the users the challenge names; none means anyone in the
	// channel may accept.
	Invited []User `json:"invited,omitempty"`
	// Seats holds the user of each seat, in the game's seat order; a zero
	// User is a seat still open.
	Seats []User `json:"seats"`
	// First is the seat that moves first (Halma draws it).
	First int `json:"first"`
	// Start is the starting position as FEN; empty for the game's usual start.
	Start string `json:"start,omitempty"`
	// Actions are the moves, formations, huffs and retirements, in order.
	Actions []Action `json:"actions,omitempty"`
	// DrawOffer lists the seats that offer a draw now.
	DrawOffer []int     `json:"draw_offer,omitempty"`
	Created   time.Time `json:"created"`
	// Started is when the last seat was filled; zero while a challenge.
	Started time.Time `json:"started,omitzero"`
	Updated time.Time `json:"updated"`
	Result  *Result   `json:"result,omitempty"`

	// Version counts the committed changes of the session; a computer
	// move searched off the lock is applied only if it has not changed.
	Version int `json:"ver,omitempty"`
	// Deadline is when the player to move (or, in a formation step, every
	// seat still to choose) runs out of time; zero without a clock.
	Deadline time.Time `json:"deadline,omitzero"`
	// Reminded: the reminder for Deadline was sent.
	Reminded bool `json:"reminded,omitempty"`
	// Auto counts, per seat, the moves the clock played in a row for it.
	Auto []int `json:"auto,omitempty"`
	// Expires is when an unanswered challenge lapses; zero for never.
	Expires time.Time `json:"expires,omitzero"`
	// Takeback lists the seats asking to take their last move back.
	Takeback []int `json:"takeback,omitempty"`
	// Ratings are the rating changes of a finished game (set by the store).
	Ratings []RatingChange `json:"ratings,omitempty"`

	// Snap, in a live session whose game state is a rules.Saver, is the
	// state after the first SnapAt actions (its Save): loading the
	// session restores it and plays the actions after it (one: the last
	// move, which the board shows) instead of every action from the start.
	Snap   []byte `json:"snap,omitempty"`
	SnapAt int    `json:"snap_at,omitempty"`

	// Tour marks a tournament game: its end writes the result into the
	// tournament in the same transaction.
	Tour *TourRef `json:"tour,omitempty"`
}

// Phase is where a session is in its life.
type Phase int

// The phases of a session.
const (
	PhaseNone      Phase = iota // no session
	PhaseChallenge              // a challenge waiting for its seats to fill
	PhasePlaying                // a game in progress (including a formation step)
	PhaseFinished               // the game has ended
)

// String names the phase.
func (p Phase) String() string {
	return [...]string{"none", "challenge", "playing", "finished"}[p]
}

// Phase returns the record's phase.
func (r *Record) Phase() Phase {
	switch {
	case r == nil:
		return PhaseNone
	case r.Result != nil:
		return PhaseFinished
	case r.Started.IsZero():
		return PhaseChallenge
	}
	return PhasePlaying
}

// Due is when the clock next has something to do for the session: the
// reminder, the deadline, the challenge's expiry; zero for nothing. Stores
// index live sessions by it.
func (r *Record) Due() time.Time {
	switch r.Phase() {
	case PhaseChallenge:
		return r.Expires
	case PhasePlaying:
		if r.Deadline.IsZero() {
			return time.Time{}
		}
		if !r.Reminded {
			return r.Deadline.Add(-time.Duration(r.Play.Time) / ReminderShare)
		}
		return r.Deadline
	}
	return time.Time{}
}

// Retired reports whether seat has left the game (an ActRetire action):
// it resigned or abandoned a game of more than two players, and the
// others play on.
func (r *Record) Retired(seat int) bool {
	for _, a := range r.Actions {
		if a.Kind == ActRetire && a.Seat == seat {
			return true
		}
	}
	return false
}

// SeatsOf returns the seats u holds, in seat order.
func (r *Record) SeatsOf(u User) []int {
	var out []int
	for i, s := range r.Seats {
		if !s.IsZero() && s.Is(u) {
			out = append(out, i)
		}
	}
	return out
}

// Clone returns a deep copy of r.
func (r *Record) Clone() *Record {
	if r == nil {
		return nil
	}
	c := *r
	if r.Options != nil {
		c.Options = make(map[string]string, len(r.Options))
		for k, v := range r.Options {
			c.Options[k] = v
		}
	}
	c.Invited = append([]User(nil), r.Invited...)
	c.Seats = append([]User(nil), r.Seats...)
	c.Actions = append([]Action(nil), r.Actions...)
	c.DrawOffer = append([]int(nil), r.DrawOffer...)
	c.Auto = append([]int(nil), r.Auto...)
	c.Takeback = append([]int(nil), r.Takeback...)
	c.Ratings = append([]RatingChange(nil), r.Ratings...)
	c.Snap = append([]byte(nil), r.Snap...)
	if r.Result != nil {
		res := *r.Result
		c.Result = &res
	}
	if r.Tour != nil {
		t := *r.Tour
		c.Tour = &t
	}
	return &c
}
