package web_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/boardgamebot/bot/chat"
	"github.com/boardgamebot/bot/sessions"
)

// The reviewed game of the tests: Spanish draughts from a position of
// three men each, Black (bob) to move. c6-d5?? walks into White's shot
// f3-g4! h5xf3 g2xe4xc6 (c6-b5 and a8-b7 lose nothing); alice then
// misses it with f3-e4?? (a draw instead of a win); the captures follow
// and bob resigns. The engine's review marks the first two plies.
const (
	reviewedFEN = "B:Wf3,g2,h1:Bh5,c6,a8"
)

var reviewedMoves = []string{"c6-d5", "f3-e4", "d5xf3", "g2xe4"}

// reviewedGame plays the reviewed game at key, has it reviewed by the
// engine (at the service's default budget) and returns its id and its
// watch link for carol.
func reviewedGame(t testing.TB, f *fixture, key sessions.Key) (id, watch string) {
	t.Helper()
	id, watch = finishedGame(t, f, key)
	res, err := f.svc.Review(ctx, sessions.ReviewRequest{Key: key, User: alice, Game: id})
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(2 * time.Minute)
	for res.State != sessions.ReviewReady {
		if time.Now().After(deadline) {
			t.Fatalf("the review of game %s was not stored in two minutes", id)
		}
		time.Sleep(20 * time.Millisecond)
		if r, err := f.svc.StoredReview(ctx, id); err != nil {
			t.Fatal(err)
		} else if r != nil {
			res.State = sessions.ReviewReady
		}
	}
	return id, watch
}

// finishedGame plays the reviewed game at key without reviewing it.
func finishedGame(t testing.TB, f *fixture, key sessions.Key) (id, watch string) {
	t.Helper()
	f.placed(key, "spanish", nil, reviewedFEN, alice, bob)
	watch = f.links.Board(f.look(key), carol).Watch
	for _, mv := range reviewedMoves {
		s := f.look(key)
		f.must(key, s.Player(s.Turn()), "/move "+mv)
	}
	f.must(key, bob, "/resign")
	recs, err := f.svc.History(ctx, sessions.HistoryQuery{Key: key, Limit: 1})
	if err != nil || len(recs) != 1 {
		t.Fatalf("history: %v %v", recs, err)
	}
	return recs[0].ID, watch
}

// frames fetches a finished game's frames as its page gets them.
func (f *fixture) frames(link string) map[string]json.RawMessage {
	f.t.Helper()
	path, token := parts(f.t, link)
	code, b := f.get(path+"/frames", "X-Board-Token", token)
	if code != http.StatusOK {
		f.t.Fatalf("GET %s/frames: %d %s", path, code, b)
	}
	var out map[string]json.RawMessage
	if err := json.Unmarshal(b, &out); err != nil {
		f.t.Fatal(err)
	}
	return out
}

// TestReviewInFrames: a reviewed game's frames carry its review, one ply
// per move played, the marked plies with their mark, the better move's
// squares and the legal moves of the position; a game not reviewed
// carries none.
func TestReviewInFrames(t *testing.T) {
	f := newFixture(t)
	_, watch := finishedGame(t, f, there)
	if fr := f.frames(watch); fr["review"] != nil {
		t.Fatalf("a game with no review: frames carry %s", fr["review"])
	}
	_, watch = reviewedGame(t, f, here)
	var rv struct {
		Plies []struct {
			Seat    int       `json:"seat"`
			Chances []float64 `json:"c"`
			Mark    string    `json:"mark"`
			Best    *struct {
				T, F, To string
			} `json:"best"`
			Moves []struct {
				T string `json:"t"`
			} `json:"moves"`
		} `json:"plies"`
		Accuracy []float64 `json:"accuracy"`
	}
	if err := json.Unmarshal(f.frames(watch)["review"], &rv); err != nil {
		t.Fatal(err)
	}
	if len(rv.Plies) != len(reviewedMoves) || len(rv.Accuracy) != 2 {
		t.Fatalf("%d plies, %d accuracies", len(rv.Plies), len(rv.Accuracy))
	}
	p0 := rv.Plies[0]
	if p0.Mark != "??" || p0.Seat != 1 || p0.Best == nil || p0.Best.F == "" || p0.Best.To == "" || p0.Best.T == "c6-d5" || len(p0.Moves) != 4 {
		t.Fatalf("ply 0 (c6-d5??): %+v", p0)
	}
	if p0.Chances[0] < 0.9 {
		t.Errorf("after c6-d5?? White's chances are %.2f", p0.Chances[0])
	}
	if rv.Plies[1].Mark == "" || rv.Plies[1].Best == nil || rv.Plies[1].Best.T != "f3-g4" {
		t.Fatalf("ply 1 (f3-e4, the shot missed): %+v", rv.Plies[1])
	}
	if p := rv.Plies[3]; p.Mark != "" || p.Best != nil || p.Moves != nil {
		t.Fatalf("ply 3 (the forced capture): %+v", p)
	}
}

