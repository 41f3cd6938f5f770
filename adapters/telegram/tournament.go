package telegram

import (
	"context"
	"strings"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/boardgamebot/bot/adapters/chat"
	"github.com/boardgamebot/bot/sessions"
)

// pairing is the HTML line that mentions the two players of a game in
// lang ("alice – bob", TelegramTourPlayers), each a text mention that
// notifies them.
func (b *Bot) pairing(lang string, s *sessions.Snapshot) string {
	if s == nil || s.Record == nil || len(s.Record.Seats) < 2 {
		return ""
	}
	const white, black = "\x00", "\x01"
	line := esc(b.h.Words().In(lang).T("TelegramTourPlayers", "White", white, "Black", black))
	line = strings.Replace(line, white, mention(s.Record.Seats[0]), 1)
	return strings.Replace(line, black, mention(s.Record.Seats[1]), 1)
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

// replyHTML is a reply's text in HTML: its lines escaped, and the lines
// of its table (the standings, Reply.Table) in a monospace block, so that
// the columns line up.
func replyHTML(r chat.Reply) string {
	t := r.Table
	if t.From >= t.To || t.From < 0 || t.To > len(r.Lines) {
		return esc(r.Text())
	}
	var parts []string
	if t.From > 0 {
		parts = append(parts, esc(strings.Join(r.Lines[:t.From], "\n")))
	}
	parts = append(parts, "<pre>"+esc(strings.Join(r.Lines[t.From:t.To], "\n"))+"</pre>")
	if t.To < len(r.Lines) {
		parts = append(parts, esc(strings.Join(r.Lines[t.To:], "\n")))
	}
	return strings.Join(parts, "\n")
}

// splitHTML cuts HTML text at line ends into pieces of at most n
// characters, as split does; a <pre> block cut in two is closed at the end
// of one piece and opened again at the start of the next (the only tags
// that span lines are the bot's own <pre>: text is escaped).
func splitHTML(s string, n int) []string {
	const open, end = "<pre>", "</pre>"
	parts := split(s, n-len(open)-len(end))
	inPre := false
	for i, p := range parts {
		if inPre {
			p = open + p
		}
		inPre = strings.Count(p, open) > strings.Count(p, end)
		if inPre {
			p += end
		}
		parts[i] = p
	}
	return parts
}

// addStandings adds the standings picture to a parcel, with the reply's
// text as its caption, or after the text when that is too long for a
// caption; a picture that cannot be drawn leaves the text alone.
func (b *Bot) addStandings(pc *parcel, w where, sp *chat.StandingsPicture, htmlText string, kb *tgbotapi.InlineKeyboardMarkup) {
	caption := htmlText
	if len([]rune(caption)) > maxCaption {
		b.addText(pc, w, htmlText, nil, 0)
		caption = ""
	}
	p := w.params()
	addMarkup(p, kb)
	pc.note("sendPhoto", w, sp.Name+"|"+caption, p)
	pc.add("sendPhoto", func(ctx context.Context) error {
		png, err := b.r.Standings(sp.Table, b.cfg.Picture)
		if err != nil {
			b.log.Error("telegram: drawing the standings", "err", err)
			if caption == "" {
				return nil
			}
			p["text"], p["parse_mode"] = caption, "HTML"
			_, err := b.c.call(ctx, "sendMessage", p, nil)
			return err
		}
		if caption != "" {
			p["caption"], p["parse_mode"] = caption, "HTML"
		}
		name := sp.Name
		if name == "" {
			name = "standings.png"
		}
		_, err = b.c.call(ctx, "sendPhoto", p, []tgbotapi.RequestFile{{Name: "photo", Data: tgbotapi.FileBytes{Name: name, Bytes: png}}})
		return err
	})
}
