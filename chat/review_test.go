package chat_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/boardgamebot/bot/chat"
	"github.com/boardgamebot/bot/render"
	"github.com/boardgamebot/bot/rules"
	"github.com/boardgamebot/bot/rules/ai"
	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/sessions/sessionstest"
)

// scriptedReviewer reviews every game alike: the second ply a blunder
// that loses two men (better "2"), the third an inaccuracy; it counts
// its reviews.
type scriptedReviewer struct {
	mu    sync.Mutex
	calls int
}

func (s *scriptedReviewer) review(ctx context.Context, positions []rules.State, played []rules.Move, o ai.ReviewOptions) (ai.Review, error) {
	s.mu.Lock()
	s.calls++
	s.mu.Unlock()
	rv := ai.Review{Seats: []ai.SeatReview{{Accuracy: 91.6, Inaccuracies: 1, Worst: 2}, {Accuracy: 40.2, Blunders: 1, Worst: 1}}}
	for i, st := range positions {
		pr := ai.PlyReview{Ply: i, Seat: st.Turn(), Played: played[i].Text, Best: played[i].Text, Before: 0.5, After: 0.5, Chances: []float64{0.5, 0.5}}
		switch i {
		case 1:
			pr.Mark, pr.Best, pr.After, pr.Material, pr.Chances = ai.MarkBlunder, "2", 0.1, 2, []float64{0.9, 0.1}
		case 2:
			pr.Mark, pr.Best, pr.Before, pr.After, pr.Chances = ai.MarkInaccuracy, "1", 0.9, 0.8, []float64{0.8, 0.2}
		}
		rv.Plies = append(rv.Plies, pr)
	}
	return rv, nil
}

func (s *scriptedReviewer) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.calls
}

// reviewNotices passes on the notices of reviews ready.
type reviewNotices chan sessions.Notice

func (c reviewNotices) Notify(ctx context.Context, n sessions.Notice) {
	if n.Kind == sessions.NoticeReviewed {
		c <- n
	}
}

type reviewFixture struct {
	*fixture
	rv      *scriptedReviewer
	notices reviewNotices
}

func newReviewFixture(t *testing.T, words *chat.Catalogues) *reviewFixture {
	store := sessionstest.NewMemoryStore()
	rv := &scriptedReviewer{}
	n := reviewNotices(make(chan sessions.Notice, 8))
	svc := sessions.New(sessions.Config{Store: store, Games: sessionstest.Games, Rand: func(int) int { return 0 }, Reviewer: rv.review, Notifier: n})
	t.Cleanup(svc.Close)
	return &reviewFixture{fixture: &fixture{t: t, h: chat.New(chat.Config{Sessions: svc, Catalogues: words}), store: store}, rv: rv, notices: n}
}

// play finishes a count game to 5 at key: alice 1, bob 1, alice 2,
// bob 1: bob wins.
func (f *reviewFixture) play() {
	for _, s := range []struct{ who, text string }{
		{"alice", "/play count @bob color=white target=5"}, {"bob", "/accept"},
		{"alice", "/move 1"}, {"bob", "/move 1"}, {"alice", "/move 2"}, {"bob", "/move 1"},
	} {
		if r := f.say(s.who, s.text); r.Error {
			f.t.Fatalf("%s %q: %s", s.who, s.text, r.Text())
		}
	}
}

func (f *reviewFixture) inOrder(name, text, lang string) chat.Reply {
	return f.h.Handle(ctx, chat.Message{Key: key, User: user(name), Text: text, InOrder: true, Lang: lang})
}

func TestReviewCommand(t *testing.T) {
	f := newReviewFixture(t, nil)
	f.play()
	f.expectExact("carol", "/review", "Reviewing game #1: it will be posted here when it is ready (/review 1 then shows it).", false)
	n := <-f.notices
	if got := f.h.NoticeReply(n); got.Text() != "Review of game #1 ready: /review 1" {
		t.Errorf("notice: %q", got.Text())
	}
	r := f.expectExact("carol", "/review #1", strings.Join([]string{
		"Review of game #1: Counting game, alice (White) vs bob (Black)",
		"alice (White): accuracy 92% · ?! 1 · ? 0 · ?? 0 · worst 2. 2?!",
		"bob (Black): accuracy 40% · ?! 0 · ? 0 · ?? 1 · worst 1... 1??",
		"Mistakes and the better moves:",
		"1... 1?? (better 2): loses 2 men (50% → 10%)",
		"2. 2?! (better 1): winning chances 90% → 80%",
	}, "\n"), false)
	if f.rv.count() != 1 {
		t.Errorf("asked twice, reviewed %d times", f.rv.count())
	}
	fig := r.Figure
	if fig == nil || fig.Review == nil || fig.Summary != 3 || fig.Name != "review-1.png" {
		t.Fatalf("figure %+v", fig)
	}
	g := fig.Review
	if g.Title != "Game #1 · Counting game" || g.Scale != "alice (White)'s winning chances" || g.Plies != "moves" || !strings.Contains(g.Result, "bob won") {
		t.Errorf("graph words %q %q %q %q", g.Title, g.Scale, g.Plies, g.Result)
	}
	if len(g.Lines) != 1 || len(g.Lines[0].Points) != 5 || g.Lines[0].Points[2] != 0.9 {
		t.Errorf("graph lines %+v", g.Lines)
	}
	if len(g.Marks) != 2 || g.Marks[0].Ply != 1 || g.Marks[0].Seat != 1 || g.Marks[0].Mark != 3 || g.Marks[1].Mark != 1 {
		t.Errorf("graph marks %+v", g.Marks)
	}
	if _, err := fig.PNG(render.New(), render.Options{}); err != nil {
		t.Errorf("drawing the graph: %v", err)
	}
}

