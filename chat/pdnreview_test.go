package chat_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/boardgamebot/bot/chat"
	"github.com/boardgamebot/bot/rules"
	"github.com/boardgamebot/bot/rules/ai"
	"github.com/boardgamebot/bot/rules/draughts"
	"github.com/boardgamebot/bot/rules/games"
	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/sessions/sessionstest"
)

// TestExportPDNReviewed: the PDN of a reviewed game carries each move's
// mark (??, ?!, ?) and the evaluation after it in men from the first
// seat's side ({[%eval 0.35]}); it reads back with draughts.ParsePDN to
// the same game; before the review the PDN has neither.
func TestExportPDNReviewed(t *testing.T) {
	marks := []ai.Mark{ai.MarkBlunder, ai.MarkNone, ai.MarkInaccuracy, ai.MarkMistake}
	evals := []int{35, -120, 0, 2999}
	reviewer := func(ctx context.Context, positions []rules.State, played []rules.Move, o ai.ReviewOptions) (ai.Review, error) {
		var r ai.Review
		for i := range played {
			r.Plies = append(r.Plies, ai.PlyReview{Ply: i, Seat: positions[i].Turn(), Played: played[i].Text, Best: played[i].Text,
				Chances: []float64{0.5, 0.5}, Eval: evals[i], Mark: marks[i]})
		}
		r.Seats = make([]ai.SeatReview, 2)
		return r, nil
	}
	store := sessionstest.NewMemoryStore()
	svc := sessions.New(sessions.Config{Store: store, Rand: func(int) int { return 0 }, Games: games.New, Reviewer: reviewer})
	t.Cleanup(svc.Close)
	f := &fixture{t: t, h: chat.New(chat.Config{Sessions: svc}), store: store}
	f.expect("alice", "/play spanish @bob color=white", "challenges", false)
	f.expect("bob", "/accept", "Game on", false)
	for i := range marks {
		s, err := svc.Look(ctx, key)
		if err != nil {
			t.Fatal(err)
		}
		f.expect([]string{"alice", "bob"}[i%2], "/move "+s.State.Moves()[0].Text, "played", false)
	}
	f.expect("bob", "/resign", "resigns", false)
	plain := string(f.expect("carol", "/export 1", "Game #1", false).Document.Data)
	if strings.Contains(plain, "{[%eval") || strings.Contains(plain, "?") {
		t.Fatalf("the PDN of a game with no review:\n%s", plain)
	}
	f.expect("alice", "/review 1", "", false)
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(10 * time.Millisecond) {
		if r, err := svc.StoredReview(ctx, "1"); err != nil {
			t.Fatal(err)
		} else if r != nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the review was not stored")
		}
	}
	doc := f.expect("carol", "/export 1", "Game #1", false).Document
	if doc == nil || doc.Name != "game-1.pdn" {
		t.Fatalf("/export: %+v", doc)
	}
	pdn := string(doc.Data)
	_, body, _ := strings.Cut(pdn, "\n\n")
	text := strings.Join(strings.Fields(body), " ")
	for i, want := range []string{"?? {[%eval 0.35]} ", " {[%eval -1.20]} ", "?! {[%eval 0.00]} ", "? {[%eval 29.99]} 1-0"} {
		if !strings.Contains(text, want) {
			t.Errorf("ply %d: the movetext lacks %q:\n%s", i, want, pdn)
		}
	}
	for _, line := range strings.Split(pdn, "\n") {
		if len(line) > 79 {
			t.Errorf("a line of %d characters: %q", len(line), line)
		}
	}
	got, gmeta, err := draughts.ParsePDN(pdn)
	if err != nil {
		t.Fatalf("ParsePDN of the reviewed game: %v\n%s", err, pdn)
	}
	want, wmeta, err := draughts.ParsePDN(plain)
	if err != nil {
		t.Fatal(err)
	}
	if got.PDN(gmeta) != want.PDN(wmeta) || got.PDN(gmeta) != plain {
		t.Fatalf("the reviewed PDN reads back as\n%s\nthe game was\n%s", got.PDN(gmeta), plain)
	}
}
