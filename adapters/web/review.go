package web

import (
	"encoding/json"
	"errors"
	"math"
	"net/http"

	"github.com/boardgamebot/bot/chat"
	"github.com/boardgamebot/bot/rules"
	"github.com/boardgamebot/bot/rules/ai"
	"github.com/boardgamebot/bot/sessions"
)

// Review is a finished game's stored review as the page draws it (its
// graph, the marks of its move list, the better moves' arrows): nil in
// Frames while the game has none.
type Review struct {
	// Plies are the review's plies, Plies[i] the move History[i].
	Plies []ReviewPly `json:"plies"`
	// Accuracy is each seat's accuracy, from 0 to 100.
	Accuracy []float64 `json:"accuracy"`
}

// ReviewPly is one ply of a review: who played it, each seat's winning
// chances after it (0 to 1), the evaluation after it from the first
// seat's side (in the engine's units), and for a marked move its mark
// ("?!", "?", "??"), the engine's better move (its squares, for the
// arrow) and the legal moves of the position before it (for "find the
// better move").
type ReviewPly struct {
	Seat    int       `json:"seat"`
	Chances []float64 `json:"c"`
	Eval    int       `json:"e"`
	Mark    string    `json:"mark,omitempty"`
	Best    *Move     `json:"best,omitempty"`
	Moves   []Move    `json:"moves,omitempty"`
}

// TryAnswer is the answer to a move tried at a marked ply (POST
// /g/{ref}/better): accepted when the engine scores it within the
// inaccuracy threshold of its best; the mover's winning chances (0 to
// 100) after it and with the engine's best move.
type TryAnswer struct {
	OK       bool    `json:"ok"`
	Accepted bool    `json:"accepted"`
	Chances  float64 `json:"chances"`
	Best     float64 `json:"best"`
	Line     string  `json:"line"`
}

// reviewOf is the stored review of the finished game snap as the page
// draws it, nil when it has none (or it does not fit the game's moves).
func (s *Server) reviewOf(r *http.Request, snap *sessions.Snapshot) *Review {
	rec, err := s.svc.StoredReview(r.Context(), snap.Record.ID)
	if err != nil || rec == nil {
		return nil
	}
	positions, played, err := s.svc.ReviewPositions(snap.Record)
	if err != nil || len(positions) != len(rec.Review.Plies) {
		return nil
	}
	out := &Review{Plies: make([]ReviewPly, 0, len(rec.Review.Plies))}
	for _, sr := range rec.Review.Seats {
		out.Accuracy = append(out.Accuracy, math.Round(sr.Accuracy*10)/10)
	}
	for i, p := range rec.Review.Plies {
		rp := ReviewPly{Seat: p.Seat, Eval: p.Eval, Mark: p.Mark.String(), Chances: make([]float64, len(p.Chances))}
		for j, c := range p.Chances {
			rp.Chances[j] = math.Round(c*1000) / 1000
		}
		if p.Mark != ai.MarkNone {
			for _, m := range positions[i].Moves() {
				mv := move(m)
				if m.Text == p.Best {
					rp.Best = &mv
				}
				rp.Moves = append(rp.Moves, mv)
			}
			if rp.Best == nil && played[i].Text == p.Best {
				mv := move(played[i])
				rp.Best = &mv
			}
		}
		out.Plies = append(out.Plies, rp)
	}
	return out
}

// tryRequest is the body of a move tried at a marked ply.
type tryRequest struct {
	Ply  int    `json:"ply"`
	Move string `json:"move"`
}

// tryBetter checks a move tried in the position before a marked ply of a
// finished game's review ("find the better move"): anyone with the page
// may try (it changes nothing stored); the chat's rate limit applies as
// to every request of a user. It refuses, with one line, a game with no
// review, a ply the review did not mark, a move not legal there.
func (s *Server) tryBetter(w http.ResponseWriter, r *http.Request) {
	t, snap, lang, ok := s.finished(w, r)
	if !ok {
		return
	}
	var body tryRequest
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxBody))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&body); err != nil || !argRe.MatchString(body.Move) {
		writeJSON(w, http.StatusBadRequest, map[string]any{"ok": false, "error": s.say(lang, "RefusedUnexpected")})
		return
	}
	if rep, ok := s.chat.Admit(r.Context(), chat.Message{Key: t.Key, User: t.User, Text: "/review " + snap.Record.ID, Lang: lang}); !ok {
		line := rep.Text()
		if line == "" {
			line = s.say(lang, "WebDropped")
		}
		writeJSON(w, http.StatusTooManyRequests, map[string]any{"ok": false, "error": line})
		return
	}
	rec, err := s.svc.StoredReview(r.Context(), snap.Record.ID)
	switch {
	case err != nil:
		s.refuse(w, &failure{http.StatusServiceUnavailable, "RefusedUnexpected"}, lang)
		return
	case rec == nil:
		writeJSON(w, http.StatusNotFound, map[string]any{"ok": false, "error": s.say(lang, "WebNoReview", "ID", snap.Record.ID)})
		return
	}
	if body.Ply < 0 || body.Ply >= len(rec.Review.Plies) || rec.Review.Plies[body.Ply].Mark == ai.MarkNone {
		s.refuse(w, &failure{http.StatusUnprocessableEntity, "WebNotMistake"}, lang)
		return
	}
	positions, _, err := s.svc.ReviewPositions(snap.Record)
	if err != nil || len(positions) != len(rec.Review.Plies) {
		s.refuse(w, &failure{http.StatusInternalServerError, "RefusedUnexpected"}, lang)
		return
	}
	before := positions[body.Ply]
	legal := false
	for _, m := range before.Moves() {
		if m.Text == body.Move {
			legal = true
			break
		}
	}
	if !legal {
		s.refuse(w, &failure{http.StatusUnprocessableEntity, "WebNotLegal"}, lang)
		return
	}
	p, err := s.svc.TryReviewMove(r.Context(), t.User, t.Key.Platform, rec, before, body.Ply, body.Move)
	switch {
	case errors.Is(err, rules.ErrIllegal):
		s.refuse(w, &failure{http.StatusUnprocessableEntity, "WebNotLegal"}, lang)
		return
	case err != nil:
		s.log.Error("web: reviewing a tried move", "game", snap.Record.ID, "err", err)
		s.refuse(w, &failure{http.StatusServiceUnavailable, "RefusedUnexpected"}, lang)
		return
	}
	a := TryAnswer{OK: true, Accepted: p.Mark == ai.MarkNone, Chances: math.Round(p.After * 100), Best: math.Round(p.Before * 100)}
	id := "WebBetterRefused"
	if a.Accepted {
		id = "WebBetterAccepted"
	}
	a.Line = s.say(lang, id, "Move", body.Move, "Chances", int(a.Chances), "Best", int(a.Best))
	writeJSON(w, http.StatusOK, a)
}
