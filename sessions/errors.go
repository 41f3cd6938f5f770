package sessions

import (
	"errors"
	"fmt"
	"strings"
)

// The kinds of errors the Service returns. Every error from a Service method
// is an *Error whose Kind is one of these; adapters test them with errors.Is
// and turn them into text for people.
var (
	// ErrNoGame: nothing is being played here (no session, or only a challenge).
	ErrNoGame = errors.New("sessions: no game here")
	// ErrNotStarted: a challenge is open but its seats are not all taken yet.
	ErrNotStarted = errors.New("sessions: the game has not started")
	// ErrGameRunning: a challenge or game already occupies this session.
	ErrGameRunning = errors.New("sessions: a game is running here")
	// ErrNoChallenge: /accept, /decline or /cancel with nothing to answer.
	ErrNoChallenge = errors.New("sessions: no challenge here")
	// ErrNotInvited: the challenge is meant for someone else, or is one's own.
	ErrNotInvited = errors.New("sessions: not invited")
	// ErrAlreadyJoined: the user already holds a seat of this challenge.
	ErrAlreadyJoined = errors.New("sessions: already joined")
	// ErrNotPlayer: the user plays no seat in this game.
	ErrNotPlayer = errors.New("sessions: not a player")
	// ErrNotChallenger: only the challenger may cancel the challenge.
	ErrNotChallenger = errors.New("sessions: not the challenger")
	// ErrNotYourTurn: another seat is to move.
	ErrNotYourTurn = errors.New("sessions: not your turn")
	// ErrIllegalMove: the rules refused the move; Err is the rules error.
	ErrIllegalMove = errors.New("sessions: illegal move")
	// ErrBadSetup: the rules refused the formation; Err is the rules error.
	ErrBadSetup = errors.New("sessions: bad formation")
	// ErrNotNow: the action exists but not at this point (a move during the
	// formation step, /setup after it, /huff without the right).
	ErrNotNow = errors.New("sessions: not now")
	// ErrBadOption: an unknown game, an unknown option or a bad value.
	ErrBadOption = errors.New("sessions: bad option")
	// ErrAlreadyOffered: the user's draw offer is already on the table.
	ErrAlreadyOffered = errors.New("sessions: draw already offered")
	// ErrBroken: the session's stored record does not replay (a move the
	// rules now refuse, an unknown game); the log says why.
	ErrBroken = errors.New("sessions: the session's record does not replay")
	// ErrDamaged: the store found the data damaged (a record that does not
	// decode, a bad page of the file): this session or record cannot be
	// read, the others work. The store logs the damage (once per record).
	// Stores wrap it too.
	ErrDamaged = errors.New("sessions: stored data damaged")
	// ErrStorage: the store failed; nothing changed.
	ErrStorage = errors.New("sessions: storage failed")
	// ErrUnknownOutcome: the store could not find out whether the change
	// was saved (a transaction sent to etcd whose answer was lost, and
	// etcd out of reach until the store's bound): it may or may not have
	// been; the session as stored shows which (the Service loads it again
	// on its next use). Stores wrap it.
	ErrUnknownOutcome = errors.New("sessions: whether the change was saved is not known")
	// ErrNotFound: the store has no such record (stores wrap it).
	ErrNotFound = errors.New("sessions: not found")
	// ErrConflict: another process changed the session since this one
	// loaded it (a store shared by several processes). Stores wrap it;
	// the Service then loads the session again and re-runs the request
	// once, so it is never a Service error's Kind.
	ErrConflict = errors.New("sessions: changed by another process")
	// ErrDuplicate: the request's id (Request.ID) was applied before: the
	// platform delivered the same update twice. Nothing changed.
	ErrDuplicate = errors.New("sessions: request already applied")
	// ErrNoSuchGame: /show, /replay, /export or /rematch found no such
	// finished game.
	ErrNoSuchGame = errors.New("sessions: no such finished game")
	// ErrNoTakeback: /takeback with no move of the user's to take back, or
	// after the opponent has moved.
	ErrNoTakeback = errors.New("sessions: nothing to take back")
	// ErrCapped: the user holds as many open challenges, games against
	// the computer or tournaments as Config.Caps allows; Err is a *Capped
	// with the values. Nothing changed.
	ErrCapped = errors.New("sessions: a per-user cap is reached")
)

