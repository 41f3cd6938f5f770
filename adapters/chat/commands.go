package chat

import (
	"context"
	"fmt"
	"strings"

	"github.com/boardgamebot/bot/rules"
	"github.com/boardgamebot/bot/sessions"
)

// ---- the commands ----

func commandTable() []*command {
	return []*command{
		{name: "help", usage: "/help [command]", short: "the commands, or more about one", maxArgs: 1, run: (*Handler).help},
		{name: "games", usage: "/games", short: "the games, their ids and options", run: (*Handler).listGames},
		{name: "play", usage: "/play <game> [@user ...] [option=value ...]", minArgs: 1, maxArgs: -1,
			short: "challenge someone, or anyone here when no one is named",
			long: "Example: /play spanish @bob color=white. With no @user anyone here may accept; /play spanish bot level=3 plays the computer; halma players=4 fills four seats. " +
				"Options: the game's own (see /games) and color=white|black|random, rated=yes|no, time=5m|10m|1h|1d|3d|off (the time for each move; " +
				"when it runs out the computer plays for you, and three such moves in a row lose the game), level=1..5 (the computer's strength).",
			run: (*Handler).play},
		{name: "accept", usage: "/accept", short: "accept the challenge (or the draw offered)", run: simple((*sessions.Service).Accept, "accept")},
		{name: "decline", usage: "/decline", short: "decline the challenge (or the draw offered)", run: simple((*sessions.Service).Decline, "decline")},
		{name: "cancel", usage: "/cancel", short: "withdraw your challenge", run: simple((*sessions.Service).Cancel, "cancel")},
		{name: "setup", usage: "/setup default | /setup <squares>", minArgs: 1, maxArgs: 16,
			short: "choose your formation (Ultradamas)",
			long:  "Ultradamas: before the first move each side places its 12 pieces on 12 squares of its first three ranks, e.g. /setup a1 c1 e1 g1 b2 d2 f2 h2 a3 c3 e3 g3; /setup default takes the usual ones.",
			run:   (*Handler).setup},
		{name: "move", aliases: []string{"m"}, usage: "/move <move>", minArgs: 1, maxArgs: 1,
			short: "play a move, like /move c3-d4 or /m 11-15",
			long:  "Moves use the game's notation: c3-d4 for a step, c3xe5xg7 for a capture series (the draughts games also take square numbers, 11-15); Halma jumps list every landing square, a1-c3-e5; Ultradamas: g7^h6 loads, h6^b2 drops, two actions joined by ;.",
			run:   (*Handler).move},
		{name: "moves", usage: "/moves", short: "the legal moves now", run: (*Handler).moves},
		{name: "board", usage: "/board", short: "the board and whose turn it is", run: (*Handler).board},
		{name: "huff", usage: "/huff <square>", minArgs: 1, maxArgs: 1,
			short: "huff a piece that should have captured (damas huff=yes)",
			long:  "In damas with huff=yes capturing is not forced; instead, on your turn, you may remove (huff) an opponent's piece that could have captured, then play your move.",
			run:   (*Handler).huff},
		{name: "draw", usage: "/draw", short: "offer a draw, or accept the one offered", run: simple((*sessions.Service).Draw, "draw")},
		{name: "resign", usage: "/resign", short: "resign the game", run: simple((*sessions.Service).Resign, "resign")},
		{name: "takeback", usage: "/takeback", short: "ask to take your last move back",
			long: "Before your opponent has moved, /takeback asks to undo your last move; the opponent answers /accept or /decline. Against the computer it is granted at once and takes back its reply too.",
			run:  simple((*sessions.Service).Takeback, "takeback")},
		{name: "rematch", usage: "/rematch", short: "play again, colours swapped",
			long: "After a game, /rematch challenges the same players to the same game with the same options, colours swapped.",
			run:  simple((*sessions.Service).Rematch, "rematch")},
		{name: "notify", usage: "/notify on|off", short: "turn pings by private message", maxArgs: -1, only: "telegram",
			long: "On Telegram, /notify on has the bot write to you in a private chat when it is your turn, with a reminder before the clock plays for you and the result at the end; /notify off stops them and /notify alone tells which is set. The choice is kept when the bot restarts. Telegram lets a bot write only to users who started a private chat with it: if you have not, /notify on gives you the link. On other platforms there are no pings by private message: they are a Telegram feature.",
			run:  (*Handler).notify},
		{name: "history", usage: "/history [@user] [game]", short: "recent finished games with their ids", maxArgs: 2, run: (*Handler).history},
		{name: "show", usage: "/show <id>", short: "a finished game: summary and final board", minArgs: 1, maxArgs: 1, run: (*Handler).show},
		{name: "replay", usage: "/replay <id>", short: "a finished game as an animation", minArgs: 1, maxArgs: 1, run: (*Handler).replay},
		{name: "export", usage: "/export <id>", short: "a finished game as a file: PDN (draughts) or the move list", minArgs: 1, maxArgs: 1, run: (*Handler).export},
		{name: "rating", usage: "/rating [@user] [game]", short: "ratings: all time and this month", maxArgs: 2,
			long: "Elo, K = 30, per game, from 1000; the monthly rating starts again at 1000 each month (UTC). Rated: two-player games between two people, with rated=yes, once the winner made more than 10 moves; abandoning (three moves in a row played by the clock) costs 20 points more.",
			run:  (*Handler).rating},
		{name: "top", usage: "/top [game] [month]", short: "the ladder: top 10 and your place", maxArgs: 2,
			long: "/top spanish for the all-time ladder, /top spanish month for this month's, /top spanish 2026-10 for a past month. Without a game: the game played here, else the first three of every game.",
			run:  (*Handler).top},
	}
}

