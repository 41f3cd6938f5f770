package chat

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/boardgamebot/bot/render"
	"github.com/boardgamebot/bot/rules/games"
	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/sessions/tournament"
)

// ---- /tournament ----

// tourSubcommands are the words after /tournament, with the number of
// arguments each takes.
var tourSubcommands = map[string]int{"new": -1, "join": 0, "leave": 0, "start": 0, "standings": 0, "show": 1, "cancel": 0}

func (h *Handler) tournament(ctx context.Context, m Message, args []string) Reply {
	sub := strings.ToLower(args[0])
	n, ok := tourSubcommands[sub]
	if !ok {
		return fail(m.sp.T("TourUnknownSub", "Text", clip(args[0], 30)))
	}
	rest := args[1:]
	name := "tournament " + sub
	switch {
	case n == 0 && len(rest) > 0:
		return fail(m.sp.T("TakesNothing", "Name", name, "Usage", "/"+name))
	case n == 1 && len(rest) != 1:
		return fail(m.sp.T("TourShowOne"))
	}
	var (
		ev  sessions.TourEvent
		err error
	)
	switch sub {
	case "new":
		spec, r := h.tourSpec(m, rest)
		if r != nil {
			return *r
		}
		ev, err = h.svc.NewTournament(ctx, req(m), spec)
	case "join":
		ev, err = h.svc.JoinTournament(ctx, req(m))
	case "leave":
		ev, err = h.svc.LeaveTournament(ctx, req(m))
	case "start":
		ev, err = h.svc.StartTournament(ctx, req(m))
	case "cancel":
		ev, err = h.svc.CancelTournament(ctx, req(m))
	case "standings":
		ev, err = h.svc.TournamentHere(ctx, m.Key)
		if err == nil {
			r := h.tourStandings(m.sp, ev)
			r.Lookup = true
			return r
		}
	case "show":
		if !tourIDRe.MatchString(rest[0]) {
			return fail(m.sp.T("TourNotID", "Text", clip(rest[0], 30)))
		}
		ev, err = h.svc.TournamentByID(ctx, m.Key.Platform, strings.TrimPrefix(rest[0], "#"))
		if err == nil {
			r := h.tourShow(m.sp, ev)
			r.Lookup = true
			return r
		}
	}
	if err != nil {
		if line, ok := m.sp.tourError(name, err, sessions.KindOf(err), ev.Tournament); ok {
			return fail(line)
		}
		return h.errorReply(name, m, err)
	}
	return h.tourReply(m.sp, ev)
}

var tourIDRe = regexp.MustCompile(`^#?[0-9]{1,19}$`)

// tourSpec reads "new <game> [format=] [rounds=] [double=] [time=]
// [rated=] [game options]".
func (h *Handler) tourSpec(m Message, args []string) (sessions.TournamentSpec, *Reply) {
	refuse := func(line string) (sessions.TournamentSpec, *Reply) {
		r := fail(line)
		return sessions.TournamentSpec{}, &r
	}
	if len(args) == 0 || strings.Contains(args[0], "=") || strings.HasPrefix(args[0], "@") || IsComputerName(args[0]) {
		return refuse(m.sp.T("TourGameFirst"))
	}
	spec := sessions.TournamentSpec{Game: strings.ToLower(args[0]), Options: map[string]string{},
		Play: sessions.DefaultPlayOptions(), Format: sessions.FormatSwiss}
	seen := map[string]bool{}
	for _, a := range args[1:] {
		k, v, ok := strings.Cut(a, "=")
		k = strings.ToLower(k)
		if k == "colour" {
			k = "color"
		}
		if !ok || k == "" || v == "" {
			return refuse(m.sp.T("TourNotOption", "Text", clip(a, 30)))
		}
		if seen[k] {
			return refuse(m.sp.T("PlayOptionTwice", "Key", clip(k, 20)))
		}
		seen[k] = true
		lv := strings.ToLower(v)
		switch k {
		case "format":
			switch lv {
			case "swiss":
				spec.Format = sessions.FormatSwiss
			case "roundrobin", "round-robin", "rr":
				spec.Format = sessions.FormatRoundRobin
			default:
				return refuse(m.sp.T("TourBadValue", "Key", k, "Value", clip(v, 20), "Choices", m.sp.orList([]string{"swiss", "roundrobin"})))
			}
		case "rounds":
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 || n > sessions.MaxSwissRounds {
				return refuse(m.sp.T("TourBadRounds", "Value", clip(v, 20), "Max", sessions.MaxSwissRounds))
			}
			spec.Rounds = n
		case "double":
			switch lv {
			case "yes":
				spec.Double = true
			case "no":
				spec.Double = false
			default:
				return refuse(m.sp.T("TourBadValue", "Key", k, "Value", clip(v, 20), "Choices", m.sp.orList([]string{"yes", "no"})))
			}
		case "color", "level":
			return refuse(m.sp.T("TourNoSeatOption", "Key", k))
		default:
			known, err := spec.Play.Set(k, v)
			if err != nil {
				r := h.errorReply("tournament new", m, err)
				return sessions.TournamentSpec{}, &r
			}
			if !known {
				spec.Options[k] = v
			}
		}
	}
	if spec.Double && spec.Format != sessions.FormatRoundRobin {
		return refuse(m.sp.T("TourDoubleSwiss"))
	}
	if seen["rounds"] && spec.Format == sessions.FormatRoundRobin {
		return refuse(m.sp.T("TourRoundsRoundRobin"))
	}
	return spec, nil
}

