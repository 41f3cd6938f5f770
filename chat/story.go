package chat

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/boardgamebot/bot/render"
	"github.com/boardgamebot/bot/sessions"
)

// Figure is a picture of a player's story for the adapter to draw with
// render: a rating chart (/rating, /vs) or a player's card (/profile),
// its words already in the reply's language, and the file's name
// ("rating-alice-spanish.png").
type Figure struct {
	Chart *render.Chart
	Card  *render.Card
	Name  string
	// Review is a review's evaluation graph (/review); Summary is how
	// many of the reply's first lines sum it up (a caption's worth: the
	// header and the players' lines), the rest being the list of
	// mistakes.
	Review  *render.ReviewGraph
	Summary int
}

// PNG draws the figure with r in o's theme.
func (f *Figure) PNG(r *render.Renderer, o render.Options) ([]byte, error) {
	if f.Card != nil {
		return r.ProfileCard(*f.Card, o)
	}
	if f.Chart != nil {
		return r.RatingChart(*f.Chart, o)
	}
	if f.Review != nil {
		return r.ReviewChart(*f.Review, o)
	}
	return nil, fmt.Errorf("chat: a figure with nothing to draw")
}

// Global is the word after /top that asks for the platform's ladder
// where the community's is the default: the same in every language (the
// catalogues word it for people as WordGlobal).
const Global = "global"

// gameNamed is a game's name for people in p's language, from its id.
func (h *Handler) gameNamed(p Speaker, id string) string {
	for _, g := range h.games() {
		if g.ID == id {
			return p.gameName(id, g.Name)
		}
	}
	return id
}

// scope says whose ladder a /top or a place is: this server's, this
// group's, or the platform's.
func (p Speaker) scope(platform, community string) string {
	switch {
	case community == "":
		return p.T("WordGlobal")
	case platform == "discord":
		return p.T("ScopeServer")
	}
	return p.T("ScopeGroup")
}

// monthIDs are the catalogue's short names of the months.
var monthIDs = [12]string{"Month01", "Month02", "Month03", "Month04", "Month05", "Month06",
	"Month07", "Month08", "Month09", "Month10", "Month11", "Month12"}

// chartDate writes a date of a chart's time axis: "Nov 3", "Nov 2026".
func (p Speaker) chartDate(t time.Time, day bool) string {
	month := p.T(monthIDs[t.Month()-1])
	if day {
		return p.T("ChartDay", "Day", t.Day(), "Month", month)
	}
	return p.T("ChartMonth", "Month", month, "Year", t.Year())
}

// chartLine is a player's rating history as a chart's line.
func chartLine(name string, hist []sessions.RatedGame) render.ChartLine {
	l := render.ChartLine{Name: name, Start: sessions.StartRating}
	if len(hist) > 0 {
		l.Start = hist[0].Before
	}
	for _, g := range hist {
		l.Points = append(l.Points, render.ChartPoint{At: g.At, Rating: g.After})
	}
	return l
}

// chart is a rating chart of lines in the reader's words, this month
// (of now) marked.
func (p Speaker) chart(title string, stats []string, now time.Time, lines ...render.ChartLine) *render.Chart {
	now = now.UTC()
	return &render.Chart{Title: title, Stats: stats, Lines: lines,
		Month: time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, time.UTC), MonthLabel: p.T("ChartThisMonth"),
		PeakLabel: p.T("ChartPeak"), Date: p.chartDate}
}

// ratingFigure is the chart of /rating: who's rating in game after each
// rated game, with the peak, the rating now and the record st.
func (p Speaker) ratingFigure(who sessions.User, game, gameName string, hist []sessions.RatedGame, st *sessions.Standing, now time.Time) *Figure {
	if len(hist) == 0 {
		return nil
	}
	peak := hist[0].After
	for _, g := range hist {
		peak = max(peak, g.After)
	}
	stats := []string{p.T("ChartNow", "Rating", hist[len(hist)-1].After, "Peak", peak)}
	if st != nil {
		stats = append(stats, p.record(st))
	}
	c := p.chart(p.T("ChartTitle", "Name", who.Name, "Game", gameName), stats, now, chartLine(who.Name, hist))
	return &Figure{Chart: c, Name: fileSafe("rating-" + who.Name + "-" + game + ".png")}
}

