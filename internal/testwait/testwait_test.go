package testwait

import (
	"sync/atomic"
	"testing"
	"time"
)

func TestUntil(t *testing.T) {
	for _, tc := range []struct {
		name  string
		d     time.Duration
		after int // cond holds from this look on (-1: never)
		want  bool
	}{
		{"at once", 0, 1, true},
		{"at once, a long deadline", time.Hour, 1, true},
		{"after a few looks", time.Minute, 4, true},
		{"never", 20 * time.Millisecond, -1, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var looks atomic.Int64
			cond := func() bool { return looks.Add(1) >= int64(tc.after) && tc.after > 0 }
			if got := Until(tc.d, cond); got != tc.want {
				t.Fatalf("Until = %v, want %v", got, tc.want)
			}
			if tc.want && looks.Load() != int64(tc.after) {
				t.Fatalf("%d looks, want %d", looks.Load(), tc.after)
			}
		})
	}
}