// TestTryBetter: at a mistake, a move within the inaccuracy threshold of
// the engine's best is accepted, the move played refused; a ply not
// marked, an illegal move, a game with no review are refused with one
// line each; anyone with the page (a watcher) may try; nothing stored
// changes.
func TestTryBetter(t *testing.T) {
	f := newFixture(t)
	id, watch := reviewedGame(t, f, here)
	path, token := parts(t, watch)
	en := f.chat.Catalogues().In("en")
	before, err := f.svc.StoredReview(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		ply      int
		move     string
		status   int
		accepted bool
		line     string
	}{
		{0, "c6-b5", http.StatusOK, true, "c6-b5 "},
		{0, "a8-b7", http.StatusOK, true, "a8-b7 "},
		{0, "c6-d5", http.StatusOK, false, "c6-d5 "},
		{1, "f3-g4", http.StatusOK, true, "f3-g4 "},
		{1, "f3-e4", http.StatusOK, false, "f3-e4 "},
		{2, "d5xf3", http.StatusUnprocessableEntity, false, en.T("WebNotMistake")},
		{3, "g2xe4", http.StatusUnprocessableEntity, false, en.T("WebNotMistake")},
		{9, "c6-b5", http.StatusUnprocessableEntity, false, en.T("WebNotMistake")},
		{0, "c6-c5", http.StatusUnprocessableEntity, false, en.T("WebNotLegal")},
		{0, "f3-g4", http.StatusUnprocessableEntity, false, en.T("WebNotLegal")},
		{0, "c6-b5 c6-d5", http.StatusBadRequest, false, en.T("RefusedUnexpected")},
	} {
		code, out := f.post(path, "better", token, map[string]any{"ply": c.ply, "move": c.move})
		line, _ := out["line"].(string)
		if e, ok := out["error"].(string); ok {
			line = e
		}
		accepted, _ := out["accepted"].(bool)
		if code != c.status || accepted != c.accepted || !strings.HasPrefix(line, c.line) {
			t.Errorf("ply %d %s: %d %v, want %d accepted=%v %q", c.ply, c.move, code, out, c.status, c.accepted, c.line)
		}
		if code == http.StatusOK {
			if want := en.T("WebBetterRefused", "Move", c.move, "Chances", int(out["chances"].(float64)), "Best", int(out["best"].(float64))); !accepted && line != want {
				t.Errorf("ply %d %s refused: %q, want %q", c.ply, c.move, line, want)
			}
		}
	}
	after, _ := f.svc.StoredReview(ctx, id)
	if !after.Made.Equal(before.Made) || len(after.Review.Plies) != len(before.Review.Plies) {
		t.Fatalf("the stored review changed: %+v", after)
	}
	// No token, another game's token: refused as every request of a page.
	if code, _ := f.post(path, "better", "", map[string]any{"ply": 0, "move": "c6-b5"}); code != http.StatusUnauthorized {
		t.Errorf("no token: %d", code)
	}
	// A game with no review yet: one line saying how to have it.
	_, plain := finishedGame(t, f, there)
	p2, t2 := parts(t, plain)
	code, out := f.post(p2, "better", t2, map[string]any{"ply": 0, "move": "c6-b5"})
	if code != http.StatusNotFound || !strings.Contains(out["error"].(string), "/review ") {
		t.Errorf("no review: %d %v", code, out)
	}
}

