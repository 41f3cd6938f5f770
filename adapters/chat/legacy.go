package chat

import (
	"github.com/boardgamebot/bot/sessions"
)

// SeatLabel names a seat for people in the default language (English):
// "White", "Player 2, blue". It is for the adapters that still word
// captions themselves.
func SeatLabel(s *sessions.Snapshot, seat int) string {
	if c := seatColour(s, seat); c != "" {
		return s.SeatName(seat) + ", " + c
	}
	return s.SeatName(seat)
}

// ResultLine tells how a game ended, in the bot's default language:
// "Game over: alice (White) wins (Black resigned). Saved as game #12."
func (h *Handler) ResultLine(s *sessions.Snapshot) string {
	return h.words.In("").resultLine(s)
}
