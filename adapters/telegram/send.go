package telegram

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"strconv"
	"strings"
	"unicode/utf8"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/boardgamebot/bot/adapters/chat"
	"github.com/boardgamebot/bot/render"
	"github.com/boardgamebot/bot/rules/games"
	"github.com/boardgamebot/bot/sessions"
)

// Telegram's lengths: a caption, a message, an alert.
const (
	maxCaption = 1024
	maxText    = 4096
	maxAlert   = 200
)

// esc escapes text for parse_mode HTML.
func esc(s string) string { return html.EscapeString(s) }

// mention is an HTML text mention of u: it notifies them even without a
// username.
func mention(u sessions.User) string {
	if _, err := strconv.ParseInt(u.ID, 10, 64); err != nil {
		return esc(u.Name)
	}
	return `<a href="tg://user?id=` + u.ID + `">` + esc(u.Name) + `</a>`
}

// caption is the HTML caption of a board: the game's name, the reply's
// lines with the player to move as a mention, and the deadline. short is
// the name and the turn alone, for when the whole is too long. It is built
// from the reply's values (its session, which line says whose turn it is,
// whether the clock is told), in the reply's language. lead, when set, is
// a line of HTML put under the name in both.
func (b *Bot) caption(r chat.Reply, s *sessions.Snapshot, lead string) (full, short string) {
	words := b.h.Words().In(r.Lang)
	title := r.Picture.Game
	if info, ok := games.Lookup(r.Picture.Game); ok {
		title = info.Name
	}
	head := "<b>" + esc(words.GameName(r.Picture.Game, title)) + "</b>"
	if lead != "" {
		head += "\n" + lead
	}
	var lines []string
	turnLine := ""
	t := -1
	if s != nil {
		t = s.Turn()
	}
	if t >= 0 {
		// The line saying whose turn it is, with the player as a mention.
		const marker = "\x00"
		before, after, _ := strings.Cut(b.h.TurnLine(r.Lang, s, marker), marker)
		turnLine = esc(before) + mention(s.Player(t)) + esc(after)
	}
	for i, l := range r.Lines {
		if i+1 == r.TurnLine && turnLine != "" {
			lines = append(lines, turnLine)
			continue
		}
		lines = append(lines, esc(l))
	}
	if t >= 0 && r.TurnLine == 0 {
		lines = append(lines, turnLine)
	}
	if t >= 0 && !s.Record.Deadline.IsZero() && !r.Clock {
		lines = append(lines, esc(words.T("MoveBy", "Until", s.Record.Deadline.UTC().Format("2006-01-02 15:04"))))
	}
	full = head + "\n" + strings.Join(lines, "\n")
	short = head
	if turnLine != "" {
		short += "\n" + turnLine
	}
	return full, short
}

// ---- sending, through the chat's lane ----

// enqueue queues a send on the chat's lane; counted sends wait for the
// group's limit. Failures are logged: the chat's other messages go on.
func (b *Bot) enqueue(chatID int64, counted bool, what string, f func(ctx context.Context) error) {
	b.out.push(chatID, func() {
		ctx := b.sending()
		if counted && chatID < 0 && b.cfg.GroupLimit > 0 {
			b.mu.Lock()
			l := b.limits[chatID]
			if l == nil {
				l = &limiter{}
				b.limits[chatID] = l
			}
			b.mu.Unlock()
			if err := l.wait(ctx, b.cfg.GroupLimit, b.cfg.GroupWindow, b.now); err != nil {
				b.log.Warn("telegram: a message was not sent", "what", what, "chat", chatID, "err", err)
				return
			}
		}
		if err := f(ctx); err != nil && !notModified(err) {
			b.log.Warn("telegram: a message was not sent", "what", what, "chat", chatID, "err", err)
		}
	})
}

// edit queues an edit or a callback answer on the chat's edit lane: in
// order, not counted, and not behind a group's waiting messages.
func (b *Bot) edit(chatID int64, what string, f func(ctx context.Context) error) {
	b.edits.push(chatID, func() {
		if err := f(b.sending()); err != nil && !notModified(err) {
			b.log.Warn("telegram: call failed", "what", what, "chat", chatID, "err", err)
		}
	})
}

