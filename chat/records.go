package chat

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/boardgamebot/bot/rules"
	"github.com/boardgamebot/bot/sessions"
)

// HistoryLimit is how many games /history lists; TopLimit how many
// players /top shows.
const (
	HistoryLimit = 10
	TopLimit     = 10
)

// opponents names the seats other than seat.
func (p Speaker) opponents(s *sessions.Snapshot, seat int) string {
	var names []string
	for i, u := range s.Record.Seats {
		if i != seat && !u.Is(s.Player(seat)) {
			names = append(names, u.Name)
		}
	}
	if len(names) == 0 {
		return s.Player(seat).Name
	}
	return p.andList(names)
}

// ratingLine says what a finished game did to ratings, or why it was not
// rated; empty for games that are never rated.
func (p Speaker) ratingLine(s *sessions.Snapshot) string {
	rec := s.Record
	if len(rec.Ratings) == 0 {
		if len(rec.Seats) == 2 && rec.Play.Rated && !slicesAny(rec.Seats, func(u sessions.User) bool { return u.Computer }) &&
			!rec.Seats[0].Is(rec.Seats[1]) {
			if rec.Result != nil && rec.Result.Winner < 0 {
				return p.T("NotRatedDraw", "Count", sessions.MinRatedMoves)
			}
			return p.T("NotRatedShort", "Count", sessions.MinRatedMoves)
		}
		return ""
	}
	var parts []string
	for _, c := range rec.Ratings {
		parts = append(parts, p.T("RatingChange", "Name", c.User.Name, "Before", c.Before, "After", c.After, "Change", signed(c.After-c.Before)))
	}
	if !rec.Ratings[0].Rated {
		return p.T("NotRatedAbandoned", "Count", sessions.MinRatedMoves, "Penalty", sessions.AbandonPenalty, "Changes", strings.Join(parts, ", "))
	}
	return p.T("Ratings", "Changes", strings.Join(parts, ", "))
}

// Terms says what the one who accepts a challenge agrees to: the clock and
// whether the game counts for the ratings, "clock 1d per move, rated" or
// "no clock, unrated". A game is unrated with rated=no, against the
// computer, against oneself and with more than two players.
func (p Speaker) terms(s *sessions.Snapshot) string {
	rec := s.Record
	clock := p.clockTerms(rec)
	self := len(rec.Invited) == 1 && rec.Invited[0].Is(rec.Challenger) ||
		len(rec.Seats) == 2 && !rec.Seats[0].IsZero() && rec.Seats[0].Is(rec.Seats[1])
	if !rec.Play.Rated || len(rec.Seats) != 2 || self || slicesAny(rec.Seats, func(u sessions.User) bool { return u.Computer }) {
		return p.T("TermsUnrated", "Clock", clock)
	}
	return p.T("TermsRated", "Clock", clock)
}

// clockTerms says the clock of a game: "clock 1d per move", "no clock".
func (p Speaker) clockTerms(rec *sessions.Record) string {
	if rec.Play.Time > 0 {
		return p.T("ClockPerMove", "Time", rec.Play.Time.String())
	}
	return p.T("NoClock")
}

// rated says whether a finished game counted for the ratings: never
// against the computer, against yourself or in a game of more than two,
// nor with rated=no, nor when it ended too soon (ratingLine says why).
func (p Speaker) rated(rec *sessions.Record) string {
	if len(rec.Ratings) > 0 && rec.Ratings[0].Rated {
		return p.T("Rated")
	}
	return p.T("Unrated")
}

func slicesAny[T any](s []T, f func(T) bool) bool {
	for _, v := range s {
		if f(v) {
			return true
		}
	}
	return false
}

func signed(n int) string {
	if n >= 0 {
		return fmt.Sprintf("+%d", n)
	}
	return fmt.Sprint(n)
}

