package discord

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/boardgamebot/bot/chat"
	"github.com/boardgamebot/bot/render"
	"github.com/boardgamebot/bot/sessions"
	"github.com/bwmarrin/discordgo"
)

// outgoing turns a reply into a message: the text, the picture, a mention
// of whoever has to act now, and the buttons.
func (b *Bot) outgoing(key sessions.Key, cmd string, reply chat.Reply, snap *sessions.Snapshot) (outgoing, error) {
	words := b.h.Catalogues().In(reply.Lang)
	o := outgoing{content: text(reply)}
	var err error
	if p := reply.Picture; p != nil {
		o.picture, err = b.draw(p)
	}
	// A picture drawn apart from the board: attached as a PNG file.
	attachPNG := func(name, def string, draw func(render.Options) ([]byte, error)) {
		png, perr := draw(render.Options{Theme: b.cfg.Picture.Theme})
		if perr != nil {
			err = errors.Join(err, perr)
			return
		}
		o.attach = append(o.attach, attachment{name: fileName(name, def), mime: "image/png", data: png})
	}
	if st := reply.Standings; st != nil {
		attachPNG(st.Name, "standings.png", func(op render.Options) ([]byte, error) { return b.r.Standings(st.Table, op) })
	}
	if f := reply.Figure; f != nil {
		attachPNG(f.Name, "picture.png", func(op render.Options) ([]byte, error) { return f.PNG(b.r, op) })
		if f.Review != nil {
			o.content, o.embeds = reviewEmbed(reply)
		}
	}
	if r := reply.Replay; r != nil {
		gif, gerr := b.r.Replay(r.Frames, r.Moves, render.Options{Theme: b.cfg.Picture.Theme})
		if gerr != nil {
			err = errors.Join(err, gerr)
			o.content += "\n" + words.T("DiscordNoAnimation")
		} else {
			o.attach = append(o.attach, attachment{name: fileName(r.Name, "replay.gif"), mime: "image/gif", data: gif})
		}
	}
	if d := reply.Document; d != nil {
		o.attach = append(o.attach, attachment{name: fileName(d.Name, "game.txt"), mime: d.MIME, data: d.Data})
	}
	buttons := reply.Buttons
	if snap != nil {
		o.users = userIDs(snap)
		var lines []string
		switch snap.Phase() {
		case sessions.PhaseChallenge:
			if cmd == "play" || cmd == "rematch" {
				var ids []string
				for _, u := range snap.Record.Invited {
					if snowflake(u.ID) && len(snap.Record.SeatsOf(u)) == 0 {
						ids = append(ids, "<@"+u.ID+">")
					}
				}
				if len(ids) > 0 {
					lines = append(lines, words.T("DiscordChallengeFor", "Mentions", strings.Join(ids, " ")))
				}
			}
		case sessions.PhasePlaying:
			if p := reply.Picture; p != nil {
				// The session may have moved on since the reply (the
				// computer's answer): mention whoever the picture shows to
				// move, and the deadline only if it is still that position.
				same := snap.State != nil && snap.State.FEN() == p.FEN
				if p.View.Turn >= 0 && !snap.Player(p.View.Turn).Computer {
					lines = append(lines, b.turnLine(words, snap, p.View.Turn, same))
				} else if same && p.View.Turn < 0 {
					lines = append(lines, b.turnLine(words, snap, -1, true))
				}
			}
			if cmd == "draw" && len(snap.Record.DrawOffer) > 0 && reply.Picture == nil && len(buttons) == 0 {
				buttons = []chat.Button{{Label: words.T("ButtonAcceptDraw"), Command: "/accept"}, {Label: words.T("ButtonDeclineDraw"), Command: "/decline"}}
				var others []string
				for seat, u := range snap.Record.Seats {
					if !slices.Contains(snap.Record.DrawOffer, seat) && snowflake(u.ID) {
						others = append(others, mentionOf(u))
					}
				}
				if len(others) > 0 {
					lines = append(lines, words.T("DiscordDrawFor", "Mentions", strings.Join(others, " ")))
				}
			}
		}
		for _, l := range lines {
			if l != "" {
				o.content += "\n" + l
			}
		}
	}
	o.components = components(key, buttons)
	if link := b.boardLink(reply, snap); link != "" {
		o.components = withLink(o.components, words.T("ButtonOpenBoard"), link)
	}
	return o, err
}

