package web

import (
	"bytes"
	"encoding/json"
	"errors"
	"html/template"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/boardgamebot/bot/sessions"
)

// pageData fills the board page's template.
type pageData struct {
	Lang, Title, Description, Image string
	Ref, Mode, Words, Error         string
	MiniApp                         bool
	Tournament, TournamentLabel     string
	// The page's fixed words.
	BoardLabel, Watching, First, Back, Autoplay, Forward, Last, Download, Moves string
	words                                                                       map[string]string

	// The first state, drawn in the page (none before a Mini App's
	// sign-in): the board's box, its squares, the panel's lines, and the
	// state itself for the script (State, a JSON script element).
	ViewBox, Layout string
	Board, State    template.HTML
	Status, Clock   string
	Notes           []string
	History         []pagePlayed
	ShowWatching    bool
}

// pagePlayed is a move of the page's move list: its text, its player.
type pagePlayed struct {
	Ply         int
	Text, Title string
}

// newPage starts the data of a board page in lang.
func (s *Server) newPage(lang string) pageData {
	words := s.chat.PageWords(lang)
	js, _ := json.Marshal(words)
	return pageData{words: words, Lang: lang, Words: string(js), Title: s.say(lang, "ButtonOpenBoard"), BoardLabel: words["WebBoardLabel"],
		Watching: words["WebWatching"], First: words["WebFirst"], Back: words["WebBack"], Autoplay: words["WebAutoplay"],
		Forward: words["WebForward"], Last: words["WebLast"], Download: words["WebDownload"], Moves: words["WebMoves"],
		TournamentLabel: words["WebTournamentPage"]}
}