// left writes a span for people: "2d 3h", "5h 20m", "6m", "40s".
func (p Speaker) left(d time.Duration) string {
	switch {
	case d < 0:
		return p.T("LeftNone")
	case d >= 48*time.Hour:
		return p.T("LeftDays", "D", int(d/(24*time.Hour)), "H", int(d%(24*time.Hour)/time.Hour))
	case d >= time.Hour:
		return p.T("LeftHours", "H", int(d/time.Hour), "M", int(d%time.Hour/time.Minute))
	case d >= time.Minute:
		return p.T("LeftMinutes", "M", int((d+30*time.Second)/time.Minute))
	}
	return p.T("LeftSeconds", "S", int(d/time.Second))
}

// Left writes a span for people in lang; for adapters that show the
// time left.
func (h *Handler) Left(lang string, d time.Duration) string { return h.words.In(lang).left(d) }

// clockLine says how much time the player to move has left.
func (p Speaker) clockLine(s *sessions.Snapshot, now time.Time) string {
	r := s.Record
	if r.Deadline.IsZero() {
		return ""
	}
	who := p.T("TheFormation")
	if t := s.Turn(); t >= 0 {
		who = s.Player(t).Name
	}
	return p.T("ClockLine", "Time", r.Play.Time.String(), "Who", who, "Left", p.left(r.Deadline.Sub(now)), "Until", r.Deadline.UTC().Format("2006-01-02 15:04"))
}

// NoticeReply turns a notice of the sessions service into a message:
// adapters post notices without To in the session's channel and may send
// those with To privately (or with a mention). It is the same text on
// every platform.
func (h *Handler) NoticeReply(n sessions.Notice) Reply {
	return h.NoticeReplyIn(h.noticeLang(n), n)
}

// NoticeReplyIn turns a notice into a message in lang.
func (h *Handler) NoticeReplyIn(lang string, n sessions.Notice) Reply {
	s := n.Session
	p := h.words.In(lang)
	r := Reply{Lang: p.Lang}
	if s != nil && s.Record.Result == nil && n.Kind != sessions.NoticeExpired {
		r.Session = s
	}
	add := func(id string, kv ...any) { r.Lines = append(r.Lines, p.T(id, kv...)) }
	switch {
	case n.Kind == sessions.NoticePlaceDone:
		return r // nothing to say: the platform closes the game's place
	case n.Kind == sessions.NoticeTournament && n.Tour != nil:
		return h.tourReply(p, *n.Tour)
	case n.Kind == sessions.NoticeTourGame && n.Tour != nil && s != nil:
		return h.tourGameReply(p, n)
	case n.Kind == sessions.NoticeEvent && n.Event != nil && n.Event.Session != nil:
		// A change made on the web board: the channel reads it as the
		// command's reply.
		r := p.eventReply(*n.Event)
		r.Lang = p.Lang
		return r
	case n.Kind == sessions.NoticeReviewed:
		add("NoticeReviewReady", "ID", n.Game)
		return r
	case s == nil:
		return r
	}
	switch n.Kind {
	case sessions.NoticeYourTurn:
		add("NoticeYourTurn", "Name", n.To.Name, "Game", p.gameTitle(s), "Players", p.players(s))
		return r
	case sessions.NoticeGameOver:
		r.Lines = append(r.Lines, p.resultLine(s))
		if l := p.ratingLine(s); l != "" {
			r.Lines = append(r.Lines, l)
		}
		return r
	case sessions.NoticeReminder:
		add("NoticeReminder", "Name", n.To.Name, "Game", p.gameTitle(s), "Left", p.left(n.Left), "Until", s.Record.Deadline.UTC().Format("2006-01-02 15:04"))
		r.Buttons = []Button{{p.T("ButtonBoard"), "/board"}, {p.T("ButtonMoves"), "/moves"}}
		return r
	case sessions.NoticeExpired:
		add("NoticeExpired", "Name", s.Record.Challenger.Name, "Game", p.gameTitle(s))
		return r
	case sessions.NoticeMoved:
		switch {
		case n.Auto && n.Move != nil:
			streak := 0
			if n.Seat < len(s.Record.Auto) {
				streak = s.Record.Auto[n.Seat]
			}
			add("NoticeAutoMove", "Player", p.player(s, n.Seat), "Move", n.Move.Text, "N", streak, "Max", sessions.AutoMovesToAbandon)
			if s.Record.Retired(n.Seat) && s.Record.Result == nil {
				add("NoticeAbandonedLeaves", "Player", p.player(s, n.Seat))
			} else if s.Record.Retired(n.Seat) {
				add("NoticeAbandoned", "Player", p.player(s, n.Seat))
			}
		case n.Auto:
			add("NoticeAutoFormation")
		default:
			if sq := computerHuff(s, n); sq != "" {
				add("NoticeComputerHuffed", "Player", p.player(s, n.Seat), "Square", sq)
			}
			if n.Move != nil {
				add("EventMoved", "Player", p.player(s, n.Seat), "Move", n.Move.Text)
			} else if computerHuff(s, n) == "" {
				add("EventFormed", "Player", p.player(s, n.Seat))
			}
		}
	}
	if s.Record.Result != nil {
		r.Lines = append(r.Lines, p.resultLine(s))
		if l := p.ratingLine(s); l != "" {
			r.Lines = append(r.Lines, l)
		}
		r.Picture = picture(s, sessions.User{})
		if s.Record.Tour == nil { // a tournament's next game is its next pairing
			r.Buttons = []Button{{p.T("ButtonRematch"), "/rematch"}}
		}
		return r
	}
	if st := p.status(s); st != "" {
		r.Lines = append(r.Lines, st)
		r.TurnLine = len(r.Lines)
	}
	r.Picture = picture(s, sessions.User{})
	r.Buttons = p.gameButtons()
	return r
}

