package chat

import (
	"slices"
	"strconv"
	"strings"

	"github.com/boardgamebot/bot/rules"
	"github.com/boardgamebot/bot/sessions"
)

// picture asks for the board from the point of view of the player to
// move, else of the sender's seat, else of the first seat.
func picture(s *sessions.Snapshot, viewer sessions.User) *Picture {
	if s == nil || s.State == nil {
		return nil
	}
	seat := s.Turn()
	if seat < 0 {
		seat = 0
		if mine := s.Record.SeatsOf(viewer); len(mine) > 0 {
			seat = mine[0]
		}
	}
	v := s.State.View()
	if s.Record.Result != nil { // ended by resignation, agreement or the clock: the rules may not know
		v.Turn, v.Movable = -1, nil
	}
	last := s.Last
	if sq, ok := turnHuff(s, v); ok && last != nil {
		m := *last
		m.Captured = append(slices.Clip(m.Captured), sq)
		last = &m
	}
	return &Picture{View: v, Last: last, Viewer: seat, FEN: s.State.FEN(), Game: s.Game.ID(), Seats: s.Game.Seats()}
}

// turnHuff returns the square of the piece huffed in the turn now shown:
// the last action, or the one before the mover's move. The picture marks
// it as the captured pieces are marked (a cross), with the last move.
func turnHuff(s *sessions.Snapshot, v rules.View) (rules.Square, bool) {
	acts := s.Record.Actions
	i := len(acts) - 1
	if i > 0 && acts[i].Kind == sessions.ActMove && acts[i-1].Seat == acts[i].Seat {
		i--
	}
	if i < 0 || acts[i].Kind != sessions.ActHuff {
		return rules.Square{}, false
	}
	return squareNamed(v, acts[i].Text)
}

// squareNamed finds the square text names on the board of v: algebraic
// ("b4") or, where the squares are numbered, its number ("14").
func squareNamed(v rules.View, text string) (rules.Square, bool) {
	if sq, err := rules.ParseSquare(text, v.Size); err == nil {
		return sq, true
	}
	for sq, n := range v.Numbers {
		if strconv.Itoa(n) == strings.TrimSpace(text) {
			return sq, true
		}
	}
	return rules.Square{}, false
}
