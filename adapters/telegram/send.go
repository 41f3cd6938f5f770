package telegram

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"html"
	"strconv"
	"strings"
	"unicode/utf8"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/boardgamebot/bot/chat"
	"github.com/boardgamebot/bot/internal/textsplit"
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
	words := b.h.Catalogues().In(r.Lang)
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

// ---- sending, through the chat's queue ----

// note adds what a message into w shows to the parcel's content (same),
// and w as its place.
func (p *parcel) note(method string, w where, content string, params tgbotapi.Params) {
	p.place = w
	p.same += fmt.Sprintf("%s|%d|%s|%s\x00", method, w.thread, content, params["reply_markup"])
}

// add appends one message to the parcel.
func (p *parcel) add(what string, run func(ctx context.Context) error) {
	p.sends = append(p.sends, send{what: what, run: run})
}

// sendText sends HTML text as a parcel of rank r.
func (b *Bot) sendText(w where, htmlText string, kb *tgbotapi.InlineKeyboardMarkup, replyTo int, r rank) {
	p := &parcel{rank: r}
	b.addText(p, w, htmlText, kb, replyTo)
	b.out.push(w.chat, p)
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

// addText adds HTML text to a parcel, split at line ends into messages
// Telegram takes (a monospace block cut in two is closed and opened
// again); the keyboard goes under the last one.
func (b *Bot) addText(pc *parcel, w where, htmlText string, kb *tgbotapi.InlineKeyboardMarkup, replyTo int) {
	parts := splitHTML(htmlText, maxText)
	for i, part := range parts {
		p := w.params()
		p["text"] = part
		p["parse_mode"] = "HTML"
		p["disable_web_page_preview"] = "true"
		if i == len(parts)-1 {
			addMarkup(p, kb)
		}
		pc.note("sendMessage", w, part, p)
		if i == 0 {
			addReply(p, replyTo)
		}
		pc.add("sendMessage", func(ctx context.Context) error {
			_, err := b.c.call(ctx, "sendMessage", p, nil)
			return err
		})
	}
}

// split cuts s into pieces of at most n runes (textsplit.Split: at line
// ends when it can); an empty s is one empty piece.
func split(s string, n int) []string {
	if s == "" {
		return []string{""}
	}
	return textsplit.Split(s, n, textsplit.Runes)
}

// photoKey names a picture: the same key, the same picture.
func photoKey(p *chat.Picture) string {
	last := ""
	if p.Last != nil {
		last = p.Last.Text
	}
	return fmt.Sprintf("%s|%d|%s|%s", p.Game, p.Viewer, p.FEN, last)
}

// addPhoto adds a picture of the board to a parcel: sent by the file_id
// of the same picture sent before, or rendered and uploaded.
func (b *Bot) addPhoto(pc *parcel, w where, pic *chat.Picture, caption string, kb *tgbotapi.InlineKeyboardMarkup) {
	key := photoKey(pic)
	p := w.params()
	p["caption"] = caption
	p["parse_mode"] = "HTML"
	addMarkup(p, kb)
	pc.note("sendPhoto", w, key+"|"+caption, p)
	pc.add("sendPhoto", func(ctx context.Context) error {
		if id := b.fileID(key); id != "" {
			p["photo"] = id
			res, err := b.c.call(ctx, "sendPhoto", p, nil)
			if err == nil {
				b.sentBoard(w, res, "", kb != nil)
				return nil
			}
			if chatGone(err) {
				return err
			}
			b.log.Warn("telegram: sending a photo by file_id failed; uploading it", "err", err)
			delete(p, "photo")
			b.rememberFile(key, "")
		}
		png, err := b.r.PNG(pic.View, pic.Last, pic.Viewer, b.pictureOptions(pic.View.Numbers != nil))
		if err != nil {
			b.log.Error("telegram: drawing the board", w.key().LogAttr(), "game", pic.Game, "err", err)
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

// addReplay adds the animated GIF of a game (sendAnimation) to a
// parcel: sent by the file_id of the same replay sent before, or drawn and
// uploaded.
func (b *Bot) addReplay(pc *parcel, w where, rp *chat.Replay, caption string, kb *tgbotapi.InlineKeyboardMarkup) {
	key := "replay|" + rp.Game + "|" + rp.Name + "|" + strconv.Itoa(len(rp.Moves))
	p := w.params()
	if caption != "" {
		p["caption"] = caption
		p["parse_mode"] = "HTML"
	}
	addMarkup(p, kb)
	pc.note("sendAnimation", w, key+"|"+caption, p)
	pc.add("sendAnimation", func(ctx context.Context) error {
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
			p["text"] = b.h.Catalogues().In("").T("ReplayNotDrawn")
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

// addDocument adds a file (sendDocument) to a parcel: a PDN or a move
// list.
func (b *Bot) addDocument(pc *parcel, w where, d *chat.Document, caption string, kb *tgbotapi.InlineKeyboardMarkup) {
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
	pc.note("sendDocument", w, fmt.Sprintf("%s|%x|%s", name, sha256.Sum256(d.Data), caption), p)
	pc.add("sendDocument", func(ctx context.Context) error {
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

// editMarkup replaces the keyboard of a message (nil: removes it). A
// keyboard is taken off once: Telegram refuses to edit a message into
// what it is already ("message is not modified"), and both a new board
// and the press that played a move take the old board's keyboard off.
func (b *Bot) editMarkup(chatID int64, msgID int, kb *tgbotapi.InlineKeyboardMarkup) {
	ref := msgRef{chatID, msgID}
	b.mu.Lock()
	off := b.bare[ref]
	if kb != nil {
		delete(b.bare, ref)
	} else {
		if len(b.bare) >= 100000 {
			clear(b.bare)
		}
		b.bare[ref] = true
	}
	b.mu.Unlock()
	if kb == nil && off {
		return
	}
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

// pictureOptions are the configured picture options (theme, size), with the
// draughts square numbers drawn when the view has them.
func (b *Bot) pictureOptions(numbers bool) render.Options {
	o := b.cfg.Picture
	o.Numbers = numbers
	return o
}
