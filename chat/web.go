package chat

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/boardgamebot/bot/render"
	"github.com/boardgamebot/bot/sessions"
)

// WebLinks makes the links of the web board; adapters/web's Links
// implements it.
type WebLinks interface {
	// Board returns the links to the game of s for user u: their own link
	// to play when they hold a seat, and the game's watch page.
	Board(s *sessions.Snapshot, u sessions.User) WebBoard
	// Tournament returns the link to the page of tournament t.
	Tournament(t *sessions.Tournament) string
}

// WebBoard is the web board of one game for one user, as links.
type WebBoard struct {
	// Play is the user's own link, which plays the game as them; empty
	// when they hold no seat. PlayFor is how long it works.
	Play    string
	PlayFor time.Duration
	// Watch is the game's watch page (anyone may open it).
	Watch string
	// App is the URL of the Telegram Mini App on this game (a web_app
	// button's), and Start the Mini App's start parameter naming the game
	// (its direct link's ?startapp=); AppMenu is the Mini App's URL that
	// opens the user's game in their private chat with the bot (the
	// chat's menu button). Empty off Telegram.
	App     string
	Start   string
	AppMenu string
}

// web answers /web: the user's own link to the game here on the web
// board (a watch link for those who do not play), or, where no game is
// played but a tournament is, the tournament's page, else the page of
// the last game finished here. /web revoke ends every link the user was
// given.
func (h *Handler) web(ctx context.Context, m Message, args []string) Reply {
	if h.links == nil {
		return fail(m.sp.T("WebOff"))
	}
	if len(args) > 0 {
		if !strings.EqualFold(args[0], "revoke") {
			return fail(m.sp.T("TakesLess", "Name", "web", "Usage", m.sp.T("CmdUsage_web")))
		}
		if _, err := h.svc.RevokeLinks(ctx, m.Key.Platform, m.User); err != nil {
			return h.errorReply("web", m, err)
		}
		return Reply{Lines: []string{m.sp.T("WebRevoked")}}
	}
	s, err := h.svc.Look(ctx, m.Key)
	if errors.Is(err, sessions.ErrNoGame) {
		if ev, terr := h.svc.TournamentHere(ctx, m.Key); terr == nil && ev.Tournament != nil {
			return Reply{Lines: []string{m.sp.T("WebLinkTournament", "ID", ev.Tournament.ID, "URL", h.links.Tournament(ev.Tournament))}}
		}
		// The last game finished here: its page, to watch it again.
		if recs, herr := h.svc.History(ctx, sessions.HistoryQuery{Key: m.Key, Limit: 1}); herr == nil && len(recs) == 1 {
			if last, rerr := h.svc.Replay(recs[0]); rerr == nil {
				b := h.links.Board(last, m.User)
				return Reply{Lines: []string{m.sp.T("WebLinkFinished", "ID", last.Record.ID, "URL", b.Watch)}}
			}
		}
	}
	if err != nil {
		return h.errorReply("web", m, err)
	}
	b := h.links.Board(s, m.User)
	r := Reply{Web: &b, Session: s}
	if b.Play != "" {
		r.Lines = []string{m.sp.T("WebLinkPlay", "URL", b.Play, "Hours", int(b.PlayFor/time.Hour))}
	} else {
		r.Lines = []string{m.sp.T("WebLinkWatch", "URL", b.Watch)}
	}
	return r
}

// BoardWords is what the web board says of a session, in one language.
type BoardWords struct {
	// Lang is the language of the words.
	Lang string
	// Title names the game with its options; Players the seats' players.
	Title   string
	Players string
	// Seats labels each seat ("White", "Player 2, blue").
	Seats []string
	// Status says whose turn it is, who sets up, who may accept the
	// challenge, or how the game ended.
	Status string
	// Notes are the offers on the table and the clock, one line each.
	Notes []string
	// Last says the last move ("alice (White) played c3-d4."), "" before
	// the first: the page announces it to screen readers.
	Last string
}

