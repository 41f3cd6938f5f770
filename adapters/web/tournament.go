package web

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"html/template"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/sessions/tournament"
)

// tourData fills the tournament page's template.
type tourData struct {
	Lang, Title, Error, Status      string
	StandingsLabel, CrosstableLabel string
	// CrossNote says which results the crosstable counts; Image is the
	// standings picture (og:image), ImageAlt its description; Ref and
	// Token are the page's tournament and link, for its live stream.
	CrossNote, Image, ImageAlt, Ref, Token string
	// Version tells one drawing of the live part from another.
	Version  string
	Headings [6]string
	Rows     []tourRow
	Cross    []crossRow
	Rounds   []tourRound
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
	// Board is the game's position as a small picture (SVG), when the
	// game is on the board.
	Board template.HTML
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
	if view := r.URL.Query().Get("v"); tokenOf(r) == "" && view != "" {
		// The link's view token (Links.page): tournament pages only watch.
		r = r.Clone(r.Context())
		r.Header.Set(tokenHeader, view)
	}
	t, f := s.check(r, r.PathValue("ref"), false)
	lang := s.pageLang(r, t)
	d := tourData{Lang: lang, Title: s.say(lang, "WebTournamentPage")}
	status := http.StatusOK
	if f == nil && t.Scope != ScopeTournament {
		f = &failure{http.StatusForbidden, "WebOtherGame"}
	}
	var ev sessions.TourEvent
	if f == nil {
		var err error
		if ev, err = s.svc.TournamentByID(r.Context(), t.Key.Platform, t.Tournament); err != nil || ev.Tournament == nil {
			f = &failure{http.StatusNotFound, "WebGone"}
		}
	}
	if f != nil {
		d.Error, status = s.say(lang, f.msg), f.status
	} else {
		s.fillTournament(r, &d, ev, t.Expires)
		d.Ref, d.Token = r.PathValue("ref"), tokenOf(r)
		d.Image = s.links.Base() + "/t/" + d.Ref + "/standings.png?t=" + d.Token
		d.ImageAlt = s.say(lang, "WebStandingsPicture")
		d.Version = s.tourLive(d).v
	}
	var b bytes.Buffer
	if err := s.assets.tour.Execute(&b, d); err != nil {
		s.log.Error("web: the tournament page's template", "err", err)
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	writeHTML(w, r, status, b.Bytes())
}

// tourDrawing is the live part of a tournament's page, drawn, and its
// version (a hash of it).
type tourDrawing struct {
	v    string
	html string
}

func (s *Server) tourLive(d tourData) tourDrawing {
	var b bytes.Buffer
	if err := s.assets.tour.ExecuteTemplate(&b, "live", d); err != nil {
		s.log.Error("web: the tournament page's template", "err", err)
	}
	sum := sha256.Sum256(b.Bytes())
	return tourDrawing{v: hex.EncodeToString(sum[:8]), html: b.String()}
}

// tourPoll is how often a tournament's live page looks for a change.
const tourPoll = time.Second

// tournamentEvents serves a tournament page's live stream (Server-Sent
// Events, as a game's): the page's live part at once, then at every
// change (looked for every tourPoll), until the page goes.
func (s *Server) tournamentEvents(w http.ResponseWriter, r *http.Request) {
	t, f := s.check(r, r.PathValue("ref"), false)
	lang := s.pageLang(r, t)
	if f == nil && t.Scope != ScopeTournament {
		f = &failure{http.StatusForbidden, "WebOtherGame"}
	}
	if f != nil {
		s.refuse(w, f, lang)
		return
	}
	ws := newWriterStream(w)
	defer ws.close()
	tick := time.NewTicker(tourPoll)
	defer tick.Stop()
	sent, idle := "", 0
	for {
		ev, err := s.svc.TournamentByID(r.Context(), t.Key.Platform, t.Tournament)
		if err == nil && ev.Tournament != nil {
			d := tourData{Lang: lang}
			s.fillTournament(r, &d, ev, t.Expires)
			if dr := s.tourLive(d); dr.v != sent {
				js, _ := json.Marshal(map[string]string{"v": dr.v, "html": dr.html})
				if ws.write([]byte("event: tournament\ndata: "+string(js)+"\n\n"), time.Now().Add(s.hub.writeWithin)) != nil {
					return
				}
				sent, idle = dr.v, 0
			}
		}
		if idle++; idle*int(tourPoll) >= int(20*time.Second) {
			if ws.write([]byte(": alive\n\n"), time.Now().Add(s.hub.writeWithin)) != nil {
				return
			}
			idle = 0
		}
		select {
		case <-r.Context().Done():
			return
		case <-ws.done:
			return
		case <-tick.C:
		}
	}
}

// fillTournament puts the tournament of ev on its page.
// Its games' links end when the page's link does, or before.
func (s *Server) fillTournament(r *http.Request, d *tourData, ev sessions.TourEvent, until time.Time) {
	lang, tour := d.Lang, ev.Tournament
	table := s.chat.StandingsTable(lang, ev)
	d.Title, d.Headings = table.Title, table.Headings
	d.StandingsLabel, d.CrosstableLabel = s.say(lang, "WebStandings"), s.say(lang, "WebCrosstable")
	d.CrossNote = s.say(lang, "WebCrosstableNote")
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
		// The crosstable counts what the standings count: complete
		// rounds (its note says so).
		complete := true
		for _, g := range round.Games {
			if g.Result == tournament.Pending {
				complete = false
			}
		}
		for _, g := range round.Games {
			rd.Games = append(rd.Games, s.tourGame(r, lang, tour, g, names, until))
			wi, bi := number[g.White]-1, number[g.Black]-1
			if !complete || wi < 0 || bi < 0 || g.Result == tournament.Pending || g.Result == tournament.Bye {
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
		out.Board = miniBoard(snap)
	}
	return out
}

// standingsPicture answers a tournament's standings as the chat draws
// them (the page's og:image).
func (s *Server) standingsPicture(w http.ResponseWriter, r *http.Request) {
	t, f := s.check(r, r.PathValue("ref"), false)
	if f == nil && t.Scope != ScopeTournament {
		f = &failure{http.StatusForbidden, "WebOtherGame"}
	}
	if f != nil {
		http.Error(w, http.StatusText(f.status), f.status)
		return
	}
	ev, err := s.svc.TournamentByID(r.Context(), t.Key.Platform, t.Tournament)
	if err != nil || ev.Tournament == nil {
		http.NotFound(w, r)
		return
	}
	png, err := s.r.Standings(s.chat.StandingsTable(s.pageLang(r, t), ev), s.picture)
	if err != nil {
		s.log.Error("web: drawing the standings", "err", err)
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "image/png")
	w.Header().Set("Cache-Control", "private, max-age=60")
	_, _ = w.Write(png)
}
