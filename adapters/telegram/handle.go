package telegram

import (
	"context"
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"
	"unicode"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/boardgamebot/bot/adapters/identity"
	"github.com/boardgamebot/bot/chat"
	"github.com/boardgamebot/bot/sessions"
)

// where is a place messages go: a chat, and a forum topic in it (0: none).
type where struct {
	chat   int64
	thread int
}

func placeOf(m *message) where {
	w := where{chat: m.Chat.ID}
	if m.IsTopic {
		w.thread = m.ThreadID
	}
	return w
}

// key is the session key of the place: one game per chat, or per topic of
// a forum.
func (w where) key() sessions.Key {
	k := sessions.Key{Platform: Platform, Channel: strconv.FormatInt(w.chat, 10)}
	if w.thread != 0 {
		k.Thread = strconv.Itoa(w.thread)
	}
	return k
}

// Community is the community of a Telegram session (chat.Message.Community,
// the ladders of /top): a group or supergroup, named by its chat id,
// whatever the topic; "" in a private chat. Telegram gives groups
// negative ids and users (hence private chats) positive ones, so the key
// alone says it, also for the games of an older bot (storage.Options.Community).
func Community(k sessions.Key) string {
	if k.Platform == Platform && strings.HasPrefix(k.Channel, "-") {
		return k.Channel
	}
	return ""
}

// userOf is the sessions user of a Telegram user: the id, and the username
// as the name (so that a challenge to @bob, which Telegram gives no id for,
// matches bob), or the first and last names when there is no username.
func userOf(u *tgbotapi.User) sessions.User {
	return identity.TelegramUser(u.ID, u.UserName, u.FirstName, u.LastName)
}

// dispatch queues an update on its chat's lane, once: an update delivered
// twice is dropped here (and sessions sees its id as well). The channel it
// returns is closed when the update's handling is over (at once for an
// update dropped).
func (b *Bot) dispatch(u update) <-chan struct{} {
	done := make(chan struct{})
	if !b.dedupe.Add("u" + strconv.Itoa(u.UpdateID)) {
		b.log.Debug("telegram: duplicate update ignored", "update_id", u.UpdateID)
		close(done)
		return done
	}
	// Handling uses the send context, which outlives Run's context by the
	// grace period: an update taken is finished, not cut in half.
	ctx := b.sending()
	switch {
	case u.Message != nil && u.Message.Chat != nil:
		m := u.Message
		b.work.push(m.Chat.ID, func() {
			defer close(done)
			b.onMessage(ctx, u.UpdateID, m)
		})
	case u.CallbackQuery != nil && u.CallbackQuery.Message != nil && u.CallbackQuery.Message.Chat != nil && u.CallbackQuery.From != nil:
		q := u.CallbackQuery
		b.work.push(q.Message.Chat.ID, func() {
			defer close(done)
			b.onCallback(ctx, q)
		})
	default:
		close(done)
	}
	return done
}

