package web

import (
	"bytes"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/sessions/tournament"
)

// tourData fills the tournament page's template.
type tourData struct {
	Lang, Title, Error, Status string
	// Pending: the request carried no token (the link's is in its
	// fragment): the page's script asks again with it in a header.
	Pending                         bool
	StandingsLabel, CrosstableLabel string
	Headings                        [6]string
	Rows                            []tourRow
	Cross                           []crossRow
	Rounds                          []tourRound
}

type tourRow struct {
	Place                int
	Name                 string
	Points, Buchholz, SB string
	Wins                 int
}

// crossRow is one player's line of the crosstable: their number (their
// place in the standings), and their result against each player.
type crossRow struct {
	N      int
	Name   string
	Cells  []string
	Points string
}

type tourRound struct {
	Label string
	Games []tourGame
}

type tourGame struct {
	Text, Link string
}

// points writes half points as the standings do: "2½".
func points(p float64) string {
	whole := int(p)
	s := strconv.Itoa(whole)
	if p-float64(whole) >= 0.5 {
		if whole == 0 {
			return "½"
		}
		s += "½"
	}
	return s
}

// tournamentPage answers a tournament's page: the standings, the
// crosstable and every round's games, each linked to its watch page.
func (s *Server) tournamentPage(w http.ResponseWriter, r *http.Request) {
	t, f := s.check(r, r.PathValue("ref"), false)
	lang := s.pageLang(r, t)
	d := tourData{Lang: lang, Title: s.say(lang, "WebTournamentPage")}
	status := http.StatusOK
	if tokenOf(r) == "" {
		d.Pending, f = true, nil
	}
	if f == nil && t.Scope != ScopeTournament {
		f = &failure{http.StatusForbidden, "WebOtherGame"}
	}
	var ev sessions.TourEvent
	if f == nil && !d.Pending {
		var err error
		if ev, err = s.svc.TournamentByID(r.Context(), t.Key.Platform, t.Tournament); err != nil || ev.Tournament == nil {
			f = &failure{http.StatusNotFound, "WebGone"}
		}
	}
	switch {
	case d.Pending:
	case f != nil:
		d.Error, status = s.say(lang, f.msg), f.status
	default:
		s.fillTournament(r, &d, ev, t.Expires)
	}
	var b bytes.Buffer
	if err := s.assets.tour.Execute(&b, d); err != nil {
		s.log.Error("web: the tournament page's template", "err", err)
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	writeHTML(w, r, status, b.Bytes())
}

// fillTournament puts the tournament of ev on its page.
// Its games' links end when the page's link does, or before.
func (s *Server) fillTournament(r *http.Request, d *tourData, ev sessions.TourEvent, until time.Time) {
	lang, tour := d.Lang, ev.Tournament
	table := s.chat.StandingsTable(lang, ev)
	d.Title, d.Headings = table.Title, table.Headings
	d.StandingsLabel, d.CrosstableLabel = s.say(lang, "WebStandings"), s.say(lang, "WebCrosstable")
	d.Status = s.say(lang, "TourStatus"+map[sessions.TourStatus]string{sessions.StatusSignup: "Signup",
		sessions.StatusRunning: "Running", sessions.StatusFinished: "Finished", sessions.StatusCancelled: "Cancelled"}[tour.Status])
	number := map[string]int{} // user id -> number in the crosstable
	for i, st := range ev.Standings {
		number[st.Player] = i + 1
	}
	names := map[string]string{}
	for _, e := range tour.Players {
		names[e.User.ID] = noBidi(e.User.Name)
	}
	for _, row := range table.Rows {
		d.Rows = append(d.Rows, tourRow{Place: row.Place, Name: noBidi(row.Name), Points: points(row.Points), Buchholz: points(row.Buchholz),
			SB: strconv.FormatFloat(row.SonnebornBerger, 'f', -1, 64), Wins: row.Wins})
	}
	cells := make([][]string, len(ev.Standings))
	for i := range cells {
		cells[i] = make([]string, len(ev.Standings))
		cells[i][i] = "×"
	}
	for _, round := range tour.Played {
		rd := tourRound{Label: s.say(lang, "WebRound", "N", round.Number)}
		for _, g := range round.Games {
			rd.Games = append(rd.Games, s.tourGame(r, lang, tour, g, names, until))
			wi, bi := number[g.White]-1, number[g.Black]-1
			if wi < 0 || bi < 0 || g.Result == tournament.Pending || g.Result == tournament.Bye {
				continue
			}
			mine, theirs := results(g.Result)
			cells[wi][bi] = strings.TrimSpace(cells[wi][bi] + " " + mine)
			cells[bi][wi] = strings.TrimSpace(cells[bi][wi] + " " + theirs)
		}
		d.Rounds = append(d.Rounds, rd)
	}
	for i, st := range ev.Standings {
		d.Cross = append(d.Cross, crossRow{N: i + 1, Name: names[st.Player], Cells: cells[i], Points: points(st.Points)})
	}
}

// results are White's and Black's marks of a result in the crosstable.
func results(r tournament.Result) (white, black string) {
	switch r {
	case tournament.WhiteWins:
		return "1", "0"
	case tournament.BlackWins:
		return "0", "1"
	case tournament.Draw:
		return "½", "½"
	case tournament.WhiteByForfeit:
		return "+", "−"
	case tournament.BlackByForfeit:
		return "−", "+"
	}
	return "", ""
}

// tourGame is one pairing as the page lists it, linked to the game's
// watch page when it was played on the board.
func (s *Server) tourGame(r *http.Request, lang string, tour *sessions.Tournament, g sessions.TourGame, names map[string]string, until time.Time) tourGame {
	if g.Black == "" {
		return tourGame{Text: names[g.White] + ": " + s.say(lang, "WebBye")}
	}
	res := string(g.Result)
	if g.Result == tournament.Pending {
		res = s.say(lang, "WebUnderWay")
	}
	out := tourGame{Text: names[g.White] + " – " + names[g.Black] + ": " + res}
	var snap *sessions.Snapshot
	switch {
	case g.GameID != "":
		snap, _ = s.svc.Game(r.Context(), tour.Key.Platform, g.GameID)
	case g.Key != (sessions.Key{}):
		if cur, err := s.svc.Look(r.Context(), g.Key); err == nil && cur.Record.Tour != nil && cur.Record.Tour.ID == tour.ID {
			snap = cur
		}
	}
	if snap != nil {
		out.Link = s.links.WatchUntil(snap, until)
	}
	return out
}