// fileSafe keeps the letters, digits, '.', '-' and '_' of a file name.
func fileSafe(name string) string {
	return strings.Map(func(r rune) rune {
		if r < 128 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '-' || r == '_') {
			return r
		}
		return '_'
	}, name)
}

// ladderPlace writes a place on a ladder: "3 of 25", or a dash for none.
func (p Speaker) ladderPlace(place, of int) string {
	if place == 0 {
		return p.T("PlaceNone")
	}
	return p.T("PlaceOf", "Place", place, "Of", of)
}

// resultWord is the mark of a result: W, D, L in the reader's letters.
func (p Speaker) resultWord(score float64) string {
	switch score {
	case 1:
		return p.T("MarkWon")
	case 0:
		return p.T("MarkLost")
	}
	return p.T("MarkDrawn")
}

func (h *Handler) profile(ctx context.Context, m Message, args []string) Reply {
	who := m.User
	if len(args) == 1 {
		if !strings.HasPrefix(args[0], "@") {
			return fail(m.sp.T("ProfileNotUser", "Text", clip(args[0], 30)))
		}
		u, r := h.userArg(ctx, m, args[0])
		if r != nil {
			return *r
		}
		who = u
	}
	pr, err := h.svc.Profile(ctx, m.Key.Platform, m.Community, who)
	if err != nil {
		return h.errorReply("profile", m, err)
	}
	if len(pr.Ratings) == 0 {
		return Reply{Lines: []string{m.sp.T("NoRating", "Name", who.Name, "Start", sessions.StartRating, "Count", sessions.MinRatedMoves)}}
	}
	p := m.sp
	platform := platformName(m.Key.Platform)
	card := &render.Card{Name: who.Name, Subtitle: platform,
		Headings: [4]string{p.T("CardGame"), p.T("CardRating"), p.T("CardHere"), platform}}
	if m.Community != "" {
		card.Subtitle = p.T("CardSubtitle", "Platform", platform, "Where", p.scope(m.Key.Platform, m.Community))
	}
	out := Reply{Lines: []string{p.T("ProfileHeader", "Name", who.Name)}}
	for _, gr := range pr.Ratings {
		name := h.gameNamed(p, gr.Standing.Game)
		here, all := p.ladderPlace(gr.CommunityPlace, gr.CommunityPlayers), p.ladderPlace(gr.Place, gr.Players)
		card.Rows = append(card.Rows, render.CardRow{Game: name, Rating: gr.Standing.Rating, Here: here, All: all})
		if m.Community != "" {
			out.Lines = append(out.Lines, p.T("ProfileRatingHere", "Game", name, "Rating", gr.Standing.Rating, "Here", here, "All", all, "Platform", platform))
		} else {
			out.Lines = append(out.Lines, p.T("ProfileRating", "Game", name, "Rating", gr.Standing.Rating, "All", all, "Platform", platform))
		}
	}
	if m.Community == "" { // no community: no column for it
		card.Headings = [4]string{p.T("CardGame"), p.T("CardRating"), "", platform}
		for i := range card.Rows {
			card.Rows[i].Here = ""
		}
	}
	lines := []string{p.record(&sessions.Standing{Games: pr.Games, Won: pr.Won, Drawn: pr.Drawn, Lost: pr.Lost})}
	if s := pr.Streak; s.N > 0 {
		lines = append(lines, p.T(map[float64]string{1: "StreakWon", 0: "StreakLost", 0.5: "StreakDrawn"}[s.Score], "Count", s.N))
	}
	if b := pr.BestWin; b != nil {
		lines = append(lines, p.T("BestWin", "Name", b.Opponent.Name, "Rating", b.OpponentRating, "ID", b.GameID, "Game", h.gameNamed(p, b.Game)))
	}
	if pr.RivalGames > 0 {
		lines = append(lines, p.T("Rival", "Name", pr.Rival.Name, "Count", pr.RivalGames))
	}
	card.Lines = lines
	out.Lines = append(out.Lines, lines...)
	if len(pr.Last) > 0 {
		card.LastLabel = p.T("CardLast")
		var marks []string
		for _, g := range pr.Last {
			card.Last = append(card.Last, render.Mark{Score: g.Score, Letter: p.resultWord(g.Score)})
			marks = append(marks, p.resultWord(g.Score))
		}
		out.Lines = append(out.Lines, p.T("ProfileLast", "Marks", strings.Join(marks, " ")))
	}
	out.Figure = &Figure{Card: card, Name: fileSafe("profile-" + who.Name + ".png")}
	return out
}