// boardLink is the link of a reply's "Open the board" button: the user's
// own (or the watch) link of /web, only they see it; the watch page of
// the game on a board of a game in play; "" for none.
func (b *Bot) boardLink(reply chat.Reply, snap *sessions.Snapshot) string {
	switch {
	case reply.Web != nil && reply.Web.Play != "":
		return reply.Web.Play
	case reply.Web != nil:
		return reply.Web.Watch
	case reply.Picture != nil && b.cfg.Web != nil && snap != nil && snap.Record.Result == nil:
		return b.cfg.Web.Board(snap, sessions.User{}).Watch
	}
	return ""
}

// withLink adds a link button to the rows of buttons: in the last row
// when it has room, else in a new one (Discord takes 5 rows of 5).
func withLink(rows []discordgo.MessageComponent, label, link string) []discordgo.MessageComponent {
	if len(link) > 512 {
		return rows
	}
	button := discordgo.Button{Label: clip(label, 80), Style: discordgo.LinkButton, URL: link}
	if n := len(rows); n > 0 {
		if last, ok := rows[n-1].(discordgo.ActionsRow); ok && len(last.Components) < 5 {
			last.Components = append(last.Components, button)
			rows[n-1] = last
			return rows
		}
	}
	if len(rows) >= 5 {
		return rows
	}
	return append(rows, discordgo.ActionsRow{Components: []discordgo.MessageComponent{button}})
}

// text is the text of a reply, its table (the standings) in a code block
// so that its columns line up. A name with three backticks in the table
// keeps them, apart, so as not to end the block.
func text(r chat.Reply) string {
	t := r.Table
	if t.From < 0 || t.To > len(r.Lines) || t.From >= t.To {
		return r.Text()
	}
	lines := slices.Clone(r.Lines[:t.From])
	lines = append(lines, fence)
	for _, l := range r.Lines[t.From:t.To] {
		lines = append(lines, strings.ReplaceAll(l, fence, "`\u200b`\u200b`"))
	}
	lines = append(lines, fence)
	lines = append(lines, r.Lines[t.To:]...)
	return strings.Join(lines, "\n")
}

// fileName keeps a file name Discord shows well, else def.
func fileName(name, def string) string {
	if name == "" || strings.ContainsAny(name, "/\\") || len(name) > 100 {
		return def
	}
	return name
}

// turnLine mentions the player of seat, to move (or those who must choose
// a formation), with the deadline when the game has a clock and withClock.
func (b *Bot) turnLine(words chat.Speaker, snap *sessions.Snapshot, seat int, withClock bool) string {
	var who []string
	if seat >= 0 {
		who = append(who, mentionOf(snap.Player(seat)))
	}
	pending := snap.Pending()
	if seat >= 0 {
		pending = nil
	}
	for _, p := range pending {
		who = append(who, mentionOf(snap.Player(p)))
	}
	if len(who) == 0 {
		return ""
	}
	line := words.T("DiscordYourMove", "Mentions", words.AndList(who))
	if len(pending) > 0 {
		line = words.T("DiscordChooseFormation", "Mentions", words.AndList(who))
	}
	if d := snap.Record.Deadline; withClock && !d.IsZero() {
		line += " " + words.T("DiscordDeadline", "When", fmt.Sprintf("<t:%d:f>", d.Unix()), "In", fmt.Sprintf("<t:%d:R>", d.Unix()))
	}
	return line
}

// mentionOf mentions a Discord user; others (the computer) are named.
func mentionOf(u sessions.User) string {
	if !snowflake(u.ID) {
		return u.Name
	}
	return "<@" + u.ID + ">"
}