// onMessage answers a text message: a command for this bot, or, in a
// private chat, anything typed.
func (b *Bot) onMessage(ctx context.Context, updateID int, m *message) {
	if m.From == nil || m.From.IsBot {
		return
	}
	b.remember(m.Chat)
	b.learn(m.From)
	private := m.Chat.Type == "private"
	if private {
		b.mu.Lock()
		b.started[m.From.ID] = true
		b.mu.Unlock()
	}
	text := strings.TrimSpace(m.Text)
	if text == "" {
		return // stickers, photos, service messages
	}
	w := placeOf(m)
	user := userOf(m.From)
	msg := chat.Message{Key: w.key(), Community: Community(w.key()), User: user, Text: text, ID: "telegram:update:" + strconv.Itoa(updateID),
		Mentions: b.mentions(text), Lang: m.From.LanguageCode}
	if !strings.HasPrefix(text, "/") {
		switch {
		case b.replyMove(m, text):
			// A move typed as a reply to the bot's board: "b3-a4".
			msg.Text = "/move " + text
		case !private:
			return // groups: only commands and moves are for the bot
		}
		if game, closed := b.topicClosed(ctx, w); closed {
			b.refuseClosed(w, m.From, game)
			return
		}
		b.deliver(ctx, w, b.h.Handle(ctx, msg), m.MessageID, nil)
		return
	}
	head := text
	rest := ""
	if i := strings.IndexFunc(text, unicode.IsSpace); i >= 0 {
		head, rest = text[:i], text[i:]
	}
	name := head[1:]
	if at := strings.IndexByte(name, '@'); at >= 0 {
		if b.self == "" || !strings.EqualFold(name[at+1:], b.self) {
			return // a command for another bot
		}
		name = name[:at]
	}
	name = strings.ToLower(name)
	if game, closed := b.topicClosed(ctx, w); closed {
		b.refuseClosed(w, m.From, game)
		return
	}
	msg.Text = "/" + name + rest
	args := strings.Fields(rest)
	if !private && managerCommand(name, args) {
		msg.Manager = b.manages(ctx, m.Chat.ID, m.From.ID)
	}
	// admitted applies the user's rate limit to a command answered here
	// rather than by the chat handler; when it is refused, its notice (or
	// nothing) is sent instead.
	admitted := func() bool {
		r, ok := b.h.Admit(ctx, msg)
		if !ok {
			b.deliver(ctx, w, r, m.MessageID, nil)
		}
		return ok
	}
	switch name {
	case "start":
		if admitted() {
			b.start(w, m, args)
		}
		return
	case "notify":
		if admitted() {
			b.notifyCommand(w, m, args)
		}
		return
	case "web":
		b.webCommand(ctx, w, m, msg)
		return
	case "accept", "decline":
		snap, _ := b.svc.Look(ctx, w.key())
		words := b.h.Catalogues().In(b.h.LangFor(ctx, Platform, user, m.From.LanguageCode))
		if why, ok := mayAnswer(words, snap, m.From, name); !ok {
			if admitted() {
				b.sendText(w, esc(why), nil, m.MessageID, lookup)
			}
			return
		}
		msg.User = unclash(snap, m.From)
	}
	b.deliver(ctx, w, b.h.Handle(ctx, msg), m.MessageID, nil)
}

// replyMove reports whether text, typed as a reply to one of the bot's
// messages, is a move: one word with a digit in it (every notation names
// squares by digits), so that chatter in reply to a board is left alone.
// In a forum topic every message answers the topic's first message (the
// bot's, in a tournament game's topic) unless it answers another: that is
// no reply to the bot, and a "2nd" typed there no move.
func (b *Bot) replyMove(m *message, text string) bool {
	if m.ReplyTo == nil || m.ReplyTo.From == nil || m.ReplyTo.From.ID != b.selfID || b.selfID == 0 {
		return false
	}
	if m.ReplyTo.ForumTopicCreated != nil || m.IsTopic && m.ReplyTo.MessageID == m.ThreadID {
		return false
	}
	return !strings.ContainsFunc(text, unicode.IsSpace) && strings.ContainsFunc(text, unicode.IsDigit)
}

// deliver sends a reply of the chat handler: errors as a reply to the
// message that caused them, a board as a photo with its caption and
// buttons, anything else as text. snap is the session after the reply,
// nil to look it up.
func (b *Bot) deliver(ctx context.Context, w where, r chat.Reply, replyTo int, snap *sessions.Snapshot) {
	b.deliverLead(ctx, w, r, replyTo, snap, "")
}

