package ai

import (
	"context"
	"testing"
	"time"
)

// middleGame is a Spanish position after nine moves, ten men a side,
// Black to move:
//
//	8  b . b . b .
//	7 . b . b . b . b
//	6  b . b . b .
//	5 . . . . . . . .
//	4  . w . . . .
//	3 . w . . . . . w
//	2  w . w . w . w
//	1 . w . w . . . w
//	  a b c d e f g h
const middleGame = "B:Wb1,d1,h1,a2,c2,e2,g2,b3,h3,c4:Ba6,c6,g6,b7,d7,f7,h7,a8,c8,g8"

// BenchmarkSearch searches the Spanish middle game twelve plies deep and
// reports the nodes searched per second.
//
//	go test -run XXX -bench Search -count 3 ./rules/ai
func BenchmarkSearch(b *testing.B) {
	p := New(Config{TableMB: 16, MaxTime: time.Minute})
	s := load(b, "spanish", nil, middleGame)
	var nodes int64
	begin := time.Now()
	for b.Loop() {
		r, err := p.Search(context.Background(), s, Options{Level: 5, Depth: 12})
		if err != nil {
			b.Fatal(err)
		}
		nodes += r.Nodes
	}
	b.ReportMetric(float64(nodes)/time.Since(begin).Seconds(), "nodes/s")
}

// BenchmarkOpening reports the depth the default level and level 5 reach
// from the Spanish starting position within their budget (Config.MaxTime
// 1 s).
func BenchmarkOpening(b *testing.B) {
	p := New(Config{})
	s := start(b, newGame(b, "spanish", nil), 0)
	for _, lv := range []int{DefaultLevel, MaxLevel} {
		b.Run(map[int]string{DefaultLevel: "default", MaxLevel: "level5"}[lv], func(b *testing.B) {
			var depth, n int
			for b.Loop() {
				r, err := p.Search(context.Background(), s, Options{Level: lv, Seed: 1})
				if err != nil {
					b.Fatal(err)
				}
				depth += r.Depth
				n++
			}
			b.ReportMetric(float64(depth)/float64(n), "plies")
		})
	}
}

// BenchmarkLevel5 reports the depth level 5 reaches in its budget
// (Config.MaxTime 1 s) and the nodes it searches per second, from the
// Spanish starting position and from middleGame.
//
//	go test -run XXX -bench Level5 -benchtime 3x -cpu 1 ./rules/ai
func BenchmarkLevel5(b *testing.B) {
	p := New(Config{})
	for _, c := range []struct{ name, fen string }{{"opening", ""}, {"middle", middleGame}} {
		b.Run(c.name, func(b *testing.B) {
			s := start(b, newGame(b, "spanish", nil), 0)
			if c.fen != "" {
				s = load(b, "spanish", nil, c.fen)
			}
			var depth, n int
			var nodes int64
			for b.Loop() {
				r, err := p.Search(context.Background(), s, Options{Level: MaxLevel, Seed: 1})
				if err != nil {
					b.Fatal(err)
				}
				depth += r.Depth
				nodes += r.Nodes
				n++
			}
			b.ReportMetric(float64(depth)/float64(n), "plies")
			b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
		})
	}
}