// tourTime returns t with the platform's default time per move in place
// of TimeDefault, for its words.
func (h *Handler) tourTime(t *sessions.Tournament) *sessions.Tournament {
	if t == nil || t.Play.Time != sessions.TimeDefault {
		return t
	}
	c := t.Clone()
	c.Play.Time = h.svc.DefaultTime(t.Key.Platform)
	return c
}

// tourReply words a tournament event: the answer to a /tournament command,
// and the post of a NoticeTournament.
func (h *Handler) tourReply(p Speaker, ev sessions.TourEvent) Reply {
	t := h.tourTime(ev.Tournament)
	r := Reply{Tour: &ev, Lang: p.Lang}
	if t == nil {
		return r
	}
	add := func(id string, kv ...any) { r.Lines = append(r.Lines, p.T(id, kv...)) }
	by := ev.By.Name
	switch ev.Kind {
	case sessions.TourOpened:
		add("TourOpened", "By", by, "ID", t.ID, "Game", p.tourGame(t), "Format", p.tourFormat(t), "Terms", p.tourTerms(t))
		add("TourOpenedHint", "By", t.Organiser.Name, "Count", sessions.MinTourPlayers)
	case sessions.TourJoined:
		if t.Status == sessions.StatusRunning {
			add("TourJoinedLate", "By", by, "ID", t.ID, "Round", len(t.Played)+1)
			break
		}
		add("TourJoined", "By", by, "ID", t.ID, "Count", len(t.Players), "Names", p.entrants(t))
	case sessions.TourLeft:
		if t.Status == sessions.StatusRunning {
			add("TourWithdrew", "By", by, "ID", t.ID)
			break
		}
		add("TourLeft", "By", by, "ID", t.ID, "Count", len(t.Players))
	case sessions.TourStarted:
		add("TourStarted", "ID", t.ID, "Count", len(t.Players), "Format", p.tourFormat(t))
		if len(t.Played) > 0 { // round 1's pairings are the answer's: no post repeats them
			add("TourPairedHeader", "ID", t.ID, "Round", 1, "Rounds", t.Rounds)
			r.Lines = append(r.Lines, p.pairings(t, 1)...)
		}
	case sessions.TourRoundPaired:
		add("TourPairedHeader", "ID", t.ID, "Round", ev.Round, "Rounds", t.Rounds)
		r.Lines = append(r.Lines, p.pairings(t, ev.Round)...)
	case sessions.TourRoundEnded:
		add("TourRoundEndedHeader", "ID", t.ID, "Round", ev.Round, "Rounds", t.Rounds)
		r.Lines = append(r.Lines, p.results(t, ev.Round)...)
		p.standings(&r, t, ev.Standings, p.T("TourStandingsAfter", "ID", t.ID, "Round", ev.Round, "Rounds", t.Rounds))
	case sessions.TourEnded:
		add("TourEndedHeader", "ID", t.ID, "Count", len(t.Played))
		if len(t.Played) > 0 {
			r.Lines = append(r.Lines, p.results(t, len(t.Played))...)
		}
		p.standings(&r, t, ev.Standings, p.T("TourFinalTitle", "ID", t.ID))
		if w := p.winners(t, ev.Standings); w != "" {
			r.Lines = append(r.Lines, w)
		}
	case sessions.TourCancelled:
		add("TourCancelled", "By", by, "ID", t.ID)
	case sessions.TourPlaceMissing:
		add("TourPlaceMissing", "ID", t.ID, "Round", ev.Round, "Count", len(ev.Boards), "Right", p.placeRight(ev.Missing),
			"Organiser", t.Organiser.Name)
		r.Lines = append(r.Lines, p.pairingsOf(t, ev.Round, ev.Boards)...)
	case sessions.TourPlaceOpened:
		add("TourPlaceOpened", "ID", t.ID, "Round", ev.Round, "Count", len(ev.Boards))
		r.Lines = append(r.Lines, p.pairingsOf(t, ev.Round, ev.Boards)...)
	}
	return r
}