// deliverLead is deliver with a first line of HTML (mentions) put under
// the board's title, or before the text; "" for none. The reply's
// messages go as one parcel: news, or a lookup when the reply changed
// nothing (chat.Reply.Lookup); a reply showing a live board replaces the
// /board answers of the place still waiting.
func (b *Bot) deliverLead(ctx context.Context, w where, r chat.Reply, replyTo int, snap *sessions.Snapshot, lead string) {
	if (len(r.Lines) == 0 && r.Picture == nil && r.Replay == nil && r.Document == nil) || r.Duplicate || r.Dropped {
		return
	}
	pc := &parcel{rank: news}
	if r.Lookup || r.Error {
		pc.rank = lookup
	}
	if r.Picture != nil && (pc.rank == news || r.Session != nil) {
		pc.board = &w
	}
	defer b.out.push(w.chat, pc)
	if r.Error {
		b.addText(pc, w, esc(r.Text()), nil, replyTo)
		return
	}
	if snap == nil {
		snap = r.Session // the reply's values: no second call of the service
	}
	kb := b.keyboard(b.h.Catalogues().In(r.Lang), r.Buttons, version(snap))
	text := replyHTML(r)
	if lead != "" {
		text = lead + "\n" + text
	}
	switch {
	case r.Standings != nil:
		b.addStandings(pc, w, r.Standings, text, kb)
	case r.Figure != nil && r.Figure.Review != nil:
		b.addReview(pc, w, r, kb)
	case r.Figure != nil:
		b.addFigure(pc, w, r.Figure, text, kb)
	case r.Picture != nil:
		caption, short := b.caption(r, snap, lead)
		if len([]rune(caption)) > maxCaption {
			b.addText(pc, w, text, nil, 0)
			caption = short
		}
		b.addPhoto(pc, w, r.Picture, caption, kb)
	case r.Replay != nil || r.Document != nil:
		// The text is the file's caption, or goes before it when too long.
		caption := esc(r.Text())
		if len([]rune(caption)) > maxCaption {
			b.addText(pc, w, caption, nil, 0)
			caption = ""
		}
		if r.Replay != nil {
			b.addReplay(pc, w, r.Replay, caption, kb)
			caption, kb = "", nil
		}
		if r.Document != nil {
			b.addDocument(pc, w, r.Document, caption, kb)
		}
	default:
		b.addText(pc, w, text, kb, 0)
	}
}

// ---- buttons ----

// version names the state of a session, for callback data: the number of
// actions, and a hash of the session's creation, phase and position. A
// keyboard whose version is not the session's is out of date.
func version(s *sessions.Snapshot) string {
	if s == nil || s.Record == nil {
		return "0"
	}
	h := fnv.New32a()
	fmt.Fprintf(h, "%d|%d|%d|", s.Record.Created.UnixNano(), s.Phase(), len(s.Record.Actions))
	if s.State != nil {
		h.Write([]byte(s.State.FEN()))
	}
	return strconv.Itoa(len(s.Record.Actions)) + "." + strconv.FormatUint(uint64(h.Sum32()), 36)
}

// The callback data operations: data is "op:version[:args]", at most 64
// bytes.
const (
	opMove    = "mv" // open the keyboard of the pieces that can move
	opPiece   = "pc" // a piece: open the keyboard of its targets ("pc:v:b3")
	opTarget  = "to" // a target: play it ("to:v:b3:2", the piece's target 2)
	opBack    = "bk" // back to the game's buttons
	opResign  = "rs" // ask to confirm a resignation
	opResignY = "ry" // resign, confirmed
	opCommand = "c"  // a command without arguments ("c:v:draw")
)

// gameButtons are the buttons under a board: Move, Draw, Resign.
func gameButtons(words chat.Speaker) []chat.Button {
	return []chat.Button{{Label: words.T("ButtonMove"), Command: "/moves"}, {Label: words.T("ButtonDraw"), Command: "/draw"},
		{Label: words.T("ButtonResign"), Command: "/resign"}}
}

func button(label, data string) tgbotapi.InlineKeyboardButton {
	return tgbotapi.InlineKeyboardButton{Text: label, CallbackData: &data}
}