// DefaultTime is the time per move of a /play without time= on platform,
// for adapters that show it (Discord's /play time option).
func (h *Handler) DefaultTime(platform string) sessions.Duration {
	return h.svc.DefaultTime(platform)
}

// Settle waits until the computer has played its reply in the session of
// key (see sessions.Service.Settle); an adapter that shows the notices
// in order after each command (the console) calls it.
func (h *Handler) Settle(ctx context.Context, key sessions.Key) error {
	return h.svc.Settle(ctx, key)
}

// ---- history, ratings ----

// userArg reads "@name": a user the platform resolved, the sender, or a
// player known by name.
func (h *Handler) userArg(ctx context.Context, m Message, arg string) (sessions.User, *Reply) {
	name := strings.TrimPrefix(arg, "@")
	if u, ok := m.Mentions[strings.ToLower(name)]; ok && u.ID != "" {
		return u, nil
	}
	if m.User.Is(sessions.User{Name: name}) {
		return m.User, nil
	}
	u, ok, err := h.svc.FindUser(ctx, m.Key.Platform, name)
	if err != nil {
		r := h.errorReply("history", m, err)
		return sessions.User{}, &r
	}
	if !ok {
		r := fail(m.sp.T("UnknownPlayer", "Name", clip(name, 30)))
		return sessions.User{}, &r
	}
	return u, nil
}

// gameArg reports whether word is a game id.
func (h *Handler) gameArg(word string) (string, bool) {
	id := strings.ToLower(word)
	for _, g := range h.games() {
		if g.ID == id {
			return id, true
		}
	}
	return "", false
}

// whoAndGame reads "[@user] [game]" in any order.
func (h *Handler) whoAndGame(ctx context.Context, m Message, args []string, cmd string) (sessions.User, string, *Reply) {
	who, game := m.User, ""
	for _, a := range args {
		if strings.HasPrefix(a, "@") {
			u, r := h.userArg(ctx, m, a)
			if r != nil {
				return who, "", r
			}
			who = u
			continue
		}
		id, ok := h.gameArg(a)
		if !ok {
			r := fail(m.sp.T("NotUserNorGame", "Text", clip(a, 30), "Name", cmd))
			return who, "", &r
		}
		game = id
	}
	return who, game, nil
}