// TestReviewInOrder: the console's /review waits for the review and
// answers with it.
func TestReviewInOrder(t *testing.T) {
	f := newReviewFixture(t, nil)
	f.play()
	r := f.inOrder("alice", "/review", "")
	if r.Error || r.Figure == nil || !strings.Contains(r.Text(), "1... 1?? (better 2)") {
		t.Fatalf("%s", r.Text())
	}
	if len(f.notices) != 0 {
		t.Errorf("the console's review was announced too")
	}
}

// TestReviewBadInput: one clear line each, nothing queued.
func TestReviewBadInput(t *testing.T) {
	f := newReviewFixture(t, nil)
	f.play()
	f.expectExact("alice", "/review x1", `"x1" is not a game id: /review 12 (/history lists the ids).`, true)
	f.expectExact("alice", "/review 99", "There is no finished game with that id here: /history lists the games with their ids.", true)
	f.expect("alice", "/play count @bob", "challenges", false)
	f.expect("bob", "/accept", "Game on", false)
	f.expectExact("alice", "/review", "The game here is still being played: its review comes when it ends. /review <id> reviews a finished game (/history lists them).", true)
	r := f.h.Handle(ctx, chat.Message{Key: sessions.Key{Platform: key.Platform, Channel: "dm-carol"}, User: user("carol"), Text: "/review 1"})
	if !r.Error || r.Text() != "That game was played in another private chat: only its players can review it. /history lists your games." {
		t.Errorf("another chat's private game: %q", r.Text())
	}
	f.expect("alice", "/review 1 2", "", true)
	r = f.h.Handle(ctx, chat.Message{Key: sessions.Key{Platform: key.Platform, Channel: "empty"}, User: user("dave"), Text: "/review"})
	if !r.Error || r.Text() != "No finished game here or of yours to review yet: /review <id> reviews one (/history lists them)." {
		t.Errorf("nothing to review: %q", r.Text())
	}
	if f.rv.count() != 0 {
		t.Errorf("bad input queued %d reviews", f.rv.count())
	}
}

// TestReviewLanguages: the review in every language, every placeholder
// filled; and in the pseudo-language every line and word of the graph
// comes from the catalogue.
func TestReviewLanguages(t *testing.T) {
	f := newReviewFixture(t, nil)
	f.play()
	en := f.inOrder("alice", "/review", "en").Text()
	for _, lang := range []string{"es", "de", "tl"} {
		r := f.inOrder("alice", "/review 1", lang)
		if r.Error || r.Lang != lang || r.Text() == en || strings.Contains(r.Text(), "no value") || strings.Contains(r.Text(), "{{") {
			t.Errorf("%s:\n%s", lang, r.Text())
		}
		if !strings.Contains(r.Text(), "1... 1??") || !strings.Contains(r.Text(), "2. 2?!") {
			t.Errorf("%s: the moves and marks are the game's notation:\n%s", lang, r.Text())
		}
	}
	p := newReviewFixture(t, chat.PseudoCatalogues("en"))
	p.play()
	for _, r := range []chat.Reply{p.say("alice", "/review"), p.h.NoticeReply(<-p.notices), p.say("alice", "/review 1"), p.say("alice", "/review 7"), p.inOrder("bob", "/review 1", "")} {
		for _, line := range r.Lines {
			if !chat.FromCatalogue(line) {
				t.Errorf("line not from the catalogue: %q", line)
			}
		}
		if g := r.Figure; g != nil {
			for _, w := range []string{g.Review.Title, g.Review.Scale, g.Review.Plies, g.Review.Result} {
				if !chat.FromCatalogue(w) {
					t.Errorf("graph word not from the catalogue: %q", w)
				}
			}
		}
	}
}