// simple runs a command without arguments.
func simple(f func(*sessions.Service, context.Context, sessions.Request) (sessions.Event, error), name string) func(*Handler, context.Context, Message, []string) Reply {
	return func(h *Handler, ctx context.Context, m Message, args []string) Reply {
		ev, err := f(h.svc, ctx, req(m))
		if err != nil {
			return h.errorReply(name, m, err)
		}
		return m.sp.eventReply(ev)
	}
}

func (h *Handler) help(ctx context.Context, m Message, args []string) Reply {
	if len(args) == 1 {
		name := strings.ToLower(strings.TrimPrefix(args[0], "/"))
		c, ok := h.cmds[name]
		if !ok {
			return fail(fmt.Sprintf("There is no command /%s: /help lists them.", clip(name, 30)))
		}
		r := Reply{Lines: []string{c.usage + ": " + c.short + "."}}
		if c.long != "" {
			r.Lines = append(r.Lines, c.long)
		}
		return r
	}
	r := Reply{Lines: []string{"Commands (/help <command> tells more):"}}
	for _, c := range h.order {
		line := c.usage + " — " + c.short
		if c.only != "" && m.Key.Platform != c.only {
			line += " (" + platformName(c.only) + " only)"
		}
		r.Lines = append(r.Lines, line)
	}
	return r
}

// notify answers /notify where the platform's adapter does not: pings by
// private message are Telegram's.
func (h *Handler) notify(ctx context.Context, m Message, args []string) Reply {
	return fail("Turn pings by private message are a Telegram feature (/notify on there): here, /board shows whose turn it is.")
}

// platformName is a platform's name for people.
func platformName(p string) string {
	if p == "" {
		return p
	}
	return strings.ToUpper(p[:1]) + p[1:]
}