// standingsTitle is the title of the standings of ev: the final ones, or
// those after the rounds they count (ev.Counted), or before any round.
func (p Speaker) standingsTitle(t *sessions.Tournament, ev sessions.TourEvent) string {
	switch {
	case t.Status == sessions.StatusFinished:
		return p.T("TourFinalTitle", "ID", t.ID)
	case ev.Counted == 0:
		return p.T("TourStandingsStart", "ID", t.ID, "Rounds", t.Rounds)
	}
	return p.T("TourStandingsAfter", "ID", t.ID, "Round", ev.Counted, "Rounds", t.Rounds)
}

// tourStandings answers /tournament standings: the sign-up list, or the
// standings of the tournament here.
func (h *Handler) tourStandings(p Speaker, ev sessions.TourEvent) Reply {
	t := h.tourTime(ev.Tournament)
	r := Reply{Tour: &ev}
	if t == nil {
		return r
	}
	switch t.Status {
	case sessions.StatusSignup:
		r.Lines = append(r.Lines, p.T("TourSignupHeader", "ID", t.ID, "Game", p.tourGame(t), "Format", p.tourFormat(t), "Terms", p.tourTerms(t)),
			p.T("TourSignupPlayers", "Count", len(t.Players), "Names", p.entrants(t)),
			p.T("TourOpenedHint", "By", t.Organiser.Name, "Count", sessions.MinTourPlayers))
		return r
	case sessions.StatusCancelled:
		r.Lines = append(r.Lines, p.T("TourWasCancelled", "ID", t.ID, "Game", p.tourGame(t)))
	}
	p.standings(&r, t, ev.Standings, p.standingsTitle(t, ev))
	if t.Status == sessions.StatusRunning && len(t.Played) > ev.Counted {
		// The round under way, not counted yet: its finished games as
		// results, the others as being played (or waiting for a place).
		round := len(t.Played)
		r.Lines = append(r.Lines, p.T("TourPlaying", "Round", round, "Count", tourPending(t, round)))
		r.Lines = append(r.Lines, p.results(t, round)...)
	}
	return r
}

// tourShow answers /tournament show <id>: the terms, every round's games
// with their ids, and the standings.
func (h *Handler) tourShow(p Speaker, ev sessions.TourEvent) Reply {
	t := h.tourTime(ev.Tournament)
	r := Reply{Tour: &ev}
	if t == nil {
		return r
	}
	r.Lines = append(r.Lines, p.T("TourShowHeader", "ID", t.ID, "Game", p.tourGame(t), "Format", p.tourFormat(t), "Terms", p.tourTerms(t),
		"Organiser", t.Organiser.Name, "Status", p.tourStatus(t.Status), "Count", len(t.Players)))
	if t.Status == sessions.StatusSignup {
		r.Lines = append(r.Lines, p.T("TourSignupPlayers", "Count", len(t.Players), "Names", p.entrants(t)))
		return r
	}
	for _, rd := range t.Played {
		r.Lines = append(r.Lines, p.T("TourShowRound", "Round", rd.Number))
		r.Lines = append(r.Lines, p.resultsLinked(t, rd.Number, true)...)
	}
	p.standings(&r, t, ev.Standings, p.standingsTitle(t, ev))
	return r
}

// tourStatus words where a tournament is in its life.
func (p Speaker) tourStatus(st sessions.TourStatus) string {
	switch st {
	case sessions.StatusSignup:
		return p.T("TourStatusSignup")
	case sessions.StatusRunning:
		return p.T("TourStatusRunning")
	case sessions.StatusCancelled:
		return p.T("TourStatusCancelled")
	}
	return p.T("TourStatusFinished")
}

