package web

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/boardgamebot/bot/chat"
	"github.com/boardgamebot/bot/sessions"
)

// viewerOf is who a request's page shows the game to.
func (s *Server) viewerOf(r *http.Request, t Token, snap *sessions.Snapshot) viewer {
	v := viewer{user: t.User, play: t.Scope == ScopePlay || (t.Scope == ScopeStream && !t.User.IsZero()), lang: s.pageLang(r, t)}
	if snap != nil {
		v.seat = seatOf(snap, t.User)
	}
	return v
}

// pageLang is the language a page asked in (lang=, one of the
// catalogues'), else the token's user's (langOf).
func (s *Server) pageLang(r *http.Request, t Token) string {
	if l := r.URL.Query().Get("lang"); s.chat.Catalogues().Has(l) {
		return l
	}
	return s.langOf(r, t.User, t.Key.Platform, "")
}

// event implements source: the game's state as v sees it, as an event of
// the stream.
func (s *Server) event(snap *sessions.Snapshot, v viewer) []byte {
	var st State
	if snap == nil {
		st = goneState(s.say(v.lang, "WebGone"))
	} else {
		st = buildState(snap, v, s.chat, s.now())
		noBidiState(&st)
	}
	b, err := json.Marshal(st)
	if err != nil {
		s.log.Error("web: encoding a state", "err", err)
		return []byte(": state lost\n\n")
	}
	out := make([]byte, 0, len(b)+32)
	out = append(out, "event: state\ndata: "...)
	out = append(out, b...)
	return append(out, "\n\n"...)
}

// writeJSON answers v as JSON with status.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// refuse answers a refused API request: its status and one line saying
// why, in lang.
func (s *Server) refuse(w http.ResponseWriter, f *failure, lang string) {
	writeJSON(w, f.status, map[string]any{"ok": false, "error": s.say(lang, f.msg)})
}

// checked checks a request's token for the game of its path (see
// check), and answers the refusal when it does not check out: ok false.
// lang is the page's language.
func (s *Server) checked(w http.ResponseWriter, r *http.Request, play bool) (t Token, lang string, ok bool) {
	t, f := s.check(r, r.PathValue("ref"), play)
	lang = s.pageLang(r, t)
	if f != nil {
		s.refuse(w, f, lang)
		return t, lang, false
	}
	return t, lang, true
}

// finished returns the finished game of a request for its files (its
// frames, its record), or answers why not: ok false.
func (s *Server) finished(w http.ResponseWriter, r *http.Request) (t Token, snap *sessions.Snapshot, lang string, ok bool) {
	t, lang, ok = s.checked(w, r, false)
	if !ok {
		return t, nil, lang, false
	}
	snap, err := s.game(r.Context(), t)
	if err != nil || snap.Record.Result == nil || snap.Record.ID == "" {
		s.refuse(w, &failure{http.StatusNotFound, "WebGone"}, lang)
		return t, nil, lang, false
	}
	return t, snap, lang, true
}

// getState answers the game's state as the token's page sees it.
func (s *Server) getState(w http.ResponseWriter, r *http.Request) {
	t, _, ok := s.checked(w, r, false)
	if !ok {
		return
	}
	snap, err := s.game(r.Context(), t)
	v := s.viewerOf(r, t, snap)
	switch {
	case errors.Is(err, errGone):
		writeJSONGzip(w, r, http.StatusOK, goneState(s.say(v.lang, "WebGone")))
		return
	case err != nil:
		s.refuse(w, &failure{http.StatusServiceUnavailable, "RefusedUnexpected"}, v.lang)
		return
	case snap.Record.Result != nil && snap.Record.ID != "":
		// A finished game's state no longer changes: made once for
		// each way of seeing it.
		b := s.cache.get("state\x00"+snap.Record.ID+"\x00"+strconv.Itoa(snap.Record.Version)+"\x00"+v.key(), s.now(), func() (any, int, time.Duration) {
			st := buildState(snap, v, s.chat, s.now())
			noBidiState(&st)
			b, err := json.Marshal(st)
			if err != nil {
				return []byte(nil), 0, 0
			}
			b = append(b, '\n')
			return b, len(b), finishedKeep
		}).([]byte)
		writeGzip(w, r, http.StatusOK, "application/json; charset=utf-8", b) // shared: only read
		return
	}
	st := buildState(snap, v, s.chat, s.now())
	noBidiState(&st)
	writeJSONGzip(w, r, http.StatusOK, st)
}