// outcome is a finished game's result in a few words.
func (p Speaker) outcome(rec *sessions.Record) string {
	r := rec.Result
	switch {
	case r == nil:
		return p.T("OutcomeUnfinished")
	case r.Winner >= 0 && r.Winner < len(rec.Seats):
		return p.T("OutcomeWon", "Name", rec.Seats[r.Winner].Name, "Why", p.reason(r, p.recordSeat(rec)))
	}
	return p.T("OutcomeDrawn", "Why", p.reason(r, p.recordSeat(rec)))
}

func (h *Handler) history(ctx context.Context, m Message, args []string) Reply {
	who, game, r := h.whoAndGame(ctx, m, args, "history")
	if r != nil {
		return *r
	}
	recs, err := h.svc.History(ctx, sessions.HistoryQuery{Platform: m.Key.Platform, User: who.ID, Game: game, Limit: HistoryLimit})
	if err != nil {
		return h.errorReply("history", m, err)
	}
	if len(recs) == 0 {
		return Reply{Lines: []string{m.sp.T("HistoryNone", "Name", who.Name)}}
	}
	out := Reply{Lines: []string{m.sp.T("HistoryHeader", "Name", who.Name)}}
	for _, rec := range recs {
		var names []string
		for _, u := range rec.Seats {
			names = append(names, u.Name)
		}
		out.Lines = append(out.Lines, m.sp.T("HistoryLine", "ID", rec.ID, "Date", rec.Result.Ended.UTC().Format("2006-01-02"),
			"Game", rec.Game, "Players", strings.Join(names, " vs "), "Outcome", m.sp.outcome(rec), "Count", countMoves(rec)))
	}
	return out
}

var idRe = regexp.MustCompile(`^#?[0-9]{1,19}$`)

// finished loads the finished game named by args[0].
func (h *Handler) finished(ctx context.Context, m Message, arg, cmd string) (*sessions.Snapshot, *Reply) {
	if !idRe.MatchString(arg) {
		r := fail(m.sp.T("NotGameID", "Text", clip(arg, 30), "Name", cmd))
		return nil, &r
	}
	s, err := h.svc.Game(ctx, m.Key.Platform, arg)
	if err != nil {
		r := h.errorReply(cmd, m, err)
		return nil, &r
	}
	return s, nil
}

func (h *Handler) show(ctx context.Context, m Message, args []string) Reply {
	s, r := h.finished(ctx, m, args[0], "show")
	if r != nil {
		return *r
	}
	rec := s.Record
	out := Reply{Lines: []string{
		m.sp.T("GameHeader", "ID", rec.ID, "Game", m.sp.gameTitle(s), "Players", m.sp.players(s)),
		m.sp.T("ShowPlayed", "From", rec.Started.UTC().Format("2006-01-02 15:04"), "To", rec.Result.Ended.UTC().Format("2006-01-02 15:04"),
			"Count", countMoves(rec), "Time", rec.Play.Time.String(), "Rated", m.sp.rated(rec)),
		m.sp.result(s),
	}}
	if l := m.sp.ratingLine(s); l != "" {
		out.Lines = append(out.Lines, l)
	}
	if h.links != nil {
		out.Lines = append(out.Lines, m.sp.T("ShowWebLink", "URL", h.links.Board(s, m.User).Watch))
	}
	out.Picture = picture(s, m.User)
	out.Buttons = []Button{{m.sp.T("ButtonReplay"), "/replay " + rec.ID}, {m.sp.T("ButtonExport"), "/export " + rec.ID}}
	return out
}

