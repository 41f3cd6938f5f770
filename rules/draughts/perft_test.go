package draughts

import (
	"context"
	"errors"
	"testing"
)

// Spanish draughts perft from the initial position, from the DCTL engine's
// test tables (damforum thread "perft for all recognized draughts
// variants"), as cited on shared/rules/draughts.md.
var spanishPerft = []uint64{1, 7, 49, 302, 1469, 7361, 36473, 177532, 828783, 3860866, 17743464, 81383200, 365728331}

// spanishNoQuality11 is the depth-11 count without the quality rule (same
// source): depth 11 is the first where the rule changes the count.
const spanishNoQuality11 = 81383497

func perftDepth() int {
	if testing.Short() {
		return 9
	}
	return 11
}

func TestPerftSpanish(t *testing.T) {
	for d := 0; d <= perftDepth(); d++ {
		if got := Spanish.Perft(Initial, d); got != spanishPerft[d] {
			t.Errorf("spanish perft(%d) = %d, want %d", d, got, spanishPerft[d])
		}
	}
}

func TestPerftQualityRule(t *testing.T) {
	if testing.Short() {
		t.Skip("depth 11")
	}
	v := Spanish
	v.Quality = false
	if got := v.Perft(Initial, 11); got != spanishNoQuality11 {
		t.Errorf("spanish without quality perft(11) = %d, want %d", got, spanishNoQuality11)
	}
}

// dame with flying kings is Spanish draughts on the mirrored board: the
// same counts (rules page).
func TestPerftDame(t *testing.T) {
	max := perftDepth() - 1
	for d := 1; d <= max; d++ {
		if got := Dame.Perft(Initial, d); got != spanishPerft[d] {
			t.Errorf("dame perft(%d) = %d, want %d", d, got, spanishPerft[d])
		}
	}
}

// perftBenches are the positions BenchmarkPerft and BenchmarkPerftOld
// count: every variant from the start, and a Spanish middle game with
// two kings a side (White to move).
var perftBenches = []struct {
	name  string
	v     Variant
	fen   string
	depth int
}{
	{"spanish", Spanish, "", 9},
	{"damas", Damas, "", 9},
	{"damas-huff", DamasHuff, "", 8},
	{"dame", Dame, "", 9},
	{"dame-short", DameShort, "", 9},
	{"spanish-kings", Spanish, "W:WK1,K3,5,6,7,8,10,11:BK32,K30,25,26,27,28,22,23", 7},
}

// BenchmarkPerft counts each variant from the start (depth 9, damas with
// huffing 8) with bulk counting at the last ply, and Spanish without it
// (every leaf made); Mnodes/s is leaves per second. For the same figure
// from DCTL (rhalbersma/dctl), time its Spanish perft of the same depth.
//
//	go test -run XXX -bench Perft -benchtime 20x -cpu 1 ./rules/draughts
func BenchmarkPerft(b *testing.B) {
	for _, c := range perftBenches {
		p := Initial
		if c.fen != "" {
			p = mustFEN(b, c.v, c.fen)
		}
		b.Run(c.name, func(b *testing.B) {
			var n uint64
			for b.Loop() {
				counts, _ := c.v.PerftCounts(context.Background(), p, c.depth)
				n += counts[c.depth]
			}
			b.ReportMetric(float64(n)/b.Elapsed().Seconds()/1e6, "Mnodes/s")
		})
	}
	b.Run("spanish-nobulk", func(b *testing.B) {
		var n uint64
		for b.Loop() {
			counts, _ := Spanish.perftCounts(context.Background(), Initial, 9, false)
			n += counts[9]
		}
		b.ReportMetric(float64(n)/b.Elapsed().Seconds()/1e6, "Mnodes/s")
	})
}

// A perft stops when its context is done, with the context's error.
func TestPerftCountsCanceled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if n, err := Spanish.PerftCounts(ctx, Initial, 12); !errors.Is(err, context.Canceled) || n != nil {
		t.Errorf("PerftCounts(canceled, 12) = %v, %v; want nil, context.Canceled", n, err)
	}
}
