package draughts

import "testing"

// Spanish draughts perft from the initial position, from the DCTL engine's
// test tables (damforum thread "perft for all recognized draughts
// variants"), as cited on shared/rules/draughts.md.
var spanishPerft = []uint64{1, 7, 49, 302, 1469, 7361, 36473, 177532, 828783, 3860866, 17743464, 81383200, 365728331}

func TestPerftSpanish(t *testing.T) {
	max := 9
	if !testing.Short() {
		max = 10
	}
	for d := 0; d <= max; d++ {
		if got := Spanish.Perft(Initial, d); got != spanishPerft[d] {
			t.Errorf("spanish perft(%d) = %d, want %d", d, got, spanishPerft[d])
		}
	}
}

func BenchmarkPerft(b *testing.B) {
	var n uint64
	for b.Loop() {
		n += Spanish.Perft(Initial, 9)
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds()/1e6, "Mnodes/s")
}