func (w where) params() tgbotapi.Params {
	p := tgbotapi.Params{"chat_id": strconv.FormatInt(w.chat, 10)}
	if w.thread != 0 {
		p["message_thread_id"] = strconv.Itoa(w.thread)
	}
	return p
}

func addMarkup(p tgbotapi.Params, kb *tgbotapi.InlineKeyboardMarkup) {
	if kb == nil {
		return
	}
	js, err := json.Marshal(kb)
	if err == nil {
		p["reply_markup"] = string(js)
	}
}

func addReply(p tgbotapi.Params, replyTo int) {
	if replyTo != 0 {
		p["reply_to_message_id"] = strconv.Itoa(replyTo)
		p["allow_sending_without_reply"] = "true"
	}
}

// sendText sends HTML text, split at line ends into messages Telegram
// takes (a monospace block cut in two is closed and opened again); the
// keyboard goes under the last one.
func (b *Bot) sendText(w where, htmlText string, kb *tgbotapi.InlineKeyboardMarkup, replyTo int) {
	parts := splitHTML(htmlText, maxText)
	for i, part := range parts {
		p := w.params()
		p["text"] = part
		p["parse_mode"] = "HTML"
		p["disable_web_page_preview"] = "true"
		if i == 0 {
			addReply(p, replyTo)
		}
		if i == len(parts)-1 {
			addMarkup(p, kb)
		}
		b.enqueue(w.chat, true, "sendMessage", func(ctx context.Context) error {
			_, err := b.c.call(ctx, "sendMessage", p, nil)
			return err
		})
	}
}

// split cuts s at line ends into pieces of at most n runes (a line longer
// than n is cut where it must).
func split(s string, n int) []string {
	var out []string
	for utf8.RuneCountInString(s) > n {
		end, nl, count := len(s), -1, 0
		for i := range s {
			if count == n {
				end = i
				if s[i] == '\n' {
					nl = i
				}
				break
			}
			if s[i] == '\n' {
				nl = i
			}
			count++
		}
		cut := end
		if nl > 0 {
			cut = nl
		}
		out = append(out, s[:cut])
		s = strings.TrimPrefix(s[cut:], "\n")
	}
	if s != "" || len(out) == 0 {
		out = append(out, s)
	}
	return out
}

// photoKey names a picture: the same key, the same picture.
func photoKey(p *chat.Picture) string {
	last := ""
	if p.Last != nil {
		last = p.Last.Text
	}
	return fmt.Sprintf("%s|%d|%s|%s", p.Game, p.Viewer, p.FEN, last)
}

// sendPhoto sends a picture of the board: by the file_id of the same
// picture sent before, or rendered and uploaded.
func (b *Bot) sendPhoto(w where, pic *chat.Picture, caption string, kb *tgbotapi.InlineKeyboardMarkup) {
	key := photoKey(pic)
	b.enqueue(w.chat, true, "sendPhoto", func(ctx context.Context) error {
		p := w.params()
		p["caption"] = caption
		p["parse_mode"] = "HTML"
		addMarkup(p, kb)
		if id := b.fileID(key); id != "" {
			p["photo"] = id
			res, err := b.c.call(ctx, "sendPhoto", p, nil)
			if err == nil {
				b.sentBoard(w, res, "", kb != nil)
				return nil
			}
			b.log.Warn("telegram: sending a photo by file_id failed; uploading it", "err", err)
			delete(p, "photo")
			b.rememberFile(key, "")
		}
		png, err := b.r.PNG(pic.View, pic.Last, pic.Viewer, b.pictureOptions(pic.View.Numbers != nil))
		if err != nil {
			b.log.Error("telegram: drawing the board", "game", pic.Game, "err", err)
			delete(p, "caption")
			p["text"] = caption
			_, err := b.c.call(ctx, "sendMessage", p, nil)
			return err
		}
		res, err := b.c.call(ctx, "sendPhoto", p, []tgbotapi.RequestFile{{Name: "photo", Data: tgbotapi.FileBytes{Name: "board.png", Bytes: png}}})
		if err != nil {
			return err
		}
		b.sentBoard(w, res, key, kb != nil)
		return nil
	})
}