func (h *Handler) replay(ctx context.Context, m Message, args []string) Reply {
	s, r := h.finished(ctx, m, args[0], "replay")
	if r != nil {
		return *r
	}
	frames, moves, err := h.svc.Frames(s.Record)
	if err != nil {
		return h.errorReply("replay", m, err)
	}
	return Reply{
		Lines:  []string{m.sp.T("ReplayHeader", "ID", s.Record.ID, "Game", m.sp.gameTitle(s), "Players", m.sp.players(s), "Count", len(moves))},
		Replay: &Replay{Frames: frames, Moves: moves, Game: s.Game.ID(), Name: "game-" + s.Record.ID + ".gif"},
	}
}

func (h *Handler) export(ctx context.Context, m Message, args []string) Reply {
	s, r := h.finished(ctx, m, args[0], "export")
	if r != nil {
		return *r
	}
	rec := s.Record
	var names []string
	for _, u := range rec.Seats {
		names = append(names, u.Name)
	}
	res := "*"
	switch w := rec.Result.Winner; {
	case len(rec.Seats) == 2 && w == 0:
		res = "1-0"
	case len(rec.Seats) == 2 && w == 1:
		res = "0-1"
	case drawn(rec): // any number of players: the draw token every record reader knows
		res = "1/2-1/2"
	case w >= 0:
		res = fmt.Sprintf("seat %d", w+1)
	}
	meta := rules.Meta{Event: fmt.Sprintf("Board-game bot, game #%s", rec.ID), Date: rec.Started.UTC().Format("2006.01.02"),
		Names: names, Result: res}
	doc := &Document{Name: "game-" + rec.ID + ".txt", MIME: "text/plain"}
	if rc, ok := s.State.(rules.Recorder); ok {
		doc.Data = []byte(rc.Record(meta))
		switch s.Game.ID() {
		case "spanish", "damas", "dame": // the draughts games write PDN
			doc.Name = "game-" + rec.ID + ".pdn"
			doc.MIME = "application/x-pdn"
			if rv, err := h.svc.StoredReview(ctx, rec.ID); err == nil && rv != nil {
				doc.Data = []byte(annotatePDN(string(doc.Data), rv.Review))
			}
		}
	} else {
		doc.Data = []byte(moveList(s, meta, h.words.In(DefaultLang).gameTitle(s)))
	}
	return Reply{Lines: []string{m.sp.T("GameHeader", "ID", rec.ID, "Game", m.sp.gameTitle(s), "Players", m.sp.players(s))}, Document: doc}
}

// moveList writes a game that has no record format of its own: tags, then
// the actions numbered by round.
func moveList(s *sessions.Snapshot, meta rules.Meta, title string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "[Event %q]\n[Date %q]\n[Game %q]\n", meta.Event, meta.Date, title)
	for i, n := range meta.Names {
		fmt.Fprintf(&b, "[%s %q]\n", s.SeatName(i), n)
	}
	fmt.Fprintf(&b, "[Result %q]\n\n", meta.Result)
	n := len(s.Record.Seats)
	moveNo := 0
	for _, a := range s.Record.Actions {
		switch a.Kind {
		case sessions.ActForm:
			fmt.Fprintf(&b, "%s sets up: %s\n", s.SeatName(a.Seat), a.Text)
		case sessions.ActHuff:
			fmt.Fprintf(&b, "%s huffs %s\n", s.SeatName(a.Seat), a.Text)
		case sessions.ActMove:
			if moveNo%n == 0 {
				fmt.Fprintf(&b, "%d.", moveNo/n+1)
			}
			fmt.Fprintf(&b, " %s", a.Text)
			moveNo++
			if moveNo%n == 0 {
				b.WriteString("\n")
			}
		}
	}
	if moveNo%n != 0 {
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "%s\n", meta.Result)
	return b.String()
}