func (h *Handler) vs(ctx context.Context, m Message, args []string) Reply {
	var other *sessions.User
	game := ""
	for _, a := range args {
		if strings.HasPrefix(a, "@") && other == nil {
			u, r := h.userArg(ctx, m, a)
			if r != nil {
				return *r
			}
			other = &u
			continue
		}
		id, ok := h.gameArg(a)
		if !ok || game != "" {
			return fail(m.sp.T("NotUserNorGame", "Text", clip(a, 30), "Name", "vs"))
		}
		game = id
	}
	p := m.sp
	if other == nil {
		return fail(p.T("VsWhom"))
	}
	if other.Is(m.User) {
		return fail(p.T("VsYourself"))
	}
	v, err := h.svc.Versus(ctx, m.Key.Platform, m.User, *other, game)
	if err != nil {
		return h.errorReply("vs", m, err)
	}
	a, b := m.User.Name, other.Name
	if len(v.Last) == 0 {
		if game != "" {
			return Reply{Lines: []string{p.T("VsNoneGame", "A", a, "B", b, "Game", h.gameNamed(p, game))}}
		}
		return Reply{Lines: []string{p.T("VsNone", "A", a, "B", b)}}
	}
	out := Reply{Lines: []string{p.T("VsHeader", "A", a, "B", b, "Count", v.Won+v.Drawn+v.Lost, "Won", v.Won, "Drawn", v.Drawn, "Lost", v.Lost)}}
	for _, g := range v.Games {
		out.Lines = append(out.Lines, p.T("VsGame", "Game", h.gameNamed(p, g.Game), "Count", g.Won+g.Drawn+g.Lost, "Won", g.Won, "Drawn", g.Drawn, "Lost", g.Lost))
	}
	out.Lines = append(out.Lines, p.T("VsLastHeader"))
	for _, g := range v.Last {
		outcome := p.T("VsDrawn")
		switch g.Score {
		case 1:
			outcome = p.T("VsWon", "Name", a)
		case 0:
			outcome = p.T("VsWon", "Name", b)
		}
		rated := p.T("Unrated")
		if g.Rated {
			rated = p.T("Rated")
		}
		out.Lines = append(out.Lines, p.T("VsLine", "ID", g.ID, "Date", g.Ended.Format("2006-01-02"), "Game", h.gameNamed(p, g.Game), "Outcome", outcome, "Rated", rated))
	}
	if len(v.LinesA) > 0 && len(v.LinesB) > 0 {
		var rec sessions.VersusRecord
		for _, g := range v.Games {
			if g.Game == v.Game {
				rec = g
			}
		}
		stats := []string{p.T("VsChartRecord", "A", a, "B", b, "Count", rec.Won+rec.Drawn+rec.Lost, "Won", rec.Won, "Drawn", rec.Drawn, "Lost", rec.Lost)}
		title := p.T("ChartTitle", "Name", p.T("Versus", "A", a, "B", b), "Game", h.gameNamed(p, v.Game))
		out.Figure = &Figure{Chart: p.chart(title, stats, h.svc.Now(), chartLine(a, v.LinesA), chartLine(b, v.LinesB)),
			Name: fileSafe("vs-" + a + "-" + b + "-" + v.Game + ".png")}
	}
	return out
}
