package telegram_test

import (
	"context"
	"strings"
	"testing"

	"github.com/boardgamebot/bot/adapters/web"
	"github.com/boardgamebot/bot/chat"
	"github.com/boardgamebot/bot/render"
	"github.com/boardgamebot/bot/rules/ai"
	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/sessions/sessionstest"
)

// sampleReview is a review of three plies: the second a blunder losing
// two men, the third an inaccuracy.
func sampleReview(id string) *sessions.ReviewRecord {
	return &sessions.ReviewRecord{V: 1, Game: id, Nodes: 1000, Review: ai.Review{
		Plies: []ai.PlyReview{
			{Ply: 0, Seat: 0, Played: "10-14", Best: "10-14", Chances: []float64{0.5, 0.5}, Before: 0.5, After: 0.5},
			{Ply: 1, Seat: 1, Played: "22-18", Best: "23-19", Chances: []float64{0.9, 0.1}, Before: 0.5, After: 0.1, Mark: ai.MarkBlunder, Material: 2},
			{Ply: 2, Seat: 0, Played: "14x23", Best: "9-13", Chances: []float64{0.8, 0.2}, Before: 0.9, After: 0.8, Mark: ai.MarkInaccuracy},
		},
		Seats: []ai.SeatReview{{Accuracy: 95, Inaccuracies: 1, Worst: 2}, {Accuracy: 41, Blunders: 1, Worst: 1}},
	}}
}

// TestReviewPhoto: /review of a finished game answers with the graph as
// a photo, the summary as its caption and a button to the game's web
// page, then the mistakes with the better moves.
func TestReviewPhoto(t *testing.T) {
	f := newFake(t)
	store := sessionstest.NewMemoryStore()
	signer, err := web.NewSigner([]byte("the telegram tests' web secret!!"))
	if err != nil {
		t.Fatal(err)
	}
	links := web.NewLinks(web.LinksConfig{Base: boardBase, Signer: signer})
	h := runBotChat(t, f, store, nil, func() error { return nil }, nil, nil, nil, chat.Config{Web: links})
	const group int64 = -1003333
	h.ratedGame(group, alice, bob)
	if err := store.PutReview(context.Background(), sampleReview("1")); err != nil {
		t.Fatal(err)
	}
	m := h.f.mark()
	h.f.push(text(group, carol, "/review 1"))
	photo, _ := h.f.waitCall(m, sent(group, "sendPhoto"))
	caption := photo.Params["caption"]
	if photo.Image == nil || photo.Image.Bounds().Dx() != render.ReviewWidth || !strings.Contains(caption, "Review of game #1") ||
		!strings.Contains(caption, "accuracy 95%") || strings.Contains(caption, "better") {
		t.Fatalf("photo %v, caption %q: want the graph with the summary", photo.Image != nil, caption)
	}
	var link string
	for _, row := range keyboard(t, photo) {
		for _, b := range row {
			if b.URL != nil {
				link = *b.URL
			}
		}
	}
	if !strings.HasPrefix(link, boardBase) {
		t.Errorf("no button to the web page: %v", keyboard(t, photo))
	}
	list, _ := h.f.waitCall(m, sent(group, "sendMessage"))
	if txt := list.Params["text"]; !strings.Contains(txt, "1... 22-18?? (better 23-19): loses 2 men (50% → 10%)") || !strings.Contains(txt, "2. 14x23?! (better 9-13)") {
		t.Errorf("the mistakes: %q", txt)
	}
	// Bad input: one line, no photo.
	r, _ := h.say(group, carol, "/review 99")
	if r.Method != "sendMessage" || !strings.Contains(r.Params["text"], "no finished game with that id") {
		t.Errorf("/review 99: %s %q", r.Method, r.Params["text"])
	}
}
