package chat

import (
	"github.com/boardgamebot/bot/sessions"
)

// ResultLine tells how a game ended, in the bot's default language:
// "Game over: alice (White) wins (Black resigned). Saved as game #12."
func (h *Handler) ResultLine(s *sessions.Snapshot) string {
	return h.words.In("").resultLine(s)
}

// ResultLineIn tells how a game ended, in lang.
func (h *Handler) ResultLineIn(lang string, s *sessions.Snapshot) string {
	return h.words.In(lang).resultLine(s)
}

// SeatLabel names a seat for people: "White", "Player 2, blue".
func (p Speaker) SeatLabel(s *sessions.Snapshot, seat int) string { return p.seatLabel(s, seat) }

// OrList joins words as "a, b or c".
func (p Speaker) OrList(words []string) string { return p.orList(words) }

// AndList joins names as "a, b and c".
func (p Speaker) AndList(names []string) string { return p.andList(names) }