// TestTryBetterRateLimited: tried moves count in the user's rate limit
// like every command: past it, the page is told to slow down, then
// nothing is searched.
func TestTryBetterRateLimited(t *testing.T) {
	f := newFixtureWith(t, fixtureOptions{rate: chat.Rate{PerChat: 2, PerChatWindow: time.Hour}})
	_, watch := reviewedGame(t, f, here)
	path, token := parts(t, watch)
	var codes []int
	for range 4 {
		code, _ := f.post(path, "better", token, map[string]any{"ply": 0, "move": "c6-d5"})
		codes = append(codes, code)
	}
	if codes[0] != http.StatusOK || codes[1] != http.StatusOK || codes[2] != http.StatusTooManyRequests || codes[3] != http.StatusTooManyRequests {
		t.Fatalf("four tries in a row: %v", codes)
	}
}

// halmaReviewed plays eight plies of four-player Halma at key (the first
// legal move each time), then three players resign; the game is reviewed
// by the engine. It returns the game's watch link.
func halmaReviewed(t testing.TB, f *fixture, key sessions.Key) string {
	t.Helper()
	dave := sessions.User{ID: "104", Name: "dave"}
	f.must(key, alice, "/play halma players=4 color=white")
	for _, u := range []sessions.User{bob, carol, dave} {
		f.must(key, u, "/accept")
	}
	watch := f.links.Board(f.look(key), sessions.User{ID: "105", Name: "erin"}).Watch
	for range 8 {
		s := f.look(key)
		f.must(key, s.Player(s.Turn()), "/move "+s.State.Moves()[0].Text)
	}
	for _, u := range []sessions.User{alice, bob, carol} {
		f.must(key, u, "/resign")
	}
	recs, err := f.svc.History(ctx, sessions.HistoryQuery{Key: key, Limit: 1})
	if err != nil || len(recs) != 1 {
		t.Fatalf("history: %v %v", recs, err)
	}
	if _, err := f.svc.Review(ctx, sessions.ReviewRequest{Key: key, User: alice, Game: recs[0].ID}); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(2 * time.Minute); ; time.Sleep(20 * time.Millisecond) {
		if r, err := f.svc.StoredReview(ctx, recs[0].ID); err != nil {
			t.Fatal(err)
		} else if r != nil {
			return watch
		}
		if time.Now().After(deadline) {
			t.Fatal("the review was not stored in two minutes")
		}
	}
}

// TestReviewHalmaFour: a four-player game's review gives every ply each
// seat's chances (the page draws one line per seat).
func TestReviewHalmaFour(t *testing.T) {
	f := newFixture(t)
	watch := halmaReviewed(t, f, here)
	var rv struct {
		Plies []struct {
			Seat    int       `json:"seat"`
			Chances []float64 `json:"c"`
		} `json:"plies"`
	}
	if err := json.Unmarshal(f.frames(watch)["review"], &rv); err != nil {
		t.Fatal(err)
	}
	if len(rv.Plies) != 8 {
		t.Fatalf("%d plies, want 8", len(rv.Plies))
	}
	for i, p := range rv.Plies {
		sum := 0.0
		for _, c := range p.Chances {
			sum += c
		}
		// The seats move in turn, from the first (drawn by lot).
		if len(p.Chances) != 4 || p.Seat != (rv.Plies[0].Seat+i)%4 || sum < 0.99 || sum > 1.01 {
			t.Fatalf("ply %d: seat %d, chances %v", i, p.Seat, p.Chances)
		}
	}
}