// events serves the game's live stream to a page: its state now, then at
// every change (Server-Sent Events).
func (s *Server) events(w http.ResponseWriter, r *http.Request) {
	t, lang, ok := s.checked(w, r, false)
	if !ok {
		return
	}
	snap, err := s.game(r.Context(), t)
	if err != nil && !errors.Is(err, errGone) {
		s.refuse(w, &failure{http.StatusServiceUnavailable, "RefusedUnexpected"}, lang)
		return
	}
	v := s.viewerOf(r, t, snap)
	player := ownLink(t) && snap != nil && len(snap.Record.SeatsOf(t.User)) > 0
	sb, err := s.hub.admit(t.Ref(), addrGroup(clientAddr(r, s.proxies)), v, player)
	if r.URL.Query().Get("probe") != "" {
		// The page asks whether a stream would be taken now (after one
		// was refused, EventSource cannot tell why).
		if err == nil {
			s.hub.unadmit(sb)
			w.WriteHeader(http.StatusNoContent)
			return
		}
	}
	if err != nil {
		// The page tries again after Retry-After, and meanwhile its
		// actions still work.
		w.Header().Set("Retry-After", retryAfter(streamRetry))
		s.refuse(w, &failure{http.StatusTooManyRequests, "WebBusy"}, lang)
		return
	}
	st, err := hijack(w)
	var ws *writerStream
	if err != nil {
		ws = newWriterStream(w) // the connection stays the server's (HTTP/2)
		st = ws
	}
	if err := s.hub.watch(sb, t.Key, t.Created, snap, st); err != nil {
		st.close()
		return
	}
	if ws != nil {
		ws.wait(r.Context())
	}
}

// getFrames answers the positions of a finished game, to step through.
func (s *Server) getFrames(w http.ResponseWriter, r *http.Request) {
	_, snap, lang, ok := s.finished(w, r)
	if !ok {
		return
	}
	// The frames of a game version are computed once (the cache holds a
	// value: each answer adds the review to its own copy).
	v := s.cache.get("frames\x00"+snap.Record.ID+"\x00"+strconv.Itoa(snap.Record.Version), s.now(), func() (any, int, time.Duration) {
		fr, err := frames(s.svc, snap.Record)
		if err != nil {
			return nil, 0, 0
		}
		b, err := json.Marshal(fr)
		if err != nil {
			return nil, 0, 0
		}
		return fr, len(b), finishedKeep
	})
	fr, ok := v.(Frames)
	if !ok {
		s.refuse(w, &failure{http.StatusInternalServerError, "RefusedUnexpected"}, lang)
		return
	}
	fr.Review = s.reviewOf(r, snap)
	w.Header().Set("Cache-Control", "private, max-age=3600")
	writeJSONGzip(w, r, http.StatusOK, fr)
}

// boardPicture answers the board's picture (the pages' og:image).
func (s *Server) boardPicture(w http.ResponseWriter, r *http.Request) {
	t, f := s.check(r, r.PathValue("ref"), false)
	if f != nil {
		http.Error(w, http.StatusText(f.status), f.status)
		return
	}
	snap, err := s.game(r.Context(), t)
	if err != nil || snap.State == nil {
		http.NotFound(w, r)
		return
	}
	seat := seatOf(snap, t.User)
	key := fmt.Sprintf("picture\x00%s\x00%d\x00%t\x00%d", t.Ref(), snap.Record.Version, snap.Record.Result != nil, seat)
	png, _ := s.cache.get(key, s.now(), func() (any, int, time.Duration) {
		v := snap.State.View()
		if snap.Record.Result != nil {
			v.Turn, v.Movable = -1, nil
		}
		o := s.picture
		o.Numbers = v.Numbers != nil
		png, err := s.r.PNG(v, snap.Last, seat, o)
		if err != nil {
			s.log.Error("web: drawing a board", snap.Record.Key.LogAttr(), "game", snap.Record.Game, "err", err)
			return nil, 0, 0
		}
		return png, len(png), finishedKeep
	}).([]byte)
	if png == nil {
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "image/png")
	w.Header().Set("Cache-Control", "private, max-age=60")
	_, _ = w.Write(png)
}

