package discord

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/boardgamebot/bot/adapters/chat"
	"github.com/boardgamebot/bot/sessions"
	"github.com/bwmarrin/discordgo"
)

// outgoing turns a reply into a message: the text, the picture, a mention
// of whoever has to act now, and the buttons.
func (b *Bot) outgoing(key sessions.Key, cmd string, reply chat.Reply, snap *sessions.Snapshot) (outgoing, error) {
	o := outgoing{content: reply.Text()}
	var err error
	if p := reply.Picture; p != nil {
		o.picture, err = b.draw(p)
	}
	buttons := reply.Buttons
	if snap != nil {
		o.users = userIDs(snap)
		var lines []string
		switch snap.Phase() {
		case sessions.PhaseChallenge:
			if cmd == "play" {
				var ids []string
				for _, u := range snap.Record.Invited {
					if u.ID != "" && len(snap.Record.SeatsOf(u)) == 0 {
						ids = append(ids, "<@"+u.ID+">")
					}
				}
				if len(ids) > 0 {
					lines = append(lines, strings.Join(ids, " ")+": press Accept to play, or Decline.")
				}
			}
		case sessions.PhasePlaying:
			if reply.Picture != nil {
				lines = append(lines, b.turnLine(snap))
			}
			if cmd == "draw" && len(snap.Record.DrawOffer) > 0 && reply.Picture == nil && len(buttons) == 0 {
				buttons = []chat.Button{{Label: "Accept draw", Command: "/accept"}, {Label: "Decline draw", Command: "/decline"}}
			}
		}
		for _, l := range lines {
			if l != "" {
				o.content += "\n" + l
			}
		}
	}
	o.components = components(key, buttons)
	return o, err
}

// turnLine mentions the player to move (or those who must choose a
// formation), with the deadline when the game has a clock.
func (b *Bot) turnLine(snap *sessions.Snapshot) string {
	var who []string
	if t := snap.Turn(); t >= 0 {
		who = append(who, mentionOf(snap.Player(t)))
	}
	for _, seat := range snap.Pending() {
		who = append(who, mentionOf(snap.Player(seat)))
	}
	if len(who) == 0 {
		return ""
	}
	line := strings.Join(who, " and ") + ": your move."
	if len(snap.Pending()) > 0 {
		line = strings.Join(who, " and ") + ": choose your formation."
	}
	if d := deadline(snap); !d.IsZero() {
		line += fmt.Sprintf(" Deadline <t:%d:f> (<t:%d:R>).", d.Unix(), d.Unix())
	}
	return line
}

// deadline is when the player to move must have moved; zero without a clock.
func deadline(snap *sessions.Snapshot) time.Time {
	return time.Time{}
}

func mentionOf(u sessions.User) string {
	if u.ID == "" {
		return u.Name
	}
	return "<@" + u.ID + ">"
}

// userIDs are the users a message about a session may mention: its
// players and the users its challenge names.
func userIDs(snap *sessions.Snapshot) []string {
	var ids []string
	add := func(u sessions.User) {
		if u.ID == "" {
			return
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

// Notify implements sessions.Notifier: it posts the news of a Discord
// session that no request of this process is answering (a move played by
// the clock or the computer, a reminder) in the session's thread or
// channel. It does not block: the message is sent in the background.
func (b *Bot) Notify(ctx context.Context, n sessions.Notice) {
	if n.Key.Platform != Platform || n.Session == nil || b.stop.Load() || b.context() == nil {
		return
	}
	b.mu.Lock()
	busy := b.busy[n.Key] > 0
	tag := strconv.Itoa(len(n.Session.Record.Actions)) + "/" + strconv.Itoa(int(n.Kind))
	dup := b.noticed[n.Key] == tag
	if !busy && !dup {
		b.noticed[n.Key] = tag
	}
	b.mu.Unlock()
	if busy || dup {
		return
	}
	b.wg.Add(1)
	go func() {
		defer b.wg.Done()
		b.notice(n)
	}()
}

func (b *Bot) notice(n sessions.Notice) {
	snap := n.Session
	var lines []string
	if snap.Last != nil {
		lines = append(lines, "Last move: "+snap.Last.Text+".")
	}
	var buttons []chat.Button
	if r := snap.Record.Result; r != nil {
		line := "Game over: "
		switch {
		case r.Winner >= 0:
			line += snap.Player(r.Winner).Name + " wins"
		default:
			line += "no winner"
		}
		if r.Reason != "" {
			line += " (" + r.Reason + ")"
		}
		lines = append(lines, line+".")
		if snap.Record.ID != "" {
			lines = append(lines, "Saved as game #"+snap.Record.ID+".")
		}
	} else {
		lines = append(lines, b.turnLine(snap))
		buttons = []chat.Button{{Label: "Moves", Command: "/moves"}, {Label: "Draw", Command: "/draw"}, {Label: "Resign", Command: "/resign"}}
	}
	o := outgoing{content: strings.Join(lines, "\n"), users: userIDs(snap), components: components(n.Key, buttons)}
	if snap.State != nil {
		viewer := max(snap.Turn(), 0)
		p := &chat.Picture{View: snap.State.View(), Last: snap.Last, Viewer: viewer}
		png, err := b.draw(p)
		if err != nil {
			b.log.Error("discord: drawing the board", "err", err)
		}
		o.picture = png
	}
	channel := n.Key.Channel
	if n.Key.Thread != "" {
		if _, thread, _ := b.where.lookup(n.Key.Thread); thread || b.isThread(n.Key) {
			channel = n.Key.Thread
		}
	}
	if _, err := b.c.ChannelMessageSendComplex(channel, o.send()); err != nil {
		b.log.Warn("discord: posting a notice", "session", n.Key.String(), "err", err)
	}
}

// isThread reports whether the thread of key exists (it does not while a
// challenge waits in its channel, or when it could not be opened).
func (b *Bot) isThread(key sessions.Key) bool {
	ch, err := b.c.Channel(key.Thread)
	if err != nil {
		return false
	}
	b.where.learn(ch.ID, ch.Type, ch.ParentID)
	return isThread(ch.Type)
}