// snowflake reports whether id is a Discord id: digits.
func snowflake(id string) bool {
	if id == "" {
		return false
	}
	for _, c := range id {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// userIDs are the users a message about a session may mention: its
// players and the users its challenge names.
func userIDs(snap *sessions.Snapshot) []string {
	var ids []string
	add := func(u sessions.User) {
		if !snowflake(u.ID) {
			return // nobody, or the computer
		}
		for _, id := range ids {
			if id == u.ID {
				return
			}
		}
		ids = append(ids, u.ID)
	}
	for _, u := range snap.Record.Seats {
		add(u)
	}
	for _, u := range snap.Record.Invited {
		add(u)
	}
	return ids
}

// components turns the buttons of a reply into rows of Discord buttons.
func components(key sessions.Key, buttons []chat.Button) []discordgo.MessageComponent {
	var row []discordgo.MessageComponent
	var rows []discordgo.MessageComponent
	for _, bt := range buttons {
		name := commandName(bt.Command)
		id := customID(idCommand, key, bt.Command)
		style := discordgo.SecondaryButton
		switch name {
		case "accept":
			style = discordgo.SuccessButton
		case "decline", "cancel":
			style = discordgo.DangerButton
		case "resign":
			id, style = customID(idResign, key), discordgo.DangerButton
		case "moves":
			id, style = customID(idMoves, key), discordgo.PrimaryButton
		}
		if len(id) > 100 {
			continue
		}
		row = append(row, discordgo.Button{Label: clip(bt.Label, 80), Style: style, CustomID: id})
		if len(row) == 5 {
			rows = append(rows, discordgo.ActionsRow{Components: row})
			row = nil
		}
	}
	if len(row) > 0 {
		rows = append(rows, discordgo.ActionsRow{Components: row})
	}
	return rows
}

// draw renders the picture of a reply.
func (b *Bot) draw(p *chat.Picture) ([]byte, error) {
	o := b.cfg.Picture
	o.Numbers = o.Numbers || p.View.Numbers != nil
	return b.r.PNG(p.View, p.Last, p.Viewer, o)
}

// Notify implements sessions.Notifier. Posts for the channel (a move of
// the computer or of the clock, an expired challenge) and reminders go to
// the session's thread or channel; while a request of this process is in
// hand for the session they wait for its reply, so that the thread reads
// in order. Pings that a reply or a post already made (your turn, game
// over) are dropped. Notify does not block: messages go out in the
// background.
//
// Tournament posts (a round paired or ended, the final standings) go to
// the tournament's channel or thread, after the reply of a command in hand
// there; a tournament game's opening board goes to its thread, mentioning
// both players, which makes the pings of that game's players (and the
// first turn's) needless.
func (b *Bot) Notify(ctx context.Context, n sessions.Notice) {
	if n.Key.Platform != Platform || b.stop.Load() {
		return
	}
	if n.Session == nil && (n.Kind != sessions.NoticeTournament || n.Tour == nil) && n.Kind != sessions.NoticeReviewed {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if n.Session != nil {
		version := strconv.Itoa(len(n.Session.Record.Actions))
		switch {
		case n.Kind == sessions.NoticeYourTurn, n.Kind == sessions.NoticeGameOver:
			if b.busy[n.Key] > 0 || b.posted[n.Key] == version {
				return
			}
		case n.Kind == sessions.NoticeTourGame && n.To.ID != "":
			if b.posted[n.Key] == version {
				return
			}
		}
		b.posted[n.Key] = version
	}
	b.queue[n.Key] = append(b.queue[n.Key], n)
	b.kick(n.Key)
}

// kick starts posting the notices queued for key, in order, in the
// background, unless a request of key is in hand or they are being posted
// already; b.mu is held.
func (b *Bot) kick(key sessions.Key) {
	if b.busy[key] > 0 || b.flushing[key] || len(b.queue[key]) == 0 || b.stop.Load() {
		return
	}
	b.flushing[key] = true
	b.wg.Add(1)
	go func() {
		defer b.wg.Done()
		b.mu.Lock()
		defer b.mu.Unlock()
		for len(b.queue[key]) > 0 && b.busy[key] == 0 {
			n := b.queue[key][0]
			b.mu.Unlock()
			b.notice(n)
			b.mu.Lock()
			b.queue[key] = b.queue[key][1:]
		}
		if len(b.queue[key]) == 0 {
			delete(b.queue, key)
		}
		delete(b.flushing, key)
	}()
}

// notice posts one notice, in the words of the chat handler, with a
// mention of the user it is for.
func (b *Bot) notice(n sessions.Notice) {
	defer func() {
		if p := recover(); p != nil {
			b.log.Error("discord: panic posting a notice", n.Key.LogAttr(), "panic", fmt.Sprint(p))
		}
	}()
	key := n.Key
	switch {
	case n.Kind == sessions.NoticePlaceDone:
		b.closePlace(key, n.Session)
		return
	case n.Kind == sessions.NoticeTourGame && n.To.ID == "" && b.started(key.Thread):
		return // the game's forum post started with this board
	}
	o, reply, err := b.noticeMessage(n)
	if err != nil {
		b.log.Error("discord: drawing the board", key.LogAttr(), "err", err)
	}
	if n.Kind == sessions.NoticeExpired && key.Thread != "" && b.gameChannel(key) == key.Channel {
		// The challenge message waits in the channel: it says so.
		text := reply.Text()
		if _, err := b.c.ChannelMessageEditComplex(&discordgo.MessageEdit{Channel: key.Channel, ID: key.Thread,
			Content: &text, Components: &[]discordgo.MessageComponent{}}); err == nil {
			return
		}
	}
	if o.empty() {
		return
	}
	b.post(key, o)
}

// noticeMessage words a notice as a message: the chat handler's reply,
// with a mention of the user it is for; a tournament game's opening board
// calls both players (who may be pinged). It returns the reply too.
func (b *Bot) noticeMessage(n sessions.Notice) (outgoing, chat.Reply, error) {
	reply := b.h.NoticeReply(n)
	o, err := b.outgoing(n.Key, "", reply, n.Session)
	if n.To.ID != "" && !strings.Contains(o.content, "<@"+n.To.ID+">") {
		o.content = mentionOf(n.To) + " " + o.content
	}
	var call []sessions.User
	switch {
	case n.Kind == sessions.NoticeTourGame && n.To.ID == "" && n.Session != nil:
		// A tournament game opened: both players are called to its place.
		call = n.Session.Record.Seats
	case n.Kind == sessions.NoticeTournament && n.Tour != nil && n.Tour.Kind == sessions.TourPlaceMissing:
		// The organiser and the players are told the bot lacks a right.
		call = n.Tour.Told()
	}
	var mentions []string
	for _, u := range call {
		if m := mentionOf(u); snowflake(u.ID) && !strings.Contains(o.content, m) && !slices.Contains(mentions, m) {
			mentions = append(mentions, m)
			if !slices.Contains(o.users, u.ID) {
				o.users = append(o.users, u.ID)
			}
		}
	}
	if len(mentions) > 0 {
		o.content = strings.Join(mentions, " ") + " " + o.content
	}
	return o, reply, err
}

// started reports whether thread is a forum post that started with its
// game's board, and forgets it: the board is not posted again.
func (b *Bot) started(thread string) bool {
	if thread == "" {
		return false
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	ok := b.starters[thread]
	delete(b.starters, thread)
	return ok
}

// closePlace archives and locks the thread (or forum post) of a
// tournament game that ended, once its result was posted there, so that
// finished games leave the server's list of active threads; without the
// right to lock it (Manage Threads), it is archived only. Nothing is
// posted there after: commands typed there are answered privately
// (placeClosed).
func (b *Bot) closePlace(key sessions.Key, s *sessions.Snapshot) {
	th := b.gameChannel(key)
	if th == key.Channel {
		return // played in the channel itself: nothing to close
	}
	id := ""
	if s != nil && s.Record != nil {
		id = s.Record.ID
	}
	b.mu.Lock()
	if len(b.closed) >= maxPlaces {
		clear(b.closed)
	}
	b.closed[key] = id
	b.mu.Unlock()
	yes := true
	_, err := b.c.ChannelEditComplex(th, &discordgo.ChannelEdit{Archived: &yes, Locked: &yes})
	var re *discordgo.RESTError
	if errors.As(err, &re) && re.Response != nil && re.Response.StatusCode == http.StatusForbidden {
		_, err = b.c.ChannelEditComplex(th, &discordgo.ChannelEdit{Archived: &yes})
	}
	if err != nil {
		b.log.Warn("discord: archiving a finished tournament game's thread", "thread", th, "err", err)
	}
}

// placeClosed returns the id of the tournament game that ended at key
// when key is its thread, now archived: nothing may be posted there.
func (b *Bot) placeClosed(ctx context.Context, key sessions.Key) (string, bool) {
	if key.Thread == "" {
		return "", false
	}
	b.mu.Lock()
	id, ok := b.closed[key]
	b.mu.Unlock()
	if ok {
		return id, true
	}
	rec, err := b.svc.TourPlaceEnded(ctx, key)
	if err != nil || rec == nil {
		return "", false
	}
	return rec.ID, true
}

// post sends a message where the game of key is played.
func (b *Bot) post(key sessions.Key, o outgoing) {
	ch := b.gameChannel(key)
	if _, err := b.c.ChannelMessageSendComplex(ch, o.send()); err != nil {
		b.log.Warn("discord: posting a notice", key.LogAttr(), "err", err)
	}
}

// gameChannel is where the game of key is played: its thread when it has
// one, else its channel (a challenge still waiting there, or a game whose
// thread could not be opened), or, for a forum, the post of its
// tournament.
func (b *Bot) gameChannel(key sessions.Key) string {
	if key.Thread == "" {
		// A forum holds no messages: a tournament opened in the forum
		// itself posts in its own post (tournamentPost).
		if t, ok := b.where.kind(key.Channel); ok && isForum(t) {
			if r, ok := b.where.routed(key.Channel); ok && r.Thread != "" {
				return r.Thread
			}
		}
		return key.Channel
	}
	if _, thread, known := b.where.lookup(key.Thread); known {
		if thread {
			return key.Thread
		}
		return key.Channel
	}
	if r, ok := b.where.routed(key.Channel); ok && r == key {
		return key.Channel
	}
	ch, err := b.c.Channel(key.Thread)
	if err != nil {
		return key.Channel
	}
	b.where.learn(ch.ID, ch.Type, ch.ParentID)
	if isThread(ch.Type) {
		return key.Thread
	}
	return key.Channel
}