// BoardWords words the session s for the web board in lang, as viewer
// reads it (the challenge's "you"); now is for the clock.
func (h *Handler) BoardWords(lang string, s *sessions.Snapshot, viewer sessions.User, now time.Time) BoardWords {
	p := h.words.In(lang)
	w := BoardWords{Lang: p.Lang, Title: p.gameTitle(s), Players: p.players(s)}
	for seat := range s.Record.Seats {
		w.Seats = append(w.Seats, p.seatLabel(s, seat))
	}
	if acts := s.Record.Actions; s.Last != nil {
		for i := len(acts) - 1; i >= 0; i-- {
			if acts[i].Kind == sessions.ActMove {
				w.Last = p.T("EventMoved", "Player", p.player(s, acts[i].Seat), "Move", s.Last.Text)
				break
			}
		}
	}
	switch {
	case s.Record.Result != nil:
		w.Status = p.resultLine(s)
		if l := p.ratingLine(s); l != "" {
			w.Notes = append(w.Notes, l)
		}
		return w
	case s.Phase() == sessions.PhaseChallenge:
		w.Status = p.T("ChallengeWaiting", "Name", s.Record.Challenger.Name, "Game", w.Title, "Terms", p.terms(s), "Who", p.waitingFor(s, viewer))
		return w
	}
	switch t := s.Turn(); {
	case len(s.Pending()) > 0:
		var names []string
		for _, seat := range s.Pending() {
			names = append(names, p.player(s, seat))
		}
		w.Status = p.T("WebSetupStep", "Players", p.andList(names))
	case t >= 0 && s.Player(t).Computer:
		w.Status = p.T("Thinking", "Player", p.player(s, t))
	case t >= 0:
		w.Status = p.T("WebToMove", "Player", p.player(s, t))
	}
	if offer := s.Record.DrawOffer; len(offer) > 0 {
		var names []string
		for _, seat := range offer {
			names = append(names, p.player(s, seat))
		}
		w.Notes = append(w.Notes, p.T("WebDrawOffered", "Players", p.andList(names), "Count", len(names)))
	}
	for _, seat := range s.Record.Takeback {
		w.Notes = append(w.Notes, p.T("WebTakebackAsked", "Player", p.player(s, seat)))
	}
	if l := p.clockLine(s, now); l != "" {
		w.Notes = append(w.Notes, l)
	}
	return w
}

// webPageWords are the catalogue messages the web board's page shows
// (buttons, labels, the words it puts together itself).
var webPageWords = []string{"WebFlip", "WebCopyFEN", "WebCopied", "WebDraw", "WebAccept", "WebDecline", "WebResign",
	"WebResignConfirm", "WebYesResign", "WebNoPlayOn", "WebTakeback", "WebFirst", "WebBack", "WebForward", "WebLast",
	"WebAutoplay", "WebPause", "WebDownload", "WebMoves", "WebWatching", "WebChoosePath", "WebPass",
	"WebDefaultFormation", "WebHuff", "WebReconnecting", "WebPieceMan", "WebPieceKing", "WebPieceLevel", "WebPiece",
	"WebEmpty", "WebBoardLabel", "WebTournamentPage", "WebBadLink", "WebFullscreen"}

// PageWords returns the words of the web board's page in lang, by
// message id; a placeholder stays in the text as {{.Name}}, for the page
// to fill.
func (h *Handler) PageWords(lang string) map[string]string {
	p := h.words.In(lang)
	out := map[string]string{}
	for _, id := range webPageWords {
		m, _ := p.find(id)
		var kv []any
		if m != nil {
			for _, name := range m.placeholders() {
				kv = append(kv, name, "{{."+name+"}}")
			}
		}
		out[id] = p.T(id, kv...)
	}
	return out
}

// StandingsTable is the standings of a tournament event as a table, its
// headings in lang (the web board's tournament page).
func (h *Handler) StandingsTable(lang string, ev sessions.TourEvent) render.StandingsTable {
	p := h.words.In(lang)
	heads := [6]string{p.T("TourColPlace"), p.T("TourColPlayer"), p.T("TourColPoints"), p.T("TourColBuchholz"), p.T("TourColSB"), p.T("TourColWins")}
	return render.StandingsTable{Title: p.T("WebTourTitle", "ID", ev.Tournament.ID, "Game", p.gameName(ev.Tournament.Game, ev.Tournament.Game)),
		Headings: heads, Rows: standingsRows(ev.Tournament, ev.Standings)}
}
