package chat

import (
	"context"
	"strings"

	"github.com/boardgamebot/bot/rules"
	"github.com/boardgamebot/bot/sessions"
)

// ---- the commands ----

func commandTable() []*command {
	return []*command{
		{name: "help", reads: true, maxArgs: 1, run: (*Handler).help},
		{name: "games", reads: true, run: (*Handler).listGames},
		{name: "play", minArgs: 1, maxArgs: -1, run: (*Handler).play},
		{name: "accept", run: simple((*sessions.Service).Accept, "accept")},
		{name: "decline", run: simple((*sessions.Service).Decline, "decline")},
		{name: "cancel", run: simple((*sessions.Service).Cancel, "cancel")},
		{name: "setup", minArgs: 1, maxArgs: 16, run: (*Handler).setup},
		{name: "move", aliases: []string{"m"}, minArgs: 1, maxArgs: 1, run: (*Handler).move},
		{name: "moves", reads: true, run: (*Handler).moves},
		{name: "board", reads: true, run: (*Handler).board},
		{name: "web", reads: true, run: (*Handler).web},
		{name: "huff", minArgs: 1, maxArgs: 1, run: (*Handler).huff},
		{name: "draw", run: simple((*sessions.Service).Draw, "draw")},
		{name: "resign", run: simple((*sessions.Service).Resign, "resign")},
		{name: "takeback", run: simple((*sessions.Service).Takeback, "takeback")},
		{name: "rematch", run: simple((*sessions.Service).Rematch, "rematch")},
		{name: "notify", reads: true, maxArgs: -1, only: "telegram", run: (*Handler).notify},
		{name: "lang", reads: true, maxArgs: 1, run: (*Handler).lang},
		{name: "history", reads: true, maxArgs: 2, run: (*Handler).history},
		{name: "show", reads: true, minArgs: 1, maxArgs: 1, run: (*Handler).show},
		{name: "replay", reads: true, minArgs: 1, maxArgs: 1, run: (*Handler).replay},
		{name: "export", reads: true, minArgs: 1, maxArgs: 1, run: (*Handler).export},
		{name: "review", reads: true, maxArgs: 1, run: (*Handler).review},
		{name: "rating", reads: true, maxArgs: 2, run: (*Handler).rating},
		{name: "top", reads: true, maxArgs: 3, run: (*Handler).top},
		{name: "profile", reads: true, maxArgs: 1, run: (*Handler).profile},
		{name: "vs", reads: true, minArgs: 1, maxArgs: 2, run: (*Handler).vs},
		{name: "tournament", minArgs: 1, maxArgs: -1, run: (*Handler).tournament},
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
			return fail(m.sp.T("HelpNoCommand", "Name", clip(name, 30)))
		}
		r := Reply{Lines: []string{m.sp.T("HelpOne", "Usage", m.sp.usage(c), "Short", m.sp.short(c))}}
		if long, ok := m.sp.Maybe("CmdLong_" + c.name); ok {
			r.Lines = append(r.Lines, long)
		}
		return r
	}
	r := Reply{Lines: []string{m.sp.T("HelpHeader")}}
	for _, c := range h.order {
		line := m.sp.T("HelpLine", "Usage", m.sp.usage(c), "Short", m.sp.short(c))
		if c.only != "" && m.Key.Platform != c.only {
			line = m.sp.T("HelpOnly", "Line", line, "Platform", platformName(c.only))
		}
		r.Lines = append(r.Lines, line)
	}
	return r
}

// notify answers /notify where the platform's adapter does not: pings by
// private message are Telegram's.
func (h *Handler) notify(ctx context.Context, m Message, args []string) Reply {
	return fail(m.sp.T("NotifyElsewhere"))
}

// platformName is a platform's name for people.
func platformName(p string) string {
	if p == "" {
		return p
	}
	return strings.ToUpper(p[:1]) + p[1:]
}

func (h *Handler) listGames(ctx context.Context, m Message, args []string) Reply {
	r := Reply{Lines: []string{m.sp.T("GamesHeader")}}
	for _, g := range h.games() {
		line := m.sp.T("GamesLine", "ID", g.ID, "Name", m.sp.gameName(g.ID, g.Name), "Players", m.sp.playerCounts(g.Players), "Summary", m.sp.gameSummary(g))
		if len(g.Options) == 0 {
			line = m.sp.T("GamesNoOptions", "Line", line)
		}
		r.Lines = append(r.Lines, line)
		for _, o := range g.Options {
			r.Lines = append(r.Lines, m.sp.T("GamesOption", "Key", o.Key, "Values", strings.Join(o.Values, "|"), "Default", o.Default, "Help", m.sp.optionHelp(g.ID, o)))
		}
	}
	r.Lines = append(r.Lines, m.sp.T("GamesEvery", "Time", h.svc.DefaultTime(m.Key.Platform).String()))
	return r
}

