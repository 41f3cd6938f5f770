package discord

import (
	"context"
	"strings"
	"testing"

	"github.com/boardgamebot/bot/adapters/web"
	"github.com/boardgamebot/bot/render"
	"github.com/boardgamebot/bot/rules"
	"github.com/boardgamebot/bot/rules/ai"
	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/sessions/sessionstest"
)

// blunderAt2 reviews a game with its second ply a blunder that loses two
// men.
func blunderAt2(ctx context.Context, positions []rules.State, played []rules.Move, o ai.ReviewOptions) (ai.Review, error) {
	rv := ai.Review{Seats: []ai.SeatReview{{Accuracy: 97, Worst: -1}, {Accuracy: 55, Blunders: 1, Worst: 1}}}
	for i, st := range positions {
		pr := ai.PlyReview{Ply: i, Seat: st.Turn(), Played: played[i].Text, Best: played[i].Text, Chances: []float64{0.5, 0.5}, Before: 0.5, After: 0.5}
		if i == 1 {
			pr.Mark, pr.Best, pr.Material, pr.After, pr.Chances = ai.MarkBlunder, "the better one", 2, 0.1, []float64{0.9, 0.1}
		}
		rv.Plies = append(rv.Plies, pr)
	}
	return rv, nil
}

// TestReviewEmbed: /review answers with an embed (the summary, the graph
// as its image) and the mistakes, with a link button to the game's web
// page; asked where it is not ready, it says it is coming and posts the
// notice when it is.
func TestReviewEmbed(t *testing.T) {
	f := newFakeDiscord(t)
	signer, err := web.NewSigner([]byte("the discord tests' web secret!!!"))
	if err != nil {
		t.Fatal(err)
	}
	links := web.NewLinks(web.LinksConfig{Base: "https://board.example.org", Signer: signer})
	b, svc := build(t, f, sessions.Config{Store: sessionstest.NewMemoryStore(), Reviewer: blunderAt2}, Config{Web: links})
	e := run(t, f, b, svc)
	f.addChannel("701", "801")
	ratedGame(t, e, "701", alice, bob)

	from := f.mark()
	q := ask(t, e, "701", carol, "review", str("id", "1"))
	if !strings.Contains(content(q), "Reviewing game #1") {
		t.Fatalf("first /review: %q, want it queued", content(q))
	}
	f.waitFor(t, from, "the notice", func(r *fakeReq) bool { return strings.Contains(content(r), "Review of game #1 ready: /review 1") })

	q = ask(t, e, "701", carol, "review", str("id", "#1"))
	if w, _ := onePNG(t, q); w != render.ReviewWidth {
		t.Errorf("the graph is %d px wide", w)
	}
	d, _ := q.body["data"].(map[string]any)
	if d == nil {
		d = q.body
	}
	embeds, _ := d["embeds"].([]any)
	if len(embeds) != 1 {
		t.Fatalf("embeds %v", d["embeds"])
	}
	em := embeds[0].(map[string]any)
	img, _ := em["image"].(map[string]any)
	if !strings.HasPrefix(em["title"].(string), "Review of game #1") || !strings.Contains(em["description"].(string), "accuracy 55%") ||
		img["url"] != "attachment://review-1.png" || !strings.HasPrefix(em["url"].(string), "https://board.example.org/") {
		t.Errorf("embed %v", em)
	}
	if !strings.Contains(content(q), "1... ") || !strings.Contains(content(q), "?? (better the better one): loses 2 men (50% → 10%)") {
		t.Errorf("the mistakes: %q", content(q))
	}
	if !strings.HasPrefix(linkButtons(t, q)["Open the board"], "https://board.example.org/") {
		t.Errorf("no link button to the web page")
	}
}