// keyboard turns the reply's buttons into an inline keyboard in one row:
// /moves becomes Move (the two-tap keyboards), /resign asks to confirm,
// the others run their command.
func (b *Bot) keyboard(words chat.Speaker, buttons []chat.Button, ver string) *tgbotapi.InlineKeyboardMarkup {
	var row []tgbotapi.InlineKeyboardButton
	for _, bt := range buttons {
		cmd := strings.TrimPrefix(bt.Command, "/")
		switch cmd {
		case "moves":
			row = append(row, button(words.T("ButtonMove"), opMove+":"+ver))
		case "resign":
			row = append(row, button(bt.Label, opResign+":"+ver))
		default:
			data := opCommand + ":" + ver + ":" + cmd
			if len(data) > 64 || strings.ContainsAny(cmd, " @") {
				continue
			}
			row = append(row, button(bt.Label, data))
		}
	}
	if len(row) == 0 {
		return nil
	}
	return &tgbotapi.InlineKeyboardMarkup{InlineKeyboard: [][]tgbotapi.InlineKeyboardButton{row}}
}

// rows lays buttons out n to a row.
func rows(bs []tgbotapi.InlineKeyboardButton, n int) [][]tgbotapi.InlineKeyboardButton {
	var out [][]tgbotapi.InlineKeyboardButton
	for len(bs) > n {
		out = append(out, bs[:n:n])
		bs = bs[n:]
	}
	if len(bs) > 0 {
		out = append(out, bs)
	}
	return out
}

// piecesKeyboard lists the pieces that can move.
func piecesKeyboard(snap *sessions.Snapshot, ver string) *tgbotapi.InlineKeyboardMarkup {
	var bs []tgbotapi.InlineKeyboardButton
	for _, p := range chat.Picker(snap.State) {
		bs = append(bs, button(p.From.String(), opPiece+":"+ver+":"+p.From.String()))
	}
	kb := rows(bs, 6)
	kb = append(kb, []tgbotapi.InlineKeyboardButton{button("« Back", opBack+":"+ver)})
	return &tgbotapi.InlineKeyboardMarkup{InlineKeyboard: kb}
}

// targetsKeyboard lists the targets of the piece on from; nil when no piece
// there can move.
func targetsKeyboard(snap *sessions.Snapshot, ver, from string) *tgbotapi.InlineKeyboardMarkup {
	for _, p := range chat.Picker(snap.State) {
		if p.From.String() != from {
			continue
		}
		var bs []tgbotapi.InlineKeyboardButton
		long := false
		for i, t := range p.Targets {
			bs = append(bs, button(t.Label, opTarget+":"+ver+":"+from+":"+strconv.Itoa(i)))
			long = long || len(t.Label) > 4
		}
		n := 6
		if long {
			n = 2
		}
		kb := rows(bs, n)
		kb = append(kb, []tgbotapi.InlineKeyboardButton{button("« Pieces", opMove+":"+ver)})
		return &tgbotapi.InlineKeyboardMarkup{InlineKeyboard: kb}
	}
	return nil
}

// target returns the move text of the piece on from's target i.
func target(snap *sessions.Snapshot, arg string) (string, bool) {
	from, idx, ok := strings.Cut(arg, ":")
	i, err := strconv.Atoi(idx)
	if !ok || err != nil || i < 0 {
		return "", false
	}
	for _, p := range chat.Picker(snap.State) {
		if p.From.String() == from && i < len(p.Targets) {
			return p.Targets[i].Move, true
		}
	}
	return "", false
}

// ---- button presses ----