func (h *Handler) rating(ctx context.Context, m Message, args []string) Reply {
	who, game, r := h.whoAndGame(ctx, m, args, "rating")
	if r != nil {
		return *r
	}
	all, err := h.svc.Standings(ctx, m.Key.Platform, who.ID, game)
	if err != nil {
		return h.errorReply("rating", m, err)
	}
	month := sessions.Month(h.svc.Now())
	type pair struct{ all, month *sessions.Standing }
	by := map[string]*pair{}
	var order []string
	for i := range all {
		st := &all[i]
		p := by[st.Game]
		if p == nil {
			p = &pair{}
			by[st.Game] = p
			order = append(order, st.Game)
		}
		switch st.Period {
		case sessions.AllTime:
			p.all = st
		case month:
			p.month = st
		}
	}
	var out Reply
	for _, g := range order {
		p := by[g]
		if p.all == nil {
			continue
		}
		var line string
		if p.month != nil {
			line = m.sp.T("RatingLine", "Game", g, "All", p.all.Rating, "AllRecord", m.sp.record(p.all), "Month", p.month.Rating, "MonthRecord", m.sp.record(p.month))
		} else {
			line = m.sp.T("RatingLineNoMonth", "Game", g, "All", p.all.Rating, "AllRecord", m.sp.record(p.all), "Month", sessions.StartRating)
		}
		out.Lines = append(out.Lines, line)
	}
	if len(out.Lines) == 0 {
		if game != "" {
			return Reply{Lines: []string{m.sp.T("NoRatingGame", "Name", who.Name, "Start", sessions.StartRating, "Game", game, "Count", sessions.MinRatedMoves)}}
		}
		return Reply{Lines: []string{m.sp.T("NoRating", "Name", who.Name, "Start", sessions.StartRating, "Count", sessions.MinRatedMoves)}}
	}
	out.Lines = append([]string{m.sp.T("RatingsHeader", "Name", who.Name)}, out.Lines...)
	// The chart: of the game asked for, else of the one played most.
	charted := game
	if charted == "" {
		for _, g := range order {
			if p := by[g]; p.all != nil && (charted == "" || p.all.Games > by[charted].all.Games) {
				charted = g
			}
		}
	}
	if p := by[charted]; p != nil && p.all != nil {
		hist, err := h.svc.RatingHistory(ctx, m.Key.Platform, who.ID, charted)
		if err != nil {
			return h.errorReply("rating", m, err)
		}
		out.Figure = m.sp.ratingFigure(who, charted, h.gameNamed(m.sp, charted), hist, p.all, h.svc.Now())
	}
	return out
}

func (p Speaker) record(st *sessions.Standing) string {
	return p.T("RecordLine", "Count", st.Games, "Won", st.Won, "Lost", st.Lost, "Drawn", st.Drawn)
}

var monthRe = regexp.MustCompile(`^[0-9]{4}-(0[1-9]|1[0-2])$`)

