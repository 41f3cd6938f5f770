package telegram

import (
	"context"
	"strconv"
	"strings"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/boardgamebot/bot/sessions"
)

// Notify shows a notice of the sessions service. Posts for the channel
// (the computer's move, the clock's auto-move, an expired challenge) go
// to the game's chat, in order after the reply being sent there. Pings for
// a player (your turn, a reminder, the end of the game) go by private
// message to players who asked for them (/notify on), with a button back
// to the game's chat; a reminder for a player without pings is a mention in
// the game's chat instead. Notify never blocks: the messages are queued.
//
// Tournaments: a tournament's news (a round paired or ended, the
// standings) goes to the tournament's topic or chat, and a game's opening
// to the game's topic, as its board mentioning both players; the players'
// pings about it are as for a turn.
func (b *Bot) Notify(ctx context.Context, n sessions.Notice) {
	tourNews := n.Kind == sessions.NoticeTournament && n.Tour != nil && n.To.IsZero()
	if n.Key.Platform != Platform || (n.Session == nil && !tourNews && n.Kind != sessions.NoticeReviewed) {
		return
	}
	chatID, err := strconv.ParseInt(n.Key.Channel, 10, 64)
	if err != nil {
		return
	}
	w := where{chat: chatID}
	if n.Key.Thread != "" {
		w.thread, _ = strconv.Atoi(n.Key.Thread)
	}
	if n.To.IsZero() {
		b.work.push(chatID, func() { b.post(w, n) })
		return
	}
	b.ping(w, n)
}

// post shows a notice without a To in the game's chat, in the words of
// the chat handler, with the board and its buttons as after a command. A
// tournament game's first board mentions both players.
func (b *Bot) post(w where, n sessions.Notice) {
	if n.Kind == sessions.NoticePlaceDone {
		b.closeTopic(w, n.Session)
		return
	}
	r := b.h.NoticeReply(n)
	b.deliverLead(b.sending(), w, r, 0, n.Session, b.noticeLead(r.Lang, n))
}

// ping sends a notice for one player.
func (b *Bot) ping(w where, n sessions.Notice) {
	uid, err := strconv.ParseInt(n.To.ID, 10, 64)
	if err != nil || uid <= 0 || n.Key.Channel == n.To.ID {
		return
	}
	b.mu.Lock()
	on := b.optedIn[uid]
	ci := b.chats[w.chat]
	b.mu.Unlock()
	s := n.Session
	words := b.h.Catalogues().In(b.h.LangOfUser(b.sending(), Platform, n.To))
	game := esc(words.GameName(s.Game.ID(), s.Game.Name()))
	if !on {
		if n.Kind == sessions.NoticeReminder && w.chat < 0 {
			const marker = "\x00"
			before, after, _ := strings.Cut(words.T("PingReminderHere", "Name", marker, "Left", b.h.Left(words.Lang, n.Left), "Game", marker+marker), marker)
			after = strings.Replace(esc(after), marker+marker, game, 1)
			b.sendText(w, esc(before)+mention(n.To)+after, nil, 0, news)
		}
		return
	}
	place := esc(words.T("ThisChat"))
	if ci.title != "" {
		place = "<b>" + esc(ci.title) + "</b>"
	}
	var text string
	switch n.Kind {
	case sessions.NoticeYourTurn:
		text = words.T("PingYourTurn", "Game", game, "Place", place)
		if s.Last != nil {
			text += " " + esc(words.T("LastMove", "Move", s.Last.Text))
		}
	case sessions.NoticeReminder:
		text = words.T("PingReminder", "Left", esc(b.h.Left(words.Lang, n.Left)), "Game", game, "Place", place)
	case sessions.NoticeTourGame:
		// A tournament game opened: the chat handler words the ping.
		text = esc(b.h.NoticeReplyIn(words.Lang, n).Text())
	case sessions.NoticeGameOver:
		text = words.T("PingGameOver", "Game", game, "Place", place)
		if s.Record.Result != nil {
			text += " " + esc(b.h.ResultLineIn(words.Lang, s))
		}
	default:
		text = words.T("PingNews", "Game", game, "Place", place)
	}
	// The private message waits in the game chat's queue for the board
	// being sent there (the handler that caused the notice queues it
	// next), so that its button links to that board; then it goes into
	// the player's own chat, as news there.
	handover := &parcel{rank: news, sends: []send{{what: "ping", quiet: true, run: func(ctx context.Context) error {
		b.mu.Lock()
		last := b.boards[w].id
		b.mu.Unlock()
		p := where{chat: uid}.params()
		p["text"] = text
		p["parse_mode"] = "HTML"
		if link := chatLink(w, ci, last); link != "" {
			addMarkup(p, &tgbotapi.InlineKeyboardMarkup{InlineKeyboard: [][]tgbotapi.InlineKeyboardButton{{{Text: words.T("ButtonGoToGame"), URL: &link}}}})
		}
		ping := &parcel{rank: news}
		ping.add("ping", func(ctx context.Context) error {
			_, err := b.c.call(ctx, "sendMessage", p, nil)
			if chatGone(err) {
				// Blocked, or the private chat is gone: no more pings.
				b.log.Info("telegram: pings turned off for a user who blocked the bot", "user", uid)
				_ = b.changePings(ctx, uid, false, true)
				return nil
			}
			return err
		})
		b.out.push(uid, ping)
		return nil
	}}}}
	b.work.push(w.chat, func() { b.out.push(w.chat, handover) })
}

// chatLink is a t.me link to the game's place (to its last board, when
// known, inside its forum topic when it has one), or "" for chats without
// links (basic groups).
func chatLink(w where, ci chatInfo, board int) string {
	msg := strconv.Itoa(board)
	if w.thread != 0 {
		msg = strconv.Itoa(w.thread) + "/" + msg
	}
	switch {
	case ci.username != "" && board != 0:
		return "https://t.me/" + ci.username + "/" + msg
	case ci.username != "":
		return "https://t.me/" + ci.username
	case board != 0 && strings.HasPrefix(strconv.FormatInt(w.chat, 10), "-100"):
		return "https://t.me/c/" + strings.TrimPrefix(strconv.FormatInt(w.chat, 10), "-100") + "/" + msg
	}
	return ""
}