// onCallback answers a button press.
func (b *Bot) onCallback(ctx context.Context, q *callback) {
	if !b.dedupe.Add("c" + q.ID) {
		return
	}
	w := placeOf(q.Message)
	b.remember(q.Message.Chat)
	b.learn(q.From)
	user := userOf(q.From)
	op, rest, _ := strings.Cut(q.Data, ":")
	ver, arg, _ := strings.Cut(rest, ":")
	snap, err := b.svc.Look(ctx, w.key())
	if err != nil {
		snap = nil
	}
	words := b.h.Catalogues().In(b.h.LangFor(ctx, Platform, user, q.From.LanguageCode))
	p := &press{b: b, ctx: ctx, q: q, w: w, user: user, snap: snap, words: words, ver: ver, msgID: q.Message.MessageID}
	if game, closed := b.topicClosed(ctx, w); closed {
		b.answer(q.ID, words.T("TourPlaceClosed", "Game", game), true)
		return
	}
	if ver != version(snap) {
		b.answer(q.ID, words.T("KeyboardOutOfDate"), true)
		b.editMarkup(w.chat, p.msgID, nil)
		return
	}
	switch op {
	case opMove, opPiece, opTarget:
		p.moveKeys(op, arg)
	case opBack:
		b.editMarkup(w.chat, p.msgID, b.keyboard(words, gameButtons(words), ver))
		b.answer(q.ID, "", false)
	case opResign:
		if snap == nil || snap.Phase() != sessions.PhasePlaying || len(snap.Record.SeatsOf(user)) == 0 {
			b.answer(q.ID, words.T("OnlyPlayerResigns"), true)
			return
		}
		b.editMarkup(w.chat, p.msgID, &tgbotapi.InlineKeyboardMarkup{InlineKeyboard: [][]tgbotapi.InlineKeyboardButton{{
			button(words.T("ButtonYesResign"), opResignY+":"+ver), button(words.T("ButtonNoPlayOn"), opBack+":"+ver)}}})
		b.answer(q.ID, words.T("ResignConfirm"), false)
	case opResignY:
		p.run("/resign")
	case opCommand:
		if arg == "" || strings.ContainsAny(arg, " /@") {
			b.answer(q.ID, "", false)
			return
		}
		if arg == "accept" || arg == "decline" {
			if why, ok := mayAnswer(words, snap, q.From, arg); !ok {
				b.answer(q.ID, why, true)
				return
			}
			p.user = unclash(snap, q.From)
		}
		p.run("/" + arg)
	default:
		b.answer(q.ID, "", false)
	}
}

// press is one press of a keyboard's button, on the game as it stood.
type press struct {
	b     *Bot
	ctx   context.Context
	q     *callback
	w     where
	user  sessions.User
	snap  *sessions.Snapshot
	words chat.Speaker
	ver   string // the keyboard's version of the game
	msgID int
}

// moveKeys answers the move keyboard's buttons: Move shows the pieces that
// can move, a piece its targets, a target plays the move.
func (p *press) moveKeys(op, arg string) {
	b, q := p.b, p.q
	if why := mayMove(p.words, p.snap, p.user); why != "" {
		b.answer(q.ID, why, true)
		return
	}
	switch op {
	case opMove:
		b.editMarkup(p.w.chat, p.msgID, piecesKeyboard(p.snap, p.ver))
		b.answer(q.ID, p.words.T("ChoosePiece"), false)
	case opPiece:
		kb := targetsKeyboard(p.snap, p.ver, arg)
		if kb == nil {
			b.answer(q.ID, p.words.T("PieceCannotMove"), true)
			return
		}
		b.editMarkup(p.w.chat, p.msgID, kb)
		b.answer(q.ID, p.words.T("ChooseTarget"), false)
	case opTarget:
		mv, ok := target(p.snap, arg)
		if !ok {
			b.answer(q.ID, p.words.T("MoveNotPossible"), true)
			return
		}
		p.run("/move " + mv)
	}
}

// run sends text as the presser's command, and takes the keyboard off when
// the game changed.
func (p *press) run(text string) {
	b, q, w := p.b, p.q, p.w
	r := b.h.Handle(p.ctx, chat.Message{Key: w.key(), Community: Community(w.key()), User: p.user, Text: text, ID: "telegram:callback:" + q.ID, Lang: q.From.LanguageCode})
	if r.Duplicate || r.Dropped {
		b.answer(q.ID, "", false)
		return
	}
	if r.Error {
		b.answer(q.ID, r.Text(), true)
		return
	}
	after := r.Session // the reply's values: no second call of the service
	b.deliver(p.ctx, w, r, 0, after)
	b.answer(q.ID, "", false)
	if version(after) != p.ver {
		b.editMarkup(w.chat, p.msgID, nil)
	}
}