// sendReplay sends the animated GIF of a game (sendAnimation): by the
// file_id of the same replay sent before, or drawn and uploaded.
func (b *Bot) sendReplay(w where, rp *chat.Replay, caption string, kb *tgbotapi.InlineKeyboardMarkup) {
	key := "replay|" + rp.Game + "|" + rp.Name + "|" + strconv.Itoa(len(rp.Moves))
	b.enqueue(w.chat, true, "sendAnimation", func(ctx context.Context) error {
		p := w.params()
		if caption != "" {
			p["caption"] = caption
			p["parse_mode"] = "HTML"
		}
		addMarkup(p, kb)
		if id := b.fileID(key); id != "" {
			p["animation"] = id
			if _, err := b.c.call(ctx, "sendAnimation", p, nil); err == nil {
				return nil
			}
			delete(p, "animation")
		}
		if len(rp.Frames) == 0 {
			return nil
		}
		gif, err := b.r.Replay(rp.Frames, rp.Moves, b.pictureOptions(rp.Frames[0].Numbers != nil))
		if err != nil {
			b.log.Error("telegram: drawing a replay", "game", rp.Game, "err", err)
			p["text"] = b.h.Words().In("").T("ReplayNotDrawn")
			delete(p, "caption")
			_, err := b.c.call(ctx, "sendMessage", p, nil)
			return err
		}
		name := rp.Name
		if name == "" {
			name = "replay.gif"
		}
		res, err := b.c.call(ctx, "sendAnimation", p, []tgbotapi.RequestFile{{Name: "animation", Data: tgbotapi.FileBytes{Name: name, Bytes: gif}}})
		if err != nil {
			return err
		}
		var m message
		if json.Unmarshal(res, &m) == nil && m.Animation != nil {
			b.rememberFile(key, m.Animation.FileID)
		}
		return nil
	})
}

// sendDocument sends a file (sendDocument): a PDN or a move list.
func (b *Bot) sendDocument(w where, d *chat.Document, caption string, kb *tgbotapi.InlineKeyboardMarkup) {
	b.enqueue(w.chat, true, "sendDocument", func(ctx context.Context) error {
		p := w.params()
		if caption != "" {
			p["caption"] = caption
			p["parse_mode"] = "HTML"
		}
		addMarkup(p, kb)
		name := d.Name
		if name == "" {
			name = "game.txt"
		}
		_, err := b.c.call(ctx, "sendDocument", p, []tgbotapi.RequestFile{{Name: "document", Data: tgbotapi.FileBytes{Name: name, Bytes: d.Data}}})
		return err
	})
}

// sentBoard remembers the message of a board, for the links of pings and
// to take its keyboard off when the next board of the place comes (the
// previous board's keyboard goes now: only the newest board has buttons).
// When key is set it also keeps the photo's file_id for the same picture
// later. The boards are remembered until the bot stops: after a restart the
// last board before it keeps its keyboard (out of date, a press on it is
// refused).
func (b *Bot) sentBoard(w where, res json.RawMessage, key string, keyboard bool) {
	var m message
	if json.Unmarshal(res, &m) != nil {
		return
	}
	b.mu.Lock()
	prev := b.boards[w]
	if len(b.boards) >= 100000 {
		clear(b.boards)
	}
	b.boards[w] = board{id: m.MessageID, keyboard: keyboard}
	b.mu.Unlock()
	if prev.keyboard && prev.id != m.MessageID {
		b.editMarkup(w.chat, prev.id, nil)
	}
	if key == "" || len(m.Photo) == 0 {
		return
	}
	best := m.Photo[0]
	for _, ph := range m.Photo {
		if ph.Width*ph.Height > best.Width*best.Height {
			best = ph
		}
	}
	b.rememberFile(key, best.FileID)
}