func (h *Handler) listGames(ctx context.Context, m Message, args []string) Reply {
	r := Reply{Lines: []string{"Games: /play <id> [@user] [option=value ...]"}}
	for _, g := range h.games() {
		line := fmt.Sprintf("%s — %s, %s players: %s.", g.ID, g.Name, g.Players, g.Summary)
		if len(g.Options) == 0 {
			line += " No options."
		}
		r.Lines = append(r.Lines, line)
		for _, o := range g.Options {
			r.Lines = append(r.Lines, fmt.Sprintf("  %s=%s (default %s): %s", o.Key, strings.Join(o.Values, "|"), o.Default, o.Help))
		}
	}
	r.Lines = append(r.Lines,
		"Every game also takes color=white|black|random (your seat, default random), rated=yes|no (default yes), "+
			"time=5m|10m|1h|1d|3d|off (time per move, default here "+h.svc.DefaultTime(m.Key.Platform).String()+") and, against the computer "+
			"(/play <game> bot), level=1..5 (default 3).")
	return r
}

func (h *Handler) play(ctx context.Context, m Message, args []string) Reply {
	spec := sessions.ChallengeSpec{Game: strings.ToLower(args[0]), Options: map[string]string{}, Play: sessions.DefaultPlayOptions()}
	if spec.Game == "bot" || strings.HasPrefix(spec.Game, "@") || strings.Contains(spec.Game, "=") {
		return fail("/play starts with the game: /play <game> [@user] [option=value] (/games lists them).")
	}
	seen := map[string]bool{}
	for _, a := range args[1:] {
		switch {
		case IsComputerName(a):
			spec.Computer = true
		case strings.HasPrefix(a, "@") && m.Mentions[strings.ToLower(a[1:])] != (sessions.User{}):
			spec.Invited = append(spec.Invited, m.Mentions[strings.ToLower(a[1:])])
		case strings.HasPrefix(a, "@"):
			name := strings.TrimPrefix(a, "@")
			if name == "" || strings.ContainsAny(name, "=@") {
				return fail(fmt.Sprintf("%q is not a user: write @name (/help play).", clip(a, 30)))
			}
			if err := CheckName(name); err != nil {
				return fail(fmt.Sprintf("%s is not a user: %v (/help play).", clip(a, 30), err))
			}
			spec.Invited = append(spec.Invited, sessions.User{Name: name})
		case strings.Contains(a, "="):
			k, v, _ := strings.Cut(a, "=")
			k = strings.ToLower(k)
			if k == "colour" {
				k = "color"
			}
			if k == "" || v == "" {
				return fail(fmt.Sprintf("%q is not an option: write key=value, like color=white (/games lists them).", clip(a, 30)))
			}
			if seen[k] {
				return fail(fmt.Sprintf("The option %s is given twice: keep one (/games lists the options).", clip(k, 20)))
			}
			seen[k] = true
			known, err := spec.Play.Set(k, v)
			if err != nil {
				return h.errorReply("play", m, err)
			}
			if !known {
				spec.Options[k] = v
			}
		default:
			return fail(fmt.Sprintf("I don't understand %q in /play: name players as @user and options as key=value (/help play).", clip(a, 30)))
		}
	}
	if spec.Computer && len(spec.Invited) > 0 {
		return fail("Play the computer or people, not both: /play <game> bot, or /play <game> @user.")
	}
	if spec.Play.Level != 0 && !spec.Computer {
		return fail("level= sets the computer's strength: /play <game> bot level=1..5.")
	}
	ev, err := h.svc.Challenge(ctx, req(m), spec)
	if err != nil {
		return h.errorReply("play", m, err)
	}
	return m.sp.eventReply(ev)
}

func (h *Handler) setup(ctx context.Context, m Message, args []string) Reply {
	ev, err := h.svc.Setup(ctx, req(m), strings.Join(args, " "))
	if err != nil {
		return h.errorReply("setup", m, err)
	}
	return m.sp.eventReply(ev)
}

func (h *Handler) move(ctx context.Context, m Message, args []string) Reply {
	ev, err := h.svc.Move(ctx, req(m), args[0])
	if err != nil {
		return h.errorReply("move", m, err)
	}
	return m.sp.eventReply(ev)
}