// tourRoundsDone is the number of rounds whose every game has a result.
func tourRoundsDone(t *sessions.Tournament) int {
	done := 0
	for _, rd := range t.Played {
		if tourPending(t, rd.Number) > 0 {
			break
		}
		done = rd.Number
	}
	return done
}

// tourPending counts the games of round that have no result yet.
func tourPending(t *sessions.Tournament, round int) int {
	n := 0
	if rd := tourRound(t, round); rd != nil {
		for _, g := range rd.Games {
			if g.Result == tournament.Pending {
				n++
			}
		}
	}
	return n
}

func tourRound(t *sessions.Tournament, round int) *sessions.TourRound {
	for i := range t.Played {
		if t.Played[i].Number == round {
			return &t.Played[i]
		}
	}
	return nil
}

// tourGame names the tournament's game with its options.
func (p Speaker) tourGame(t *sessions.Tournament) string {
	name := t.Game
	if info, ok := games.Lookup(t.Game); ok {
		name = p.gameName(info.ID, info.Name)
	}
	var opts []string
	if info, ok := games.Lookup(t.Game); ok {
		for _, o := range info.Options {
			if v := t.Options[o.Key]; v != "" && v != o.Default {
				opts = append(opts, o.Key+"="+v)
			}
		}
	}
	if len(opts) > 0 {
		name += " (" + strings.Join(opts, " ") + ")"
	}
	return name
}

// tourFormat words the format: "Swiss, 3 rounds", "round-robin".
func (p Speaker) tourFormat(t *sessions.Tournament) string {
	switch {
	case t.Format == sessions.FormatRoundRobin && t.Double && t.Rounds > 0:
		return p.T("TourFormatDoubleRounds", "Count", t.Rounds)
	case t.Format == sessions.FormatRoundRobin && t.Double:
		return p.T("TourFormatDouble")
	case t.Format == sessions.FormatRoundRobin && t.Rounds > 0:
		return p.T("TourFormatRoundRobinRounds", "Count", t.Rounds)
	case t.Format == sessions.FormatRoundRobin:
		return p.T("TourFormatRoundRobin")
	}
	return p.T("TourFormatSwiss", "Count", t.Rounds)
}

// tourTerms says each game's clock and whether it is rated.
func (p Speaker) tourTerms(t *sessions.Tournament) string {
	clock := p.T("NoClock")
	if t.Play.Time > 0 {
		clock = p.T("ClockPerMove", "Time", t.Play.Time.String())
	}
	if t.Play.Rated {
		return p.T("TermsRated", "Clock", clock)
	}
	return p.T("TermsUnrated", "Clock", clock)
}

// entrants lists the players' names in sign-up order.
func (p Speaker) entrants(t *sessions.Tournament) string {
	var names []string
	for _, e := range t.Players {
		names = append(names, e.User.Name)
	}
	if len(names) == 0 {
		return p.T("Nobody")
	}
	return p.andList(names)
}

// tourName is the name of the player with id.
func tourName(t *sessions.Tournament, id string) string {
	for _, e := range t.Players {
		if e.User.ID == id {
			return e.User.Name
		}
	}
	return id
}

// tourSeats are the names of the two seats of the tournament's game
// ("White", "Black"), in the speaker's language.
func (p Speaker) tourSeats(t *sessions.Tournament) [2]string {
	seats := [2]string{"White", "Black"}
	if g, err := games.New(t.Game, t.Options); err == nil && len(g.Seats()) == 2 {
		seats = [2]string{g.Seats()[0], g.Seats()[1]}
	}
	return [2]string{p.seatWord(seats[0]), p.seatWord(seats[1])}
}

// pairings lists a round's games as they are paired: the board, the
// players with their colours, where the game is; byes and forfeits.
func (p Speaker) pairings(t *sessions.Tournament, round int) []string {
	return p.pairingsOf(t, round, nil)
}

