package chat

import (
	"fmt"

	"github.com/boardgamebot/bot/rules"
	"github.com/boardgamebot/bot/rules/games"
	"github.com/boardgamebot/bot/sessions"
)

// reasonWords words why a game ended; seat names the seats.
func reasonWords(r *sessions.Result, seat func(int) string) string {
	switch r.Reason {
	case rules.NoPieces:
		return "no pieces left"
	case rules.NoMove:
		return "no legal move"
	case rules.Repetition:
		return "threefold repetition"
	case rules.KingMoves:
		return fmt.Sprintf("%d moves with kings only", r.N)
	case rules.ThreeKings:
		return fmt.Sprintf("three kings against one for %d moves", r.N)
	case rules.FewKings:
		return "kings only, equal and few"
	case rules.QuietPlies:
		return fmt.Sprintf("%d plies without capture or promotion", r.N)
	case rules.CampFilled:
		return "camp filled"
	case rules.OthersLeft:
		return "the others left"
	case rules.LeftHome:
		return fmt.Sprintf("a piece still at home after move %d", r.N)
	case rules.Resigned:
		return seat(r.By) + " resigned"
	case rules.DrawAgreed:
		return "draw agreed"
	case rules.Abandoned:
		return fmt.Sprintf("%s abandoned (%d moves in a row played by the clock)", seat(r.By), r.N)
	case rules.TargetReached:
		return "target reached"
	}
	return ""
}

// recordSeat names the seats of a stored game by its rules.
func recordSeat(rec *sessions.Record) func(int) string {
	var names []string
	if g, err := games.New(rec.Game, rec.Options); err == nil {
		names = g.Seats()
	}
	return func(seat int) string {
		if seat >= 0 && seat < len(names) {
			return names[seat]
		}
		return "a player"
	}
}
