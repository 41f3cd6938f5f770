package draughts

import (
	"cmp"
	"context"
	"math/rand/v2"
	"slices"
	"testing"
)

// sortedMoves returns the moves ordered by start, end, captured set and
// route, so that two generators' lists compare whatever their order.
func sortedMoves(ms []Move) []Move {
	out := slices.Clone(ms)
	slices.SortFunc(out, func(a, b Move) int {
		return cmp.Or(cmp.Compare(a.From, b.From), cmp.Compare(a.To, b.To), cmp.Compare(a.Captured, b.Captured),
			slices.Compare(a.Path[:a.N], b.Path[:b.N]))
	})
	return out
}

// sameMoveSet reports whether got and want hold the same moves (From, To,
// Captured), each once, and whether every route of got ends at its To.
func sameMoveSet(got, want []Move) bool {
	if len(got) != len(want) {
		return false
	}
	g, w := sortedMoves(got), sortedMoves(want)
	for i := range g {
		if !Same(g[i], w[i]) || g[i].N == 0 || g[i].Path[g[i].N-1] != g[i].To {
			return false
		}
	}
	return true
}

// TestGeneratorMatchesOld compares the generator with the one it replaced
// (oldgen_test.go) on random positions of every variant: the same moves,
// the same series with their routes, the same complete captures, and the
// same perft counts at every depth from one traversal.
func TestGeneratorMatchesOld(t *testing.T) {
	n, depth := 2000, 3
	if testing.Short() {
		n, depth = 300, 2
	}
	variants := append(slices.Clone(fuzzVariants), Variant{ID: "spanish", Flying: true, Draws: SpanishDraws})
	for vi, v := range variants {
		rng := rand.New(rand.NewPCG(16, uint64(vi)))
		for i := 0; i < n; i++ {
			p := randomPosition(rng)
			if got, want := v.Moves(p), v.oldGenerate(nil, p, false, false); !sameMoveSet(got, want) {
				t.Fatalf("%s %v %s:\n%s\nMoves %v\nold   %v", v.ID, v.Options(), v.FEN(p), diagram(v, p), sortedMoves(got), sortedMoves(want))
			}
			if got, want := sortedMoves(v.series(p)), sortedMoves(v.oldGenerate(nil, p, true, false)); !slices.Equal(got, want) {
				t.Fatalf("%s %v %s: series %v, old %v", v.ID, v.Options(), v.FEN(p), got, want)
			}
			if got, want := sortedMoves(v.allCaptures(p)), sortedMoves(v.oldAllCaptures(p)); !slices.Equal(got, want) {
				t.Fatalf("%s %v %s: allCaptures %v, old %v", v.ID, v.Options(), v.FEN(p), got, want)
			}
			counts, _ := v.PerftCounts(context.Background(), p, depth)
			made, _ := v.perftCounts(context.Background(), p, depth, false)
			for d := 0; d <= depth; d++ {
				if want := v.oldPerft(p, d); counts[d] != want || made[d] != want || v.Perft(p, d) != want {
					t.Fatalf("%s %v %s: perft(%d) = %d, counts %v, without bulk %v, old %d", v.ID, v.Options(), v.FEN(p), d, v.Perft(p, d), counts, made, want)
				}
			}
		}
	}
}

// TestPerftCountsInitial checks the counts of every depth from one
// traversal against the published Spanish table and the old generator.
func TestPerftCountsInitial(t *testing.T) {
	depth := perftDepth()
	for _, v := range []Variant{Spanish, Dame} {
		got, _ := v.PerftCounts(context.Background(), Initial, depth)
		if !slices.Equal(got, spanishPerft[:depth+1]) {
			t.Errorf("%s PerftCounts(%d) = %v, want %v", v.ID, depth, got, spanishPerft[:depth+1])
		}
	}
	for _, v := range []Variant{Damas, DamasHuff, DameShort} {
		got, _ := v.PerftCounts(context.Background(), Initial, 8)
		for d := range got {
			if want := v.oldPerft(Initial, d); got[d] != want {
				t.Errorf("%s %v perft(%d) = %d, old %d", v.ID, v.Options(), d, got[d], want)
			}
		}
	}
}

// BenchmarkPerftOld is BenchmarkPerft with the generator the fast one
// replaced: the before of the before/after table, in the same run.
func BenchmarkPerftOld(b *testing.B) {
	for _, c := range perftBenches {
		p := Initial
		if c.fen != "" {
			p = mustFEN(b, c.v, c.fen)
		}
		b.Run(c.name, func(b *testing.B) {
			var n uint64
			for b.Loop() {
				n += c.v.oldPerft(p, c.depth)
			}
			b.ReportMetric(float64(n)/b.Elapsed().Seconds()/1e6, "Mnodes/s")
		})
	}
	b.Run("spanish-nobulk", func(b *testing.B) {
		var n uint64
		for b.Loop() {
			n += oldPerftNoBulk(Spanish, Initial, 9, make([][]Move, 9))
		}
		b.ReportMetric(float64(n)/b.Elapsed().Seconds()/1e6, "Mnodes/s")
	})
}

// oldPerftNoBulk is perft with the old generator making every leaf.
func oldPerftNoBulk(v Variant, p Position, depth int, bufs [][]Move) uint64 {
	if depth == 0 {
		return 1
	}
	var n uint64
	bufs[depth-1] = v.oldGenerate(bufs[depth-1][:0], p, false, false)
	for _, m := range bufs[depth-1] {
		n += oldPerftNoBulk(v, v.Apply(p, m), depth-1, bufs)
	}
	return n
}