// Kinds lists every error kind a Service method may return.
var Kinds = []error{ErrNoGame, ErrNotStarted, ErrGameRunning, ErrNoChallenge, ErrNotInvited, ErrAlreadyJoined,
	ErrNotPlayer, ErrNotChallenger, ErrNotYourTurn, ErrIllegalMove, ErrBadSetup, ErrNotNow, ErrBadOption,
	ErrAlreadyOffered, ErrBroken, ErrDamaged, ErrStorage, ErrUnknownOutcome, ErrDuplicate, ErrNoSuchGame, ErrNoTakeback,
	ErrNoTournament, ErrTournamentOpen, ErrNotOrganiser, ErrNotEntered, ErrPlayerCount, ErrSignupClosed, ErrNoPlaces,
	ErrWithdrawn, ErrNoRoundLeft, ErrCapped, ErrNotFinished, ErrPrivateGame}

// Error is an error of the Service: its kind, a one-line detail for logs,
// the underlying error (the rules error of an illegal move, the store's
// error), and the session as it stands, so that an adapter can say whose
// turn it is or list legal moves.
type Error struct {
	Kind    error
	Msg     string
	Err     error
	Session *Snapshot
}

func (e *Error) Error() string {
	s := e.Kind.Error()
	if e.Msg != "" {
		s += ": " + e.Msg
	}
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

// Unwrap returns the kind and the underlying error, so that errors.Is
// matches both (ErrIllegalMove and rules.ErrIllegal).
func (e *Error) Unwrap() []error {
	if e.Err != nil {
		return []error{e.Kind, e.Err}
	}
	return []error{e.Kind}
}

func errf(kind, cause error, format string, args ...any) *Error {
	return &Error{Kind: kind, Err: cause, Msg: fmt.Sprintf(format, args...)}
}

// storeKind is the kind of a failed store call: ErrDamaged when the store
// found damaged data, ErrUnknownOutcome when it could not tell whether a
// change was saved, ErrStorage otherwise (nothing changed).
func storeKind(err error) error {
	switch {
	case errors.Is(err, ErrDamaged):
		return ErrDamaged
	case errors.Is(err, ErrUnknownOutcome):
		return ErrUnknownOutcome
	}
	return ErrStorage
}

// storeFailed logs a failed store call, except damage, which the store
// logs itself, once per record.
func (s *Service) storeFailed(msg string, err error, args ...any) {
	if !errors.Is(err, ErrDamaged) {
		s.log.Error(msg, append(args, "err", err)...)
	}
}

// KindOf returns the kind of err: one of the Err variables of this package,
// or nil when err is not a sessions error.
func KindOf(err error) error {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return nil
}

// BadValue is the cause of an ErrBadOption error whose option takes only
// some values: the option, the value given and the values it takes, for
// the adapter to word.
type BadValue struct {
	Key     string
	Value   string
	Choices []string
}

func (e *BadValue) Error() string {
	return fmt.Sprintf("%s=%q is not one of %s", e.Key, e.Value, strings.Join(e.Choices, ", "))
}

// Invite problems: what is wrong with the players a challenge names.
const (
	// InviteTooMany: more players named than the game has seats for
	// the others (Players is the game's number of players).
	InviteTooMany = iota + 1
	// InviteTwice: the same player named twice (Name).
	InviteTwice
	// InviteComputer: a game against the computer that names players.
	InviteComputer
)

// BadInvite is the cause of an ErrBadOption error about the players a
// challenge names, for the adapter to word.
type BadInvite struct {
	Problem int
	Game    string // the game's id
	Players int    // the game's number of players (InviteTooMany)
	Name    string // the player named twice (InviteTwice)
}

func (e *BadInvite) Error() string {
	switch e.Problem {
	case InviteTooMany:
		return fmt.Sprintf("%s is a game for %d players: name at most %d", e.Game, e.Players, e.Players-1)
	case InviteTwice:
		return fmt.Sprintf("%s is named twice", e.Name)
	}
	return "a game against the computer names no one"
}

// badInvite returns the ErrBadOption error of a challenge's named players.
func badInvite(b BadInvite) *Error { return &Error{Kind: ErrBadOption, Err: &b} }

// badValue returns the ErrBadOption error of a value outside choices.
func badValue(key, value string, choices []string) *Error {
	return &Error{Kind: ErrBadOption, Err: &BadValue{Key: key, Value: value, Choices: choices}}
}
