package chat

import (
	"strconv"
	"strings"

	"github.com/boardgamebot/bot/rules"
	"github.com/boardgamebot/bot/rules/games"
	"github.com/boardgamebot/bot/sessions"
)

// ---- replies to events ----

// player names a seat: "alice (White)", "bob (Player 2, blue)".
func (p Speaker) player(s *sessions.Snapshot, seat int) string {
	u := s.Player(seat)
	if u.IsZero() {
		return p.T("PlayerOpen", "Seat", p.seatLabel(s, seat))
	}
	return p.T("Player", "Name", u.Name, "Seat", p.seatLabel(s, seat))
}

// seatLabel names a seat for people: its name ("White"), and, where the
// seats are numbered (Halma's camps), the colour of its pieces in the
// pictures too ("Player 2, blue").
func (p Speaker) seatLabel(s *sessions.Snapshot, seat int) string {
	if c := p.seatColour(s, seat); c != "" {
		return p.T("SeatColour", "Seat", p.seatName(s, seat), "Colour", p.colour(c))
	}
	return p.seatName(s, seat)
}

// seatWords names a seat in running text: "White", "Player 2 (blue)".
func (p Speaker) seatWords(s *sessions.Snapshot, seat int) string {
	if c := p.seatColour(s, seat); c != "" {
		return p.T("SeatColourWords", "Seat", p.seatName(s, seat), "Colour", p.colour(c))
	}
	return p.seatName(s, seat)
}

// seatColour is the colour of a Halma seat's pieces, as render draws
// them; "" for the other games, whose seats are named by their colours.
func (p Speaker) seatColour(s *sessions.Snapshot, seat int) string {
	if s == nil || s.Game == nil || p.w == nil {
		return ""
	}
	colours := p.w.seatColours(s.Game)
	if seat < 0 || seat >= len(colours) {
		return ""
	}
	return colours[seat]
}

// players lists every seat: "alice (White) vs bob (Black)".
func (p Speaker) players(s *sessions.Snapshot) string {
	line := ""
	for i := range s.Record.Seats {
		if i == 0 {
			line = p.player(s, i)
		} else {
			line = p.T("Versus", "A", line, "B", p.player(s, i))
		}
	}
	return line
}

// gameTitle names the game with the options that differ from what the
// game would have without them ("Halma (players=4)").
func (p Speaker) gameTitle(s *sessions.Snapshot) string {
	title := p.gameName(s.Game.ID(), s.Game.Name())
	var opts []string
	if info, ok := games.Lookup(s.Game.ID()); ok {
		for _, o := range info.Options {
			v := s.Record.Options[o.Key]
			if v == "" {
				continue
			}
			without := map[string]string{}
			for k, x := range s.Record.Options {
				if k != o.Key {
					without[k] = x
				}
			}
			if g, err := games.New(s.Game.ID(), without); err == nil && g.Options()[o.Key] == v {
				continue
			}
			opts = append(opts, o.Key+"="+v)
		}
	}
	if len(opts) > 0 {
		title += " (" + strings.Join(opts, " ") + ")"
	}
	return title
}

// status says whose turn it is, or who has to set up.
func (p Speaker) status(s *sessions.Snapshot) string {
	if pend := s.Pending(); len(pend) > 0 {
		var names []string
		for _, seat := range pend {
			names = append(names, p.player(s, seat))
		}
		return p.T("SetupStep", "Players", p.andList(names))
	}
	if t := s.Turn(); t >= 0 {
		if s.Player(t).Computer {
			return p.T("Thinking", "Player", p.player(s, t))
		}
		return p.T("ToMove", "Player", p.player(s, t))
	}
	return ""
}

// resultLine tells how a game ended: "Game over: alice (White) wins
// (Black resigned). Saved as game #12."
func (p Speaker) resultLine(s *sessions.Snapshot) string {
	line := p.result(s)
	if s.Record.ID != "" {
		line += " " + p.T("SavedAs", "ID", s.Record.ID)
	}
	return line
}

// result tells how a game ended: "Game over: alice (White) wins (Black
// resigned)."
func (p Speaker) result(s *sessions.Snapshot) string {
	r := s.Record.Result
	why := p.reason(r, func(seat int) string { return p.seatName(s, seat) })
	pick := func(id string, kv ...any) string {
		if why != "" {
			return p.T(id+"Why", append(kv, "Why", why)...)
		}
		return p.T(id, kv...)
	}
	switch {
	case r.Winner >= 0:
		return pick("GameOverWins", "Player", p.player(s, r.Winner))
	case drawn(s.Record) && len(s.Record.Seats) > 2:
		var names []string
		for seat := range s.Record.Seats {
			if !s.Record.Retired(seat) {
				names = append(names, p.player(s, seat))
			}
		}
		return pick("GameOverDrawBetween", "Players", p.andList(names))
	case drawn(s.Record):
		return pick("GameOverDraw")
	}
	return pick("GameOverNoWinner")
}

