package ai

import (
	"context"
	"testing"
	"time"
)

// restBenches are Ultradamas and Halma positions for BenchmarkSearchRest:
// a fixed-depth level-5 search from each, on every board.
var restBenches = []struct {
	name, game string
	opts       map[string]string
	fen        string // "" for the start
	depth      int
}{
	{"ultradamas-start", "ultradamas", nil, "", 9},
	{"ultradamas-kings", "ultradamas", nil, "R:Ra1,c1,2e1,3b2,d2,4f2,a3,c3,g5:Bb6,d6,2f6,h6,3a7,c7,4e7,b8,d8,f8", 8},
	{"halma-8x8", "halma", map[string]string{"size": "8"}, "", 7},
	{"halma-10x10", "halma", map[string]string{"size": "10"}, "", 6},
	{"halma-16x16x2", "halma", map[string]string{"size": "16"}, "", 5},
	{"halma-16x16x4", "halma", map[string]string{"size": "16", "players": "4"}, "", 8},
}

// BenchmarkSearchRest searches each of restBenches to its depth and
// reports the nodes searched per second.
//
//	go test -run XXX -bench SearchRest -benchtime 3x -cpu 1 ./rules/ai
func BenchmarkSearchRest(b *testing.B) {
	for _, c := range restBenches {
		b.Run(c.name, func(b *testing.B) {
			p := New(Config{TableMB: 16, MaxTime: time.Minute})
			s := start(b, newGame(b, c.game, c.opts), 0)
			if c.fen != "" {
				s = load(b, c.game, c.opts, c.fen)
			}
			var nodes int64
			for b.Loop() {
				r, err := p.Search(context.Background(), s, Options{Level: MaxLevel, Depth: c.depth, Seed: 1})
				if err != nil {
					b.Fatal(err)
				}
				nodes += r.Nodes
			}
			b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
			b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
		})
	}
}