// pairingsOf is pairings of the games boards of the round (nil: all).
func (p Speaker) pairingsOf(t *sessions.Tournament, round int, boards []int) []string {
	rd := tourRound(t, round)
	if rd == nil {
		return nil
	}
	seats := p.tourSeats(t)
	var out []string
	for i, g := range rd.Games {
		if boards != nil && !slices.Contains(boards, i) {
			continue
		}
		white, black := tourName(t, g.White), tourName(t, g.Black)
		switch {
		case g.Result == tournament.Bye || g.Black == "":
			out = append(out, p.T("TourBye", "Board", i+1, "Name", white))
		case g.Result == tournament.WhiteByForfeit:
			out = append(out, p.T("TourForfeit", "Board", i+1, "Winner", white, "Loser", black))
		case g.Result == tournament.BlackByForfeit:
			out = append(out, p.T("TourForfeit", "Board", i+1, "Winner", black, "Loser", white))
		default:
			players := p.T("Versus", "A", p.T("Player", "Name", white, "Seat", seats[0]), "B", p.T("Player", "Name", black, "Seat", seats[1]))
			switch where := p.place(g.Key); {
			case where != "":
				out = append(out, p.T("TourPairingAt", "Board", i+1, "Players", players, "Where", where))
			case g.Wait != nil && g.Waiting():
				out = append(out, p.T("TourPairingWaiting", "Board", i+1, "Players", players, "Right", p.placeRight(g.Wait)))
			default:
				out = append(out, p.T("TourPairing", "Board", i+1, "Players", players))
			}
		}
	}
	return out
}

// results lists a round's games with their results and game ids.
func (p Speaker) results(t *sessions.Tournament, round int) []string {
	return p.resultsLinked(t, round, false)
}

// resultsLinked is results; with linked, a finished game also links its
// place (its Discord thread or Telegram topic, closed now but still
// there to read).
func (p Speaker) resultsLinked(t *sessions.Tournament, round int, linked bool) []string {
	rd := tourRound(t, round)
	if rd == nil {
		return nil
	}
	var out []string
	for i, g := range rd.Games {
		white, black := tourName(t, g.White), tourName(t, g.Black)
		switch g.Result {
		case tournament.Bye:
			out = append(out, p.T("TourBye", "Board", i+1, "Name", white))
		case tournament.WhiteByForfeit:
			out = append(out, p.T("TourForfeit", "Board", i+1, "Winner", white, "Loser", black))
		case tournament.BlackByForfeit:
			out = append(out, p.T("TourForfeit", "Board", i+1, "Winner", black, "Loser", white))
		case tournament.Pending:
			switch where := p.place(g.Key); {
			case where != "":
				out = append(out, p.T("TourResultPendingAt", "Board", i+1, "White", white, "Black", black, "Where", where))
			case g.Waiting() && g.Wait != nil:
				out = append(out, p.T("TourResultWaitingFor", "Board", i+1, "White", white, "Black", black, "Right", p.placeRight(g.Wait)))
			case g.Waiting():
				out = append(out, p.T("TourResultWaiting", "Board", i+1, "White", white, "Black", black))
			default:
				out = append(out, p.T("TourResultPending", "Board", i+1, "White", white, "Black", black))
			}
		default:
			score := map[tournament.Result]string{tournament.WhiteWins: "1-0", tournament.BlackWins: "0-1", tournament.Draw: "½-½"}[g.Result]
			where := ""
			if linked && g.Key.Platform != "console" { // a console's place is no link, and over
				where = p.place(g.Key)
			}
			switch {
			case g.GameID != "" && where != "":
				out = append(out, p.T("TourResultGameAt", "Board", i+1, "White", white, "Black", black, "Score", score, "Game", g.GameID, "Where", where))
			case g.GameID != "":
				out = append(out, p.T("TourResultGame", "Board", i+1, "White", white, "Black", black, "Score", score, "Game", g.GameID))
			default:
				out = append(out, p.T("TourResult", "Board", i+1, "White", white, "Black", black, "Score", score))
			}
		}
	}
	return out
}

// place words where a tournament game is played, for the lists of
// pairings: on the console the command that goes there, on Discord a
// mention of its thread; "" elsewhere (the game's own post pings its
// players there).
func (p Speaker) place(k sessions.Key) string {
	if k.Thread == "" {
		return ""
	}
	switch k.Platform {
	case "console":
		return p.T("TourWhereConsole", "Place", k.Thread)
	case "discord":
		return "<#" + k.Thread + ">"
	case "telegram":
		// A link to the forum topic (supergroups' ids are -100<id>).
		if id, ok := strings.CutPrefix(k.Channel, "-100"); ok {
			return "https://t.me/c/" + id + "/" + k.Thread
		}
	}
	return ""
}