// drawn reports whether a finished game ended in a draw: without a winner
// in a game of two, or by agreement in a game of more (where a game can
// also end with no winner, when the last person resigns).
func drawn(rec *sessions.Record) bool {
	r := rec.Result
	return r != nil && r.Winner < 0 && (len(rec.Seats) == 2 || r.Reason == rules.DrawAgreed)
}

// andList joins names as people do: "a", "a and b", "a, b and c".
func (p Speaker) andList(names []string) string {
	if len(names) <= 1 {
		return strings.Join(names, "")
	}
	return p.T("And", "Rest", strings.Join(names[:len(names)-1], ", "), "Last", names[len(names)-1])
}

// waitingFor names who may still accept a challenge, as me reads it: the
// invited users without a seat yet (and the challenger who invited
// themself, until they hold the other seat too, as sessions lets them), and
// "anyone" for the open seats beyond those; me among them is "you".
func (p Speaker) waitingFor(s *sessions.Snapshot, me sessions.User) string {
	var names []string
	open := 0
	for _, u := range s.Record.Seats {
		if u.IsZero() {
			open++
		}
	}
	pending := 0
	for _, u := range s.Record.Invited {
		seats := len(s.Record.SeatsOf(u))
		if seats > 0 && !(u.Is(s.Record.Challenger) && seats < 2) {
			continue
		}
		pending++
		if u.Is(me) {
			names = append(names, p.T("You"))
		} else {
			names = append(names, u.Name)
		}
	}
	if open > pending {
		names = append(names, p.T("Anyone"))
	}
	if len(names) == 0 {
		return p.T("Nobody")
	}
	return p.orList(names)
}

// playerCounts words how many can play a game: "2", "2 or 4".
func (p Speaker) playerCounts(ns []int) string {
	words := make([]string, len(ns))
	for i, n := range ns {
		words[i] = strconv.Itoa(n)
	}
	return p.orList(words)
}

// orList joins words as "a, b or c".
func (p Speaker) orList(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return p.T("Or", "Rest", strings.Join(words[:len(words)-1], ", "), "Last", words[len(words)-1])
}

// seatName names a seat as the rules do ("White", "Player 2"), in the
// speaker's language.
func (p Speaker) seatName(s *sessions.Snapshot, seat int) string {
	return p.seatWord(s.SeatName(seat))
}

// seatWord translates a seat name of the rules.
func (p Speaker) seatWord(name string) string {
	if n, ok := strings.CutPrefix(name, "Player "); ok {
		return p.T("SeatPlayer", "N", n)
	}
	if w, ok := p.Maybe("Seat" + name); ok {
		return w
	}
	return name
}

// colour names a colour of the pictures (render.SeatColor).
func (p Speaker) colour(c string) string {
	if w, ok := p.Maybe("Colour_" + c); ok {
		return w
	}
	return c
}

// gameName names a game; name is the rules' name, for a game the
// catalogue does not know.
func (p Speaker) gameName(id, name string) string {
	if w, ok := p.Maybe("GameName_" + id); ok {
		return w
	}
	return name
}

// gameSummary says what a game is, in one line.
func (p Speaker) gameSummary(g games.Info) string {
	if w, ok := p.Maybe("GameSummary_" + g.ID); ok {
		return w
	}
	return g.Summary
}

// optionHelp says what an option of a game does.
func (p Speaker) optionHelp(id string, o games.Option) string {
	if w, ok := p.Maybe("GameOption_" + id + "_" + o.Key); ok {
		return w
	}
	return o.Help
}

// TurnLine words the status line of s (whose turn it is) in lang with the
// name of the player to move written as name: adapters pass a marker and
// put their mention in its place.
func (h *Handler) TurnLine(lang string, s *sessions.Snapshot, name string) string {
	p := h.words.In(lang)
	t := s.Turn()
	if t < 0 {
		return p.status(s)
	}
	who := p.T("Player", "Name", name, "Seat", p.seatLabel(s, t))
	if s.Player(t).Computer {
		return p.T("Thinking", "Player", who)
	}
	return p.T("ToMove", "Player", who)
}

// GameName names a game in lang (its catalogue name, else fallback).
func (p Speaker) GameName(id, fallback string) string { return p.gameName(id, fallback) }