func (h *Handler) top(ctx context.Context, m Message, args []string) Reply {
	game, period, community := "", sessions.AllTime, m.Community
	for _, a := range args {
		switch w := strings.ToLower(a); {
		case w == Global:
			community = ""
		case w == "month" || w == "monthly" || w == "this":
			period = sessions.Month(h.svc.Now())
		case w == "all" || w == "alltime":
			period = sessions.AllTime
		case monthRe.MatchString(w):
			period = w
		default:
			id, ok := h.gameArg(w)
			if !ok {
				return fail(m.sp.T("TopBadWord", "Text", clip(a, 30)))
			}
			game = id
		}
	}
	when := m.sp.T("AllTime")
	if period != sessions.AllTime {
		when = period
	}
	where := m.sp.scope(m.Key.Platform, community)
	if game == "" {
		var err error
		if game, err = h.gameHere(ctx, m.Key); err != nil {
			return h.errorReply("top", m, err)
		}
	}
	if game == "" {
		return h.leaders(ctx, m, period, when, community, where)
	}
	l, err := h.svc.Top(ctx, sessions.TopQuery{Platform: m.Key.Platform, Community: community, Game: game, Period: period, Limit: TopLimit, User: m.User.ID})
	if err != nil {
		return h.errorReply("top", m, err)
	}
	var out Reply
	if l.Players == 0 {
		out.Lines = []string{m.sp.T("TopNone", "Game", game, "When", when, "Where", where)}
	} else {
		out.Lines = []string{m.sp.T("TopHeader", "Game", game, "When", when, "Where", where, "Count", l.Players)}
		place := 0
		for i, st := range l.Rows {
			if i == 0 || st.Rating != l.Rows[i-1].Rating {
				place = i + 1
			}
			out.Lines = append(out.Lines, m.sp.T("TopLine", "Place", place, "Name", st.User.Name, "Rating", st.Rating, "Record", m.sp.record(&st)))
		}
		switch {
		case l.Me != nil:
			out.Lines = append(out.Lines, m.sp.T("TopYou", "Place", l.Place, "Of", l.Players, "Rating", l.Me.Rating))
		case community != "":
			out.Lines = append(out.Lines, m.sp.T("TopNotYouHere"))
		default:
			out.Lines = append(out.Lines, m.sp.T("TopNotYou"))
		}
	}
	if community != "" {
		out.Lines = append(out.Lines, m.sp.T("TopGlobalHint", "Game", game, "Platform", platformName(m.Key.Platform)))
	}
	return out
}

// LeadersLimit is how many players of each game /top without a game
// shows where no game was played.
const LeadersLimit = 3

// gameHere returns the game played in the session of key: the one going
// on, else the last one finished there; "" when none was.
func (h *Handler) gameHere(ctx context.Context, key sessions.Key) (string, error) {
	if s, err := h.svc.Look(ctx, key); err == nil {
		return s.Game.ID(), nil
	}
	recs, err := h.svc.History(ctx, sessions.HistoryQuery{Platform: key.Platform, Key: key, Limit: 1})
	if err != nil || len(recs) == 0 {
		return "", err
	}
	return recs[0].Game, nil
}

// leaders lists the first players of every game's ladder (of community,
// or the platform's).
func (h *Handler) leaders(ctx context.Context, m Message, period, when, community, where string) Reply {
	out := Reply{Lines: []string{m.sp.T("LeadersHeader", "When", when, "Where", where)}}
	for _, g := range h.games() {
		l, err := h.svc.Top(ctx, sessions.TopQuery{Platform: m.Key.Platform, Community: community, Game: g.ID, Period: period, Limit: LeadersLimit})
		if err != nil {
			return h.errorReply("top", m, err)
		}
		if l.Players == 0 {
			continue
		}
		var rows []string
		place := 0
		for i, st := range l.Rows {
			if i == 0 || st.Rating != l.Rows[i-1].Rating {
				place = i + 1
			}
			rows = append(rows, m.sp.T("LeaderRow", "Place", place, "Name", st.User.Name, "Rating", st.Rating))
		}
		out.Lines = append(out.Lines, m.sp.T("LeadersLine", "Game", g.ID, "Count", l.Players, "Rows", strings.Join(rows, ", ")))
	}
	if len(out.Lines) == 1 {
		return Reply{Lines: []string{m.sp.T("LeadersNone", "When", when, "Where", where)}}
	}
	return out
}

// computerHuff returns the square the computer huffed in the turn a
// NoticeMoved reports (its huff comes just before its move, or is the
// last action when it ended the game), or "".
func computerHuff(s *sessions.Snapshot, n sessions.Notice) string {
	acts := s.Record.Actions
	i := len(acts) - 1
	if n.Move != nil {
		i--
	}
	if i >= 0 && acts[i].Kind == sessions.ActHuff && acts[i].Seat == n.Seat {
		return acts[i].Text
	}
	return ""
}