func (h *Handler) huff(ctx context.Context, m Message, args []string) Reply {
	ev, err := h.svc.Huff(ctx, req(m), args[0])
	if err != nil {
		return h.errorReply("huff", m, err)
	}
	return m.sp.eventReply(ev)
}

func (h *Handler) look(ctx context.Context, m Message, cmd string) (*sessions.Snapshot, *Reply) {
	s, err := h.svc.Look(ctx, m.Key)
	if err != nil {
		r := h.errorReply(cmd, m, err)
		return nil, &r
	}
	if s.Phase() == sessions.PhaseChallenge {
		r := fail(fmt.Sprintf("%s's challenge to %s (%s) is waiting for %s to /accept.", s.Record.Challenger.Name, gameTitle(s), m.sp.terms(s), m.sp.waitingFor(s, m.User)))
		r.Error = false
		r.Buttons = m.sp.challengeButtons()
		return nil, &r
	}
	return s, nil
}

func (h *Handler) board(ctx context.Context, m Message, args []string) Reply {
	s, r := h.look(ctx, m, "board")
	if r != nil {
		return *r
	}
	out := Reply{Lines: []string{fmt.Sprintf("%s: %s, %s played; %s.", gameTitle(s), m.sp.players(s), count(countMoves(s.Record), "move"), m.sp.terms(s))}}
	if s.Last != nil {
		out.Lines = append(out.Lines, "Last move: "+s.Last.Text+".")
	}
	if len(s.Record.DrawOffer) > 0 {
		var names []string
		for _, seat := range s.Record.DrawOffer {
			names = append(names, m.sp.player(s, seat))
		}
		verb := " offers"
		if len(names) > 1 {
			verb = " offer"
		}
		out.Lines = append(out.Lines, strings.Join(names, " and ")+verb+" a draw: /draw or /accept to agree, /decline to refuse.")
	}
	for _, seat := range s.Record.Takeback {
		out.Lines = append(out.Lines, fmt.Sprintf("%s asks to take back their last move: %s, /accept or /decline.", m.sp.player(s, seat), m.sp.opponents(s, seat)))
	}
	if st := m.sp.status(s); st != "" {
		out.Lines = append(out.Lines, st)
	}
	if l := clockLine(s, h.svc.Now()); l != "" {
		out.Lines = append(out.Lines, l)
	}
	out.Lines = append(out.Lines, "FEN: "+s.State.FEN())
	out.Picture = picture(s, m.User)
	out.Buttons = m.sp.gameButtons()
	return out
}

func countMoves(r *sessions.Record) int {
	n := 0
	for _, a := range r.Actions {
		if a.Kind == sessions.ActMove {
			n++
		}
	}
	return n
}

func (h *Handler) moves(ctx context.Context, m Message, args []string) Reply {
	s, r := h.look(ctx, m, "moves")
	if r != nil {
		return *r
	}
	if len(s.Pending()) > 0 {
		return Reply{Lines: []string{m.sp.status(s)}}
	}
	moves := s.State.Moves()
	if len(moves) == 0 {
		return Reply{Lines: []string{"No legal moves now: /board shows the game."}}
	}
	var texts []string
	for _, mv := range moves {
		texts = append(texts, mv.Text)
	}
	const most = 80
	more := ""
	if len(texts) > most {
		more = fmt.Sprintf(" … and %d more", len(texts)-most)
		texts = texts[:most]
	}
	line := fmt.Sprintf("%s to move, %s: %s%s.", m.sp.player(s, s.Turn()), count(len(moves), "legal move"), strings.Join(texts, " "), more)
	out := Reply{Lines: []string{line}}
	if hf, ok := s.State.(rules.Huffer); ok {
		if sq := hf.Huffable(); len(sq) > 0 {
			out.Lines = append(out.Lines, m.sp.huffHint(s))
		}
	}
	return out
}