// standingsRows are the standings as the picture's rows, with names.
func standingsRows(t *sessions.Tournament, st []tournament.Standing) []render.StandingsRow {
	left := map[string]bool{}
	for _, e := range t.Players {
		if e.Left > 0 {
			left[e.User.ID] = true
		}
	}
	rows := make([]render.StandingsRow, 0, len(st))
	for _, s := range st {
		rows = append(rows, render.StandingsRow{Place: s.Place, Name: tourName(t, s.Player), Points: s.Points,
			Buchholz: s.Buchholz, SonnebornBerger: s.SonnebornBerger, Wins: s.Wins, Withdrawn: left[s.Player]})
	}
	return rows
}

// standings adds the standings to r: the title, the text table (r.Table
// marks it), its key, and the picture.
func (p Speaker) standings(r *Reply, t *sessions.Tournament, st []tournament.Standing, title string) {
	rows := standingsRows(t, st)
	heads := [6]string{p.T("TourColPlace"), p.T("TourColPlayer"), p.T("TourColPoints"), p.T("TourColBuchholz"), p.T("TourColSB"), p.T("TourColWins")}
	r.Lines = append(r.Lines, title)
	r.Table.From = len(r.Lines)
	r.Lines = append(r.Lines, standingsText(heads, rows, p.T("TourWithdrawn"))...)
	r.Table.To = len(r.Lines)
	r.Lines = append(r.Lines, p.T("TourTableKey"))
	name := "tournament-" + t.ID + ".png"
	if done := tourRoundsDone(t); t.Status != sessions.StatusFinished && done > 0 {
		name = fmt.Sprintf("tournament-%s-round-%d.png", t.ID, done)
	}
	r.Standings = &StandingsPicture{Table: render.StandingsTable{Title: title, Headings: heads, Rows: rows}, Name: name}
}

// standingsText writes the standings as a table aligned with spaces:
// place and numbers right-aligned, names left-aligned; a withdrawn
// player's name is followed by mark.
func standingsText(heads [6]string, rows []render.StandingsRow, mark string) []string {
	cells := [][6]string{heads}
	for _, r := range rows {
		name := clipName(r.Name)
		if r.Withdrawn {
			name += " " + mark
		}
		cells = append(cells, [6]string{strconv.Itoa(r.Place), name, render.Points(r.Points), render.Points(r.Buchholz),
			render.Points(r.SonnebornBerger), strconv.Itoa(r.Wins)})
	}
	var w [6]int
	for _, c := range cells {
		for i, s := range c {
			w[i] = max(w[i], utf8.RuneCountInString(s))
		}
	}
	pad := func(s string, n int, left bool) string {
		sp := strings.Repeat(" ", n-utf8.RuneCountInString(s))
		if left {
			return s + sp
		}
		return sp + s
	}
	out := make([]string, 0, len(cells))
	for _, c := range cells {
		parts := make([]string, 6)
		for i, s := range c {
			parts[i] = pad(s, w[i], i == 1)
		}
		out = append(out, strings.TrimRight(strings.Join(parts, "  "), " "))
	}
	return out
}

// clipName cuts a long name for the text table.
func clipName(s string) string {
	if utf8.RuneCountInString(s) <= MaxName {
		return s
	}
	return string([]rune(s)[:MaxName-1]) + "…"
}

// winners says who won: the players placed first.
func (p Speaker) winners(t *sessions.Tournament, st []tournament.Standing) string {
	var names []string
	var pts float64
	for _, s := range st {
		if s.Place == 1 {
			names = append(names, tourName(t, s.Player))
			pts = s.Points
		}
	}
	// Max: the points of one who won every round (a bye is a win).
	max := len(t.Played)
	switch len(names) {
	case 0:
		return ""
	case 1:
		return p.T("TourWinner", "Name", names[0], "Points", render.Points(pts), "Max", max)
	}
	return p.T("TourWinners", "Names", p.andList(names), "Points", render.Points(pts), "Max", max)
}

