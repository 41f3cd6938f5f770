package telegram

import (
	"context"
	"strings"

	"github.com/boardgamebot/bot/sessions"
)

// pairing is the HTML line that mentions the two players of a game, White
// first: "alice – bob", each a text mention that notifies them.
func pairing(s *sessions.Snapshot) string {
	if s == nil || s.Record == nil || len(s.Record.Seats) < 2 {
		return ""
	}
	return mention(s.Record.Seats[0]) + " – " + mention(s.Record.Seats[1])
}

// managerCommand reports whether a command's reply depends on whether its
// sender manages the chat: /tournament start and cancel, which the
// organiser or a chat administrator may use.
func managerCommand(name string, args []string) bool {
	if name != "tournament" || len(args) == 0 {
		return false
	}
	sub := strings.ToLower(args[0])
	return sub == "start" || sub == "cancel"
}

// manages reports whether a user manages a group: its creator, or an
// administrator with can_manage_chat (which every administrator right
// implies). A failed call counts as no, and is logged.
func (b *Bot) manages(ctx context.Context, chatID, userID int64) bool {
	if chatID > 0 {
		return false
	}
	m, err := b.member(ctx, chatID, userID)
	if err != nil {
		b.log.Warn("telegram: could not tell whether a user manages the chat", "chat", chatID, "err", err)
		return false
	}
	return m.Status == "creator" || m.Status == "administrator" && m.CanManageChat
}
