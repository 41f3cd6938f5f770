package ai

import (
	"context"
	"testing"

	"github.com/boardgamebot/bot/rules"
)

// reviewGame plays a game of id (options opts) of exactly plies plies
// between computer levels 3 searching depth plies deep, at the first seed
// from seed on whose game lasts that long.
func reviewGame(t testing.TB, p *Player, id string, opts map[string]string, seed uint64, plies, depth int) ([]rules.State, []rules.Move) {
	t.Helper()
	g := newGame(t, id, opts)
	for ; ; seed++ {
		pos, mv := selfPlayDepth(t, p, start(t, g, 0), []int{3, 3, 3, 3}, depth, seed, plies)
		if len(pos) == plies {
			return pos, mv
		}
	}
}

// BenchmarkReview reviews whole games at the default budget: a 60-ply
// Spanish game, a 100-ply Ultradamas game and 100 plies of four-player
// Halma (25 moves each), all played by the computer at fixed seeds. The
// time per op is one game's review; nodes/ply is the positions searched
// per ply. The goal is 10 s for the Spanish game on one core:
//
//	go test -run XXX -bench Review -benchtime 1x -cpu 1 ./rules/ai
func BenchmarkReview(b *testing.B) {
	for _, c := range []struct {
		name, id     string
		opts         map[string]string
		plies, depth int
	}{
		{"spanish-60", "spanish", nil, 60, 6},
		{"ultradamas-100", "ultradamas", nil, 100, 4},
		{"halma4-100", "halma", map[string]string{"players": "4"}, 100, 2},
	} {
		b.Run(c.name, func(b *testing.B) {
			p := New(Config{})
			pos, mv := reviewGame(b, p, c.id, c.opts, 1, c.plies, c.depth)
			var nodes int64
			var r Review
			b.ResetTimer()
			for b.Loop() {
				var err error
				if r, err = p.Review(context.Background(), pos, mv, ReviewOptions{}); err != nil {
					b.Fatal(err)
				}
			}
			for _, pr := range r.Plies {
				nodes += pr.Nodes
			}
			b.ReportMetric(float64(nodes)/float64(len(r.Plies)), "nodes/ply")
		})
	}
}

// TestReviewAgreement measures how often the review's best move at the
// default budget is the best move of a search with twice the positions,
// over 200 positions of computer games (50 of each draughts game and of
// Ultradamas): the share of verdicts a budget twice as large would keep,
// and how many of the moves it would not choose it would mark.
func TestReviewAgreement(t *testing.T) {
	if testing.Short() {
		t.Skip("the agreement figure takes minutes")
	}
	p := New(Config{})
	best := func(s rules.State, nodes int64) string {
		rv := &reviewer{pl: p, ctx: context.Background(), o: ReviewOptions{Nodes: nodes}}
		r, _, err := rv.search(s, "")
		if err != nil {
			t.Fatal(err)
		}
		return r.Move.Text
	}
	same, total, marked := 0, 0, 0
	for _, id := range []string{"spanish", "damas", "dame", "ultradamas"} {
		n, agree := 0, 0
		for seed := uint64(1); n < 50; seed++ {
			pos, _ := selfPlayDepth(t, p, start(t, newGame(t, id, nil), 0), []int{3, 3}, 6, seed, 80)
			// Every third position past the opening with a choice of moves.
			for i := 8; i < len(pos) && n < 50; i += 3 {
				if len(pos[i].Moves()) < 2 {
					continue
				}
				n++
				m := best(pos[i], DefaultReviewNodes)
				if m == best(pos[i], 2*DefaultReviewNodes) {
					agree++
					continue
				}
				// Another move: would the deeper review mark this one?
				pr, err := p.ReviewMove(context.Background(), pos[i], m, ReviewOptions{Nodes: 2 * DefaultReviewNodes})
				if err != nil {
					t.Fatal(err)
				}
				if pr.Mark != MarkNone {
					marked++
				}
			}
		}
		t.Logf("%s: %d of %d positions agree (%.0f%%)", id, agree, n, 100*float64(agree)/float64(n))
		same += agree
		total += n
	}
	t.Logf("agreement of the default budget (%d positions) with twice as many: %d of %d positions (%.1f%%); the deeper review marks %d of the other best moves", DefaultReviewNodes, same, total, 100*float64(same)/float64(total), marked)
}