// record answers a finished game's record (PDN or the move list) as a
// file, as /export gives it.
func (s *Server) record(w http.ResponseWriter, r *http.Request) {
	t, snap, lang, ok := s.finished(w, r)
	if !ok {
		return
	}
	rep := s.chat.Handle(r.Context(), chat.Message{Key: t.Key, User: t.User, Text: "/export " + snap.Record.ID, Lang: lang})
	if rep.Document == nil {
		writeJSON(w, http.StatusNotFound, map[string]any{"ok": false, "error": rep.Text()})
		return
	}
	w.Header().Set("Content-Type", rep.Document.MIME+"; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="`+rep.Document.Name+`"`)
	_, _ = w.Write(rep.Document.Data)
}

// actions are the commands a page may send, by the last part of its path.
var actions = map[string]string{"move": "/move", "draw": "/draw", "resign": "/resign", "takeback": "/takeback",
	"accept": "/accept", "decline": "/decline", "setup": "/setup default", "huff": "/huff"}

// argRe is what a move or a square sent by a page may hold: a move's
// notation, never a space or a second command.
var argRe = regexp.MustCompile(`^[A-Za-z0-9;:^x+-]{1,64}$`)

// idRe is a request id a page makes for each action: the same id sent
// twice (a tap repeated, a retry) applies once.
var idRe = regexp.MustCompile(`^[A-Za-z0-9_-]{8,64}$`)

// actRequest is the body of an action.
type actRequest struct {
	// ID is the action's id, made by the page.
	ID string `json:"id"`
	// Arg is the move (move) or the square (huff).
	Arg string `json:"arg"`
}

// act runs one action of a page: as the chat command of the token's user
// in the game's place, through the chat handler (its checks, limits and
// refusals), with the page's request id (a repeat applies once). The
// pages watching the game get its change from the hub.
func (s *Server) act(w http.ResponseWriter, r *http.Request) {
	t, lang, ok := s.checked(w, r, true)
	if !ok {
		return
	}
	cmd, ok := actions[r.PathValue("action")]
	if !ok {
		http.NotFound(w, r)
		return
	}
	var body actRequest
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxBody))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&body); err != nil || !idRe.MatchString(body.ID) {
		writeJSON(w, http.StatusBadRequest, map[string]any{"ok": false, "error": s.say(lang, "RefusedUnexpected")})
		return
	}
	needArg := cmd == "/move" || cmd == "/huff"
	if needArg && !argRe.MatchString(body.Arg) || !needArg && body.Arg != "" {
		writeJSON(w, http.StatusBadRequest, map[string]any{"ok": false, "error": s.say(lang, "RefusedUnexpected")})
		return
	}
	snap, err := s.game(r.Context(), t)
	switch {
	case errors.Is(err, errGone):
		s.refuse(w, &failure{http.StatusGone, "WebGone"}, lang)
		return
	case err != nil:
		s.refuse(w, &failure{http.StatusServiceUnavailable, "RefusedUnexpected"}, lang)
		return
	case snap.Record.Result != nil:
		s.refuse(w, &failure{http.StatusConflict, "RefusedNoGame"}, lang)
		return
	}
	text := cmd
	if needArg {
		text += " " + body.Arg
	}
	rep := s.chat.Handle(r.Context(), chat.Message{Key: t.Key, User: t.User, Text: text, ID: "web:" + body.ID, Lang: lang, Elsewhere: true, Game: t.Created})
	switch {
	case rep.Dropped:
		// The user's rate limit, told once already: the page says why
		// nothing happened.
		s.refuse(w, &failure{http.StatusTooManyRequests, "WebDropped"}, lang)
	case rep.Duplicate:
		writeJSON(w, http.StatusOK, map[string]any{"ok": true, "duplicate": true})
	case rep.Error:
		writeJSON(w, http.StatusUnprocessableEntity, map[string]any{"ok": false, "error": strings.Join(rep.Lines, " ")})
	default:
		writeJSON(w, http.StatusOK, map[string]any{"ok": true, "lines": rep.Lines})
	}
}
