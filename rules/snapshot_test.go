package rules_test

import (
	"testing"

	"github.com/boardgamebot/bot/rules"
)

// TestSnapshotReader: numbers read back as written; the first read past
// the end or over a limit sticks, and later reads give 0.
func TestSnapshotReader(t *testing.T) {
	b := []byte{7, 1, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0xac, 0x02}
	r := rules.NewSnapshotReader(b)
	if got := r.Byte(); got != 7 {
		t.Errorf("Byte = %d, want 7", got)
	}
	if got := r.Uint32(); got != 1 {
		t.Errorf("Uint32 = %d, want 1", got)
	}
	if got := r.Uint64(); got != 2 {
		t.Errorf("Uint64 = %d, want 2", got)
	}
	if got := r.Uvarint(1000); got != 300 || r.Bad() || r.Len() != 0 {
		t.Errorf("Uvarint = %d, bad %v, %d left; want 300, false, 0", got, r.Bad(), r.Len())
	}
	if got := r.Byte(); got != 0 || !r.Bad() {
		t.Errorf("Byte past the end = %d, bad %v; want 0, true", got, r.Bad())
	}

	r = rules.NewSnapshotReader([]byte{0xac, 0x02, 5})
	if got := r.Uvarint(299); got != 0 || !r.Bad() {
		t.Errorf("Uvarint over its limit = %d, bad %v; want 0, true", got, r.Bad())
	}
	if got := r.Byte(); got != 0 || r.Len() != 3 {
		t.Errorf("after a failure: Byte = %d with %d left; want 0 and nothing read", got, r.Len())
	}
	for _, n := range []int{0, 3} {
		r = rules.NewSnapshotReader(make([]byte, n))
		if r.Uint32(); !r.Bad() {
			t.Errorf("Uint32 of %d bytes: not bad", n)
		}
	}
}
