package sessions

import (
	"github.com/boardgamebot/bot/rules"
)

// live is a session with its game state rebuilt.
type live struct {
	rec   *Record
	game  rules.Game
	state rules.State // nil during a challenge
	last  *rules.Move
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

func (l *live) phase() Phase {
	if l == nil {
		return PhaseNone
	}
	return l.rec.Phase()
}

// clone copies l for a change. The actions are not copied, so that a
// change costs the same at any ply: the clone shares them and add appends
// to them. That is safe because the actions of a session only grow at the
// end (a takeback copies them: takeBack), and a snapshot shows only its
// own len(Actions).
func (l *live) clone() *live {
	c := *l
	head := *l.rec
	head.Actions = nil
	c.rec = head.Clone()
	c.rec.Actions = l.rec.Actions
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