// mayMove says why user cannot make a move now, or "" when they can.
func mayMove(words chat.Speaker, s *sessions.Snapshot, user sessions.User) string {
	switch {
	case s == nil || s.Phase() == sessions.PhaseNone || s.Phase() == sessions.PhaseFinished:
		return words.T("RefusedNoGameShort")
	case s.Phase() == sessions.PhaseChallenge:
		return words.T("NotStartedShort")
	case len(s.Pending()) > 0:
		return words.T("RefusedSetupFirst")
	}
	t := s.Turn()
	if t < 0 {
		return words.T("NobodyToMove")
	}
	if !s.Player(t).Is(user) {
		if len(s.Record.SeatsOf(user)) == 0 {
			return words.T("NotPlayingShort")
		}
		return words.T("NotYourTurnShort", "Name", s.Player(t).Name, "Seat", words.SeatLabel(s, t))
	}
	return ""
}

// mayAnswer checks, for a challenge that names players, that the presser
// is one of them (Telegram gives no id for an @username, so the names are
// bound to the presser's username). It returns why not, or ok.
func mayAnswer(words chat.Speaker, s *sessions.Snapshot, from *tgbotapi.User, cmd string) (string, bool) {
	if s == nil || s.Phase() != sessions.PhaseChallenge {
		return "", true
	}
	rec := s.Record
	me := userOf(from)
	if rec.Challenger.Is(me) || len(rec.SeatsOf(me)) > 0 {
		return "", true // the sessions service explains
	}
	open := 0
	for _, u := range rec.Seats {
		if u.IsZero() {
			open++
		}
	}
	var pending []string
	for _, u := range rec.Invited {
		if len(rec.SeatsOf(u)) > 0 {
			continue
		}
		if u.ID != "" && u.ID == me.ID {
			return "", true
		}
		name := strings.TrimPrefix(u.Name, "@")
		if u.ID == "" && from.UserName != "" && strings.EqualFold(name, from.UserName) {
			return "", true
		}
		pending = append(pending, "@"+name)
	}
	if len(rec.Invited) == 0 || (cmd == "accept" && open > len(pending)) {
		return "", true
	}
	return words.T("ChallengeForOthers", "Who", words.OrList(pending), "Name", cmd), false
}

// unclash returns the sessions user of from for answering a challenge.
// A user without a username whose name is that of a user the challenge
// names (a first name "bob", a challenge to @bob) gets a name that cannot
// be taken for them: the sessions service matches invitations without an
// id by name.
func unclash(s *sessions.Snapshot, from *tgbotapi.User) sessions.User {
	u := userOf(from)
	if from.UserName != "" || s == nil || s.Record == nil {
		return u
	}
	for _, inv := range s.Record.Invited {
		if inv.ID == "" && strings.EqualFold(strings.TrimPrefix(inv.Name, "@"), u.Name) {
			u.Name += " (" + u.ID + ")"
			break
		}
	}
	return u
}

// learn remembers the user id of a username, so that a challenge to a
// @name seen before is bound to the id.
func (b *Bot) learn(u *tgbotapi.User) {
	if u == nil || u.UserName == "" || u.IsBot {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.names) >= 100000 {
		clear(b.names)
	}
	b.names[strings.ToLower(u.UserName)] = u.ID
}

// mentions resolves the @names of a text that belong to users seen before.
func (b *Bot) mentions(text string) map[string]sessions.User {
	var out map[string]sessions.User
	for _, f := range strings.Fields(text) {
		name, ok := strings.CutPrefix(f, "@")
		if !ok || name == "" {
			continue
		}
		b.mu.Lock()
		id, known := b.names[strings.ToLower(name)]
		b.mu.Unlock()
		if known {
			if out == nil {
				out = map[string]sessions.User{}
			}
			out[strings.ToLower(name)] = sessions.User{ID: strconv.FormatInt(id, 10), Name: name}
		}
	}
	return out
}