// fileID returns the file_id of a picture or replay sent before under key,
// or "".
func (b *Bot) fileID(key string) string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.photos[key]
}

// rememberFile keeps the file_id of what was sent under key (an empty id
// forgets it). The cache holds at most 1024 entries: when full it starts
// again, which costs only uploads.
func (b *Bot) rememberFile(key, id string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if id == "" {
		delete(b.photos, key)
		return
	}
	if len(b.photos) >= 1024 {
		clear(b.photos)
	}
	b.photos[key] = id
}

// editMarkup replaces the keyboard of a message (nil: removes it).
func (b *Bot) editMarkup(chatID int64, msgID int, kb *tgbotapi.InlineKeyboardMarkup) {
	if kb == nil {
		kb = &tgbotapi.InlineKeyboardMarkup{InlineKeyboard: [][]tgbotapi.InlineKeyboardButton{}}
	}
	p := tgbotapi.Params{"chat_id": strconv.FormatInt(chatID, 10), "message_id": strconv.Itoa(msgID)}
	addMarkup(p, kb)
	b.edit(chatID, "editMessageReplyMarkup", func(ctx context.Context) error {
		_, err := b.c.call(ctx, "editMessageReplyMarkup", p, nil)
		return err
	})
}

// answer answers a button press: a short notice, or an alert the presser
// must close. Answers do not wait behind the chat's messages.
func (b *Bot) answer(id, text string, alert bool) {
	p := tgbotapi.Params{"callback_query_id": id}
	if text != "" {
		if utf8.RuneCountInString(text) > maxAlert {
			text = string([]rune(text)[:maxAlert-1]) + "…"
		}
		p["text"] = text
	}
	if alert {
		p["show_alert"] = "true"
	}
	go func() {
		if _, err := b.c.call(b.sending(), "answerCallbackQuery", p, nil); err != nil {
			b.log.Warn("telegram: answerCallbackQuery failed", "err", err)
		}
	}()
}

// ---- notices ----

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
	if n.Key.Platform != Platform || (n.Session == nil && !tourNews) {
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
	words := b.h.Words().In(b.h.LangOfUser(b.sending(), Platform, n.To))
	game := esc(words.GameName(s.Game.ID(), s.Game.Name()))
	if !on {
		if n.Kind == sessions.NoticeReminder && w.chat < 0 {
			const marker = "\x00"
			before, after, _ := strings.Cut(words.T("PingReminderHere", "Name", marker, "Left", b.h.Left(words.Lang, n.Left), "Game", marker+marker), marker)
			after = strings.Replace(esc(after), marker+marker, game, 1)
			b.sendText(w, esc(before)+mention(n.To)+after, nil, 0)
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
	// The private message waits in the game chat's queues for the board
	// being sent there (the handler that caused the notice sends it
	// next), so that its button links to that board.
	b.work.push(w.chat, func() {
		b.enqueue(w.chat, false, "ping", func(ctx context.Context) error {
			b.mu.Lock()
			last := b.boards[w].id
			b.mu.Unlock()
			p := where{chat: uid}.params()
			p["text"] = text
			p["parse_mode"] = "HTML"
			if link := chatLink(w, ci, last); link != "" {
				addMarkup(p, &tgbotapi.InlineKeyboardMarkup{InlineKeyboard: [][]tgbotapi.InlineKeyboardButton{{{Text: words.T("ButtonGoToGame"), URL: &link}}}})
			}
			_, err := b.c.call(ctx, "sendMessage", p, nil)
			var ae *apiError
			if errors.As(err, &ae) && ae.Code == 403 {
				// Blocked, or the private chat is gone: no more pings.
				b.log.Info("telegram: pings turned off for a user who blocked the bot", "user", uid)
				_ = b.changePings(ctx, uid, false, true)
				return nil
			}
			return err
		})
	})
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

// pictureOptions are the configured picture options (theme, size), with the
// draughts square numbers drawn when the view has them.
func (b *Bot) pictureOptions(numbers bool) render.Options {
	o := b.cfg.Picture
	o.Numbers = numbers
	return o
}