// tourGameReply words a NoticeTourGame: the game's first board in its
// place, saying which round of which tournament it is; with a To, a ping.
func (h *Handler) tourGameReply(p Speaker, n sessions.Notice) Reply {
	s := n.Session
	r := Reply{Lang: p.Lang, Tour: n.Tour}
	t := h.tourTime(n.Tour.Tournament)
	round, board := n.Tour.Round, 0
	if s.Record.Tour != nil {
		round, board = s.Record.Tour.Round, s.Record.Tour.Board+1
	}
	id := ""
	if t != nil {
		id = t.ID
	}
	if !n.To.IsZero() {
		if where := p.place(n.Key); where != "" {
			r.Lines = append(r.Lines, p.T("TourGamePingAt", "Name", n.To.Name, "ID", id, "Round", round, "Players", p.players(s), "Where", where))
		} else {
			r.Lines = append(r.Lines, p.T("TourGamePing", "Name", n.To.Name, "ID", id, "Round", round, "Players", p.players(s)))
		}
		return r
	}
	r.Session = s
	r.Lines = append(r.Lines, p.T("TourGameOpened", "ID", id, "Round", round, "Board", board, "Game", p.gameTitle(s), "Players", p.players(s), "Terms", p.terms(s)))
	if st := p.status(s); st != "" {
		r.Lines = append(r.Lines, st)
		r.TurnLine = len(r.Lines)
	}
	r.Picture = picture(s, sessions.User{})
	r.Buttons = p.gameButtons()
	return r
}

// tourError words the errors of the tournament commands; ok is false for
// the other kinds. t, when known, is the tournament the command met.
func (p Speaker) tourError(cmd string, err error, kind error, t *sessions.Tournament) (string, bool) {
	switch kind {
	case sessions.ErrNoTournament:
		if cmd == "tournament show" {
			return p.T("RefusedNoSuchTournament"), true
		}
		return p.T("RefusedNoTournament"), true
	case sessions.ErrTournamentOpen:
		return p.T("RefusedTournamentOpen"), true
	case sessions.ErrNotOrganiser:
		return p.T("RefusedNotOrganiser"), true
	case sessions.ErrNotEntered:
		return p.T("RefusedNotEntered"), true
	case sessions.ErrWithdrawn:
		return p.T("RefusedTourWithdrawn"), true
	case sessions.ErrNoRoundLeft:
		if t != nil {
			return p.T("RefusedNoRoundLeft", "ID", t.ID, "Round", len(t.Played), "Rounds", t.Rounds), true
		}
		return p.T("RefusedNoRoundLeftShort"), true
	case sessions.ErrPlayerCount:
		var bc *sessions.BadCount
		switch {
		case errors.As(err, &bc) && bc.Max > 0:
			return p.T("RefusedPlayerCountRange", "Count", bc.Players, "Min", bc.Min, "Max", bc.Max), true
		case errors.As(err, &bc):
			return p.T("RefusedPlayerCount", "Count", bc.Players, "Min", bc.Min), true
		}
		return p.T("RefusedPlayerCountUnknown"), true
	case sessions.ErrSignupClosed:
		if cmd == "tournament join" {
			return p.T("RefusedSignupClosedJoin"), true
		}
		return p.T("RefusedSignupClosed"), true
	case sessions.ErrNoPlaces:
		var nv *sessions.NoPlaces
		problem := sessions.PlaceNone
		if errors.As(err, &nv) {
			problem = nv.Problem
		}
		switch problem {
		case sessions.PlaceNotForum:
			return p.T("RefusedVenuesNotForum"), true
		case sessions.PlaceNoRights:
			return p.T("RefusedVenuesMissing", "Right", p.placeRight(nv)), true
		case sessions.PlaceUnreachable:
			return p.T("RefusedVenuesUnreachable"), true
		case sessions.PlaceAnnouncements:
			return p.T("RefusedVenuesAnnouncements"), true
		}
		return p.T("RefusedVenuesNone"), true
	}
	if !strings.HasPrefix(cmd, "tournament") {
		return "", false
	}
	// Kinds that mean something else for a game.
	switch kind {
	case sessions.ErrAlreadyJoined:
		return p.T("RefusedTourJoined"), true
	case sessions.ErrNotPlayer:
		return p.T("RefusedTourNotPlayer"), true
	}
	return "", false
}

// placeRights are the catalogue's words for the rights the bot may lack to
// open the games' places (sessions.PlaceRight).
var placeRights = map[sessions.PlaceRight]string{
	sessions.RightManageTopics:  "VenueRightManageTopics",
	sessions.RightCreateThreads: "VenueRightCreateThreads",
	sessions.RightThreadsSend:   "VenueRightThreadsSend",
	sessions.RightCreatePosts:   "VenueRightCreatePosts",
}

// placeRight words the right a refusal names (one platform's: the
// adapter said which), or the rights in general when it names none.
func (p Speaker) placeRight(nv *sessions.NoPlaces) string {
	if nv != nil {
		if id, ok := placeRights[nv.Right]; ok {
			return p.T(id)
		}
	}
	return p.T("VenueRightUnknown")
}