// writePage answers the board page.
func (s *Server) writePage(w http.ResponseWriter, r *http.Request, status int, d pageData) {
	var b bytes.Buffer
	if err := s.assets.page.Execute(&b, d); err != nil {
		s.log.Error("web: the page's template", "err", err)
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	if d.MiniApp {
		w.Header().Set("Content-Security-Policy", csp(true))
	}
	writeHTML(w, r, status, b.Bytes())
}

// boardPage answers a link to a game: the board page, to play or to
// watch it; a link that does not check out gets a page saying why. A
// link's token rides in its fragment (#t=), which the browser keeps: the
// request then has none, and the page is the board's empty page, whose
// script sends the token in a header (an old link's ?t= still works).
func (s *Server) boardPage(w http.ResponseWriter, r *http.Request) {
	ref := r.PathValue("ref")
	// A play link whose fragment became a query (#t= written ?t=, as an
	// old link had it) reads ?v=<view>?t=<token>: its token is the page's.
	view, old, _ := strings.Cut(r.URL.Query().Get("v"), "?t=")
	if old != "" {
		view = old
	}
	if tokenOf(r) == "" && view != "" {
		// The link's view token (a watch token, Links.page): the server
		// draws the game as its watchers see it, and the page's own
		// token, in the fragment, takes over in the script.
		r = r.Clone(r.Context())
		r.Header.Set(tokenHeader, view)
	}
	if tokenOf(r) == "" {
		d := s.newPage(s.langOf(r, sessions.User{}, "", ""))
		d.Ref = ref
		s.writePage(w, r, http.StatusOK, d)
		return
	}
	t, f := s.check(r, ref, false)
	lang := s.pageLang(r, t)
	d := s.newPage(lang)
	d.Ref = ref
	if f != nil {
		d.Error = s.say(lang, f.msg)
		s.writePage(w, r, f.status, d)
		return
	}
	d.Mode = "watch"
	if t.Scope == ScopePlay {
		d.Mode = "play"
	}
	viewed := t // the token the page is drawn for
	snap, err := s.game(r.Context(), t)
	switch {
	case errors.Is(err, errGone):
		d.Error = s.say(lang, "WebGone")
		s.writePage(w, r, http.StatusGone, d)
		return
	case err != nil:
		d.Error = s.say(lang, "RefusedUnexpected")
		s.writePage(w, r, http.StatusServiceUnavailable, d)
		return
	}
	bw := s.chat.BoardWords(lang, snap, t.User, s.now())
	d.Title, d.Description = noBidi(bw.Title), noBidi(bw.Players)
	if viewed.Scope == ScopeWatch && !viewed.User.IsZero() && len(snap.Record.SeatsOf(viewed.User)) > 0 {
		// A player's view token (Links.page): the page is drawn as their
		// page to play, and their play token, in the fragment, acts.
		viewed.Scope, d.Mode = ScopePlay, "play"
	}
	first := buildState(snap, s.viewerOf(r, viewed, snap), s.chat, s.now())
	noBidiState(&first)
	d.first(first)
	if snap.State != nil {
		watch := Token{Scope: ScopeWatch, Key: t.Key, Created: t.Created, Expires: t.Expires}
		d.Image = s.links.Base() + "/g/" + ref + "/board.png?t=" + s.signer.Sign(watch)
	}
	if tr := snap.Record.Tour; tr != nil {
		if ev, err := s.svc.TournamentByID(r.Context(), t.Key.Platform, tr.ID); err == nil && ev.Tournament != nil {
			d.Tournament = s.links.TournamentUntil(ev.Tournament, t.Expires)
		}
	}
	s.writePage(w, r, http.StatusOK, d)
}

// miniAppPage answers the Telegram Mini App's entry: the board page,
// which signs in with Telegram's launch data first (POST /tg/login).
func (s *Server) miniAppPage(w http.ResponseWriter, r *http.Request) {
	d := s.newPage(s.langOf(r, sessions.User{}, "", ""))
	d.Mode, d.MiniApp = "tg", true
	s.writePage(w, r, http.StatusOK, d)
}

// home answers the server's root: the board is reached by links only.
func (s *Server) home(w http.ResponseWriter, r *http.Request) {
	lang := s.langOf(r, sessions.User{}, "", "")
	d := s.newPage(lang)
	d.Error = s.say(lang, "WebNoToken")
	s.writePage(w, r, http.StatusNotFound, d)
}

// first puts the state st in the page: the board drawn as the script
// draws it, the panel's lines as the script writes them, and st itself,
// so that the script starts from it without asking for it.
func (d *pageData) first(st State) {
	js, err := json.Marshal(st) // escapes <, > and &: it cannot end the script element
	if err != nil {
		return
	}
	d.State = template.HTML(`<script type="application/json" id="state">` + string(js) + `</script>`)
	d.Status, d.Notes = st.Words.Status, st.Words.Notes
	d.ShowWatching = d.Mode != "play" && st.Phase != "finished"
	for i, m := range st.History {
		title := ""
		if m.Seat >= 0 && m.Seat < len(st.Seats) {
			title = st.Seats[m.Seat].Label
		}
		d.History = append(d.History, pagePlayed{Ply: i + 1, Text: m.Text, Title: title})
	}
	if !st.Deadline.IsZero() && st.Phase != "finished" {
		d.Clock = clockText(st.Deadline.Sub(st.Now))
	}
	if len(st.Rows) == 0 {
		return
	}
	d.ViewBox, d.Layout = boardBox(st.Rows)
	var b bytes.Buffer
	drawBoard(&b, firstView(st, d.words))
	d.Board = template.HTML(b.String())
}

// clockText is board.js's renderClock's text of the time left.
func clockText(left time.Duration) string {
	s := int(max(left, 0) / time.Second)
	h, m := s/3600, s%3600/60
	sec := strconv.Itoa(s % 60)
	if len(sec) < 2 {
		sec = "0" + sec
	}
	if h > 0 {
		mm := strconv.Itoa(m)
		if len(mm) < 2 {
			mm = "0" + mm
		}
		return strconv.Itoa(h) + ":" + mm + ":" + sec
	}
	return strconv.Itoa(m) + ":" + sec
}