func (h *Handler) play(ctx context.Context, m Message, args []string) Reply {
	spec := sessions.ChallengeSpec{Game: strings.ToLower(args[0]), Options: map[string]string{}, Play: sessions.DefaultPlayOptions()}
	if spec.Game == "bot" || strings.HasPrefix(spec.Game, "@") || strings.Contains(spec.Game, "=") {
		return fail(m.sp.T("PlayGameFirst"))
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
				return fail(m.sp.T("PlayNotUser", "Text", clip(a, 30)))
			}
			if err := CheckName(name); err != nil {
				return fail(m.sp.T("PlayBadName", "Text", clip(a, 30), "Why", m.sp.NameProblem(err)))
			}
			spec.Invited = append(spec.Invited, sessions.User{Name: name})
		case strings.Contains(a, "="):
			k, v, _ := strings.Cut(a, "=")
			k = strings.ToLower(k)
			if k == "colour" {
				k = "color"
			}
			if k == "" || v == "" {
				return fail(m.sp.T("PlayNotOption", "Text", clip(a, 30)))
			}
			if seen[k] {
				return fail(m.sp.T("PlayOptionTwice", "Key", clip(k, 20)))
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
			return fail(m.sp.T("PlayNotUnderstood", "Text", clip(a, 30)))
		}
	}
	if spec.Computer && len(spec.Invited) > 0 {
		return fail(m.sp.T("PlayBotAndPeople"))
	}
	if spec.Play.Level != 0 && !spec.Computer {
		return fail(m.sp.T("PlayLevelWithoutBot"))
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
		r := fail(m.sp.T("ChallengeWaiting", "Name", s.Record.Challenger.Name, "Game", m.sp.gameTitle(s), "Terms", m.sp.terms(s), "Who", m.sp.waitingFor(s, m.User)))
		r.Error = false
		r.Session = s
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
	out := Reply{Lines: []string{m.sp.T("BoardHeader", "Game", m.sp.gameTitle(s), "Players", m.sp.players(s), "Count", countMoves(s.Record), "Terms", m.sp.terms(s))}}
	if s.Last != nil {
		out.Lines = append(out.Lines, m.sp.T("LastMove", "Move", s.Last.Text))
	}
	if len(s.Record.DrawOffer) > 0 {
		var names []string
		for _, seat := range s.Record.DrawOffer {
			names = append(names, m.sp.player(s, seat))
		}
		out.Lines = append(out.Lines, m.sp.T("BoardDrawOffer", "Players", m.sp.andList(names), "Count", len(names)))
	}
	for _, seat := range s.Record.Takeback {
		out.Lines = append(out.Lines, m.sp.T("EventTakebackAsked", "Player", m.sp.player(s, seat), "Others", m.sp.opponents(s, seat)))
	}
	if st := m.sp.status(s); st != "" {
		out.Lines = append(out.Lines, st)
		out.TurnLine = len(out.Lines)
	}
	if l := m.sp.clockLine(s, h.svc.Now()); l != "" {
		out.Lines = append(out.Lines, l)
		out.Clock = true
	}
	out.Session = s
	out.Lines = append(out.Lines, m.sp.T("BoardFEN", "FEN", s.State.FEN()))
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
		return Reply{Lines: []string{m.sp.T("NoLegalMoves")}}
	}
	var texts []string
	for _, mv := range moves {
		texts = append(texts, mv.Text)
	}
	const most = 80
	more := ""
	if len(texts) > most {
		more = m.sp.T("MovesMore", "Count", len(texts)-most)
		texts = texts[:most]
	}
	line := m.sp.T("MovesLine", "Player", m.sp.player(s, s.Turn()), "Count", len(moves), "Moves", strings.Join(texts, " "), "More", more)
	out := Reply{Lines: []string{line}, Session: s}
	if hf, ok := s.State.(rules.Huffer); ok {
		if sq := hf.Huffable(); len(sq) > 0 {
			out.Lines = append(out.Lines, m.sp.huffHint(s))
		}
	}
	return out
}
