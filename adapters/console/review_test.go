package console_test

import (
	"bytes"
	"context"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boardgamebot/bot/adapters/console"
	"github.com/boardgamebot/bot/chat"
	"github.com/boardgamebot/bot/render"
	"github.com/boardgamebot/bot/rules"
	"github.com/boardgamebot/bot/rules/ai"
	"github.com/boardgamebot/bot/rules/games"
	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/sessions/sessionstest"
)

// TestReviewInConsole: /review in the console waits for the review and
// prints it: the summary, the mistakes with the better moves, and the
// graph's path on a Picture: line; bad input gets one line.
func TestReviewInConsole(t *testing.T) {
	dir := t.TempDir()
	reviewer := func(ctx context.Context, positions []rules.State, played []rules.Move, o ai.ReviewOptions) (ai.Review, error) {
		rv := ai.Review{Seats: []ai.SeatReview{{Accuracy: 80, Mistakes: 1, Worst: 0}, {Accuracy: 100, Worst: -1}}}
		for i, st := range positions {
			pr := ai.PlyReview{Ply: i, Seat: st.Turn(), Played: played[i].Text, Best: played[i].Text, Chances: []float64{0.5, 0.5}, Before: 0.5, After: 0.5}
			if i == 0 {
				pr.Mark, pr.Best, pr.After, pr.Chances = ai.MarkMistake, "2", 0.3, []float64{0.3, 0.7}
			}
			rv.Plies = append(rv.Plies, pr)
		}
		return rv, nil
	}
	svc := sessions.New(sessions.Config{Store: sessionstest.NewMemoryStore(), Games: sessionstest.Games, Rand: func(int) int { return 0 }, Reviewer: reviewer})
	defer svc.Close()
	r := render.New()
	var out bytes.Buffer
	in := "/play count @bob color=white target=3\n/as bob\n/accept\n/as alice\n/move 1\n/as bob\n/move 2\n/review 9\n/review\n"
	cc := console.Config{Handler: chat.New(chat.Config{Sessions: svc}), In: strings.NewReader(in),
		Out: &out, As: "alice", PictureDir: filepath.Join(dir, "files"),
		DrawFigure: func(f *chat.Figure) ([]byte, error) { return f.PNG(r, render.Options{}) }}
	if err := console.Run(ctx, cc); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	path := filepath.Join(dir, "files", "review-1.png")
	for _, want := range []string{
		"There is no finished game with that id here",
		"Review of game #1: Counting game, alice (White) vs bob (Black)",
		"alice (White): accuracy 80% · ?! 0 · ? 1 · ?? 0 · worst 1. 1?",
		"1. 1? (better 2): winning chances 50% → 30%",
		"Picture: " + path,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in:\n%s", want, text)
		}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if img, err := png.Decode(bytes.NewReader(data)); err != nil || img.Bounds().Dx() != render.ReviewWidth {
		t.Errorf("the graph: %v", err)
	}
}

// TestReviewInConsoleWithTheEngine: the console's /review with the real
// engine (skipped while rules/ai's Review is not written): the graph and
// a line per player.
func TestReviewInConsoleWithTheEngine(t *testing.T) {
	g, err := games.New("spanish", nil)
	if err != nil {
		t.Fatal(err)
	}
	st := g.Start(0)
	if _, err := ai.New(ai.Config{}).Review(ctx, []rules.State{st}, []rules.Move{st.Moves()[0]}, ai.ReviewOptions{Nodes: 1000}); err != nil {
		t.Skipf("the engine's review is not in yet: %v", err)
	}
	dir := t.TempDir()
	svc := sessions.New(sessions.Config{Store: sessionstest.NewMemoryStore(), Rand: func(int) int { return 0 }, ReviewNodes: 20000})
	defer svc.Close()
	r := render.New()
	var out bytes.Buffer
	in := "/play spanish @bob color=white\n/as bob\n/accept\n/as alice\n/move 11-15\n/as bob\n/move 22-18\n/resign\n/review\n"
	cc := console.Config{Handler: chat.New(chat.Config{Sessions: svc}), In: strings.NewReader(in),
		Out: &out, As: "alice", PictureDir: filepath.Join(dir, "files"),
		DrawFigure: func(f *chat.Figure) ([]byte, error) { return f.PNG(r, render.Options{}) }}
	if err := console.Run(ctx, cc); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	for _, want := range []string{"Review of game #1: Spanish draughts", "alice (White): accuracy", "bob (Black): accuracy",
		"Picture: " + filepath.Join(dir, "files", "review-1.png")} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in:\n%s", want, text)
		}
	}
}
