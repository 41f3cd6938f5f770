package chat

import (
	"context"
	"errors"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/boardgamebot/bot/sessions"
)

// ---- the per-user rate limit (Rate) and the words of the caps (sessions.Caps) ----

// Admit applies the user's rate limit (Config.Rate) to a command that an
// adapter answers by itself (Telegram's /start and /notify): ok, it may
// answer; otherwise r is what to send instead, the one notice (r.Error)
// or nothing (r.Dropped). Handle applies it to every command it answers;
// a command passed to Handle must not be passed to Admit as well.
func (h *Handler) Admit(ctx context.Context, m Message) (r Reply, ok bool) {
	sp := h.words.In(h.langFor(ctx, m.Key.Platform, m.User, m.Lang))
	r, ok = h.admit(ctx, m, sp)
	r.Lang = sp.Lang
	return r, ok
}

// admit is Admit in the reader's language sp.
func (h *Handler) admit(ctx context.Context, m Message, sp Speaker) (Reply, bool) {
	if h.limit == nil {
		return Reply{}, true
	}
	now := h.now()
	user, chat := limitUser(m), m.Key.Platform+"\x00"+m.Key.Channel
	if turn, ok := h.playersTurn(ctx, m); ok && h.limit.free(now, user, chat, turn) {
		return Reply{}, true
	}
	switch v, wait := h.limit.take(now, user, chat); v {
	case notify:
		secs := int(math.Ceil(wait.Seconds()))
		return Reply{Lines: []string{sp.T("SlowDown", "Count", secs)}, Error: true, Limited: true}, false
	case drop:
		return Reply{Limited: true, Dropped: true}, false
	}
	return Reply{}, true
}

// limitUser is whose buckets a message counts in: its user's key on the
// platform (sessions.User.Key).
func limitUser(m Message) string { return m.User.Key(m.Key.Platform) }

// playersTurn reports whether m is a player's move in their own game at
// their turn (or their formation while it is due), and names that turn
// ("session key # actions"): the rate limit lets it through once per turn.
func (h *Handler) playersTurn(ctx context.Context, m Message) (string, bool) {
	head := strings.TrimSpace(m.Text)
	if i := strings.IndexFunc(head, unicode.IsSpace); i >= 0 {
		head = head[:i]
	}
	name, _, _ := strings.Cut(strings.ToLower(strings.TrimPrefix(head, "/")), "@")
	switch c := h.cmds[name]; {
	case c == nil:
		return "", false
	case c.name != "move" && c.name != "huff" && c.name != "setup": // the commands that take a turn
		return "", false
	}
	s, err := h.svc.Look(ctx, m.Key)
	if err != nil || s.Phase() != sessions.PhasePlaying {
		return "", false
	}
	seats := s.Record.SeatsOf(m.User)
	mine := slices.Contains(seats, s.Turn())
	for _, p := range s.Pending() {
		mine = mine || slices.Contains(seats, p)
	}
	if !mine {
		return "", false
	}
	return m.Key.String() + "#" + strconv.Itoa(len(s.Record.Actions)), true
}

// cappedLine words an ErrCapped refusal: how many the user holds, the cap,
// and which ones to finish or cancel.
func (p Speaker) cappedLine(err error, m Message) string {
	var c *sessions.Capped
	if !errors.As(err, &c) {
		return p.T("CapReached")
	}
	switch c.Cap {
	case sessions.CapTournaments:
		var ids []string
		for _, id := range c.Tournaments {
			ids = append(ids, p.T("CapTournamentID", "ID", id))
		}
		return p.T("CapTournaments", "Count", c.Count, "Max", c.Max, "IDs", p.andList(ids))
	case sessions.CapComputerGames:
		return p.T("CapComputerGames", "Count", c.Count, "Max", c.Max, "Where", p.heldPlaces(c.Keys, m))
	}
	return p.T("CapChallenges", "Count", c.Count, "Max", c.Max, "Where", p.heldPlaces(c.Keys, m))
}

// mostPlaces is how many places a cap's refusal names.
const mostPlaces = 3

// heldPlaces words where the sessions of keys are, for the reader of m:
// the first few places that have a name (a Discord channel or thread, a
// Telegram forum topic, the private chat with the bot, the console's
// places), how many more, and how many other chats (a Telegram group,
// which the bot cannot link).
func (p Speaker) heldPlaces(keys []sessions.Key, m Message) string {
	var names []string
	more, others := 0, 0
	for _, k := range keys {
		w := p.heldPlace(k, m)
		switch {
		case w == "":
			others++
		case slices.Contains(names, w):
		case len(names) == mostPlaces:
			more++
		default:
			names = append(names, w)
		}
	}
	if more > 0 {
		names = append(names, p.T("CapWhereMore", "Count", more))
	}
	if others > 0 {
		names = append(names, p.T("CapWhereOther", "Count", others))
	}
	return p.andList(names)
}

// heldPlace names where the session of k is, for the reader of m: a
// Discord channel or thread (a mention), a Telegram forum topic (a link),
// the console's place (the /go that goes there), the private chat with
// the bot; "" for a place without a name.
func (p Speaker) heldPlace(k sessions.Key, m Message) string {
	if w := p.place(k); w != "" {
		return w
	}
	switch {
	case k.Platform == "discord":
		return "<#" + k.Channel + ">"
	case k.Platform == "console":
		return p.T("CapWhereConsole")
	case k.Channel == m.User.ID:
		return p.T("CapWherePrivate")
	}
	return ""
}
