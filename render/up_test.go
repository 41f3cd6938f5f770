package render

import (
	"math/rand/v2"
	"testing"
)

func TestUp(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for n := 0; n < 40; n++ {
		cur, prev, got := make([]byte, n), make([]byte, n), make([]byte, n)
		for i := range cur {
			cur[i], prev[i] = byte(rng.IntN(256)), byte(rng.IntN(256))
		}
		copy(prev, []byte{255, 0, 128, 1})
		up(got, cur, prev)
		for i := range cur {
			if got[i] != cur[i]-prev[i] {
				t.Fatalf("n=%d: up(%d, %d) = %d, want %d", n, cur[i], prev[i], got[i], cur[i]-prev[i])
			}
		}
	}
}