// ---- /start and /notify ----

func (b *Bot) start(w where, m *message, args []string) {
	words := b.words(m.From)
	if m.Chat.Type == "private" && len(args) > 0 && args[0] == "notify" {
		text := words.T("PingsOnHere")
		if err := b.setPings(b.sending(), m.From.ID, true); err != nil {
			text = words.T("PingsOnNotSaved")
		}
		b.sendText(w, esc(text), nil, 0, lookup)
		return
	}
	b.sendText(w, esc(words.T("Start")), nil, 0, lookup)
}

// words speaks to a Telegram user in their language.
func (b *Bot) words(from *tgbotapi.User) chat.Speaker {
	return b.h.Catalogues().In(b.h.LangFor(b.sending(), Platform, userOf(from), from.LanguageCode))
}

func (b *Bot) notifyCommand(w where, m *message, args []string) {
	id := m.From.ID
	words := b.words(m.From)
	arg := ""
	if len(args) > 0 {
		arg = strings.ToLower(args[0])
	}
	switch {
	case len(args) > 1 || (arg != "" && arg != "on" && arg != "off"):
		b.sendText(w, esc(words.T("NotifyUsage")), nil, m.MessageID, lookup)
	case arg == "on":
		b.mu.Lock()
		started := b.started[id]
		b.mu.Unlock()
		if !started {
			link := "https://t.me/" + b.self + "?start=notify"
			b.sendText(w, esc(words.T("NotifyStartFirst", "Link", link)), nil, m.MessageID, lookup)
			return
		}
		text := words.T("PingsOn")
		if err := b.setPings(b.sending(), id, true); err != nil {
			text = words.T("PingsOnNotSaved")
		}
		b.sendText(w, esc(text), nil, m.MessageID, lookup)
	case arg == "off":
		text := words.T("PingsOff")
		if err := b.setPings(b.sending(), id, false); err != nil {
			text = words.T("PingsOffNotSaved")
		}
		b.sendText(w, esc(text), nil, m.MessageID, lookup)
	default:
		b.mu.Lock()
		on := b.optedIn[id]
		b.mu.Unlock()
		text := words.T("PingsAreOff")
		if on {
			text = words.T("PingsAreOn")
		}
		b.sendText(w, esc(text), nil, m.MessageID, lookup)
	}
}

// setPings turns a user's pings on or off, and stores the choice when
// Prefs is set; a store that fails is logged and its error returned (the
// choice holds in memory all the same).
func (b *Bot) setPings(ctx context.Context, id int64, on bool) error {
	return b.changePings(ctx, id, on, false)
}

// changePings is setPings; blocked says that the user blocked the bot,
// which may then no longer write to them until they start the private
// chat again.
func (b *Bot) changePings(ctx context.Context, id int64, on, blocked bool) error {
	b.pingMu.Lock()
	defer b.pingMu.Unlock()
	b.mu.Lock()
	if on {
		b.optedIn[id] = true
		b.started[id] = true
	} else {
		delete(b.optedIn, id)
	}
	if blocked {
		delete(b.started, id)
	}
	b.mu.Unlock()
	if b.cfg.Prefs == nil {
		return nil
	}
	if err := b.cfg.Prefs.SetNotify(ctx, Platform, strconv.FormatInt(id, 10), on); err != nil {
		b.log.Error("telegram: the turn-ping choice was not saved", "user", id, "on", on, "err", err)
		return err
	}
	return nil
}

// remember keeps a chat's title and username, for the links of pings.
func (b *Bot) remember(c *tgbotapi.Chat) {
	if c == nil || c.Type == "private" {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	ci := b.chats[c.ID]
	ci.title, ci.username = c.Title, c.UserName
	b.chats[c.ID] = ci
}
