package telegram

import (
	"context"
	"strings"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/boardgamebot/bot/chat"
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
	line := esc(b.h.Catalogues().In(lang).T("TelegramTourPlayers", "White", white, "Black", black))
	line = strings.Replace(line, white, mention(s.Record.Seats[0]), 1)
	return strings.Replace(line, black, mention(s.Record.Seats[1]), 1)
}

// noticeLead is the first line of HTML of a notice's post: a
// tournament game's opening board mentions both players, the post that a
// game's place could not be opened mentions the organiser and its players
// (each a text mention that notifies them); "" for the others.
func (b *Bot) noticeLead(lang string, n sessions.Notice) string {
	switch {
	case n.Kind == sessions.NoticeTourGame:
		return b.pairing(lang, n.Session)
	case n.Kind == sessions.NoticeTournament && n.Tour != nil && n.Tour.Kind == sessions.TourPlaceMissing:
		var ms []string
		for _, u := range n.Tour.Told() {
			ms = append(ms, mention(u))
		}
		return strings.Join(ms, " ")
	}
	return ""
}

// closeTopic closes the forum topic of a tournament game that ended
// (closeForumTopic), after the messages queued for it: the result is its
// last message. The bot sends nothing there after (topicClosed).
func (b *Bot) closeTopic(w where, s *sessions.Snapshot) {
	if w.thread == 0 {
		return
	}
	id := ""
	if s != nil && s.Record != nil {
		id = s.Record.ID
	}
	b.mu.Lock()
	if len(b.closed) >= 100000 {
		clear(b.closed)
	}
	b.closed[w] = id
	b.mu.Unlock()
	// After the news queued for the chat (the result), without counting as
	// a message; the answers to lookups still waiting for the topic could
	// never go there.
	b.out.forget(w.chat, w)
	b.out.push(w.chat, &parcel{rank: news, place: w, sends: []send{{what: "closeForumTopic", quiet: true, run: func(ctx context.Context) error {
		_, err := b.c.call(ctx, "closeForumTopic", w.params(), nil)
		return err
	}}}})
}

// topicClosed returns the id of the tournament game that ended in the
// topic w when w is its topic, which the bot closed: nothing is sent
// there any more.
func (b *Bot) topicClosed(ctx context.Context, w where) (string, bool) {
	if w.thread == 0 {
		return "", false
	}
	b.mu.Lock()
	id, ok := b.closed[w]
	b.mu.Unlock()
	if ok {
		return id, true
	}
	rec, err := b.svc.TourPlaceEnded(ctx, w.key())
	if err != nil || rec == nil {
		return "", false
	}
	b.mu.Lock()
	b.closed[w] = rec.ID
	b.mu.Unlock()
	return rec.ID, true
}

// refuseClosed answers a command typed in a closed game topic (only
// administrators may still write there) in the group's General topic,
// mentioning its sender: nothing is sent into the closed topic.
func (b *Bot) refuseClosed(w where, from *tgbotapi.User, game string) {
	words := b.words(from)
	b.sendText(where{chat: w.chat}, mention(userOf(from))+" "+esc(words.T("TourPlaceClosed", "Game", game)), nil, 0, lookup)
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
// text as its caption (addPicture).
func (b *Bot) addStandings(pc *parcel, w where, sp *chat.StandingsPicture, htmlText string, kb *tgbotapi.InlineKeyboardMarkup) {
	name := sp.Name
	if name == "" {
		name = "standings.png"
	}
	b.addPicture(pc, w, name, func() ([]byte, error) { return b.r.Standings(sp.Table, b.cfg.Picture) }, htmlText, kb)
}
