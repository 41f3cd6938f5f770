package ai

import "testing"

func TestTable(t *testing.T) {
	tt := newTable(1)
	if n := len(tt.slots) * 16; n > 1<<20 {
		t.Errorf("a 1 MB table takes %d bytes", n)
	}
	if _, ok := tt.probe(42); ok {
		t.Error("an empty table finds a position")
	}
	tt.store(42, 5, -29990, boundLower, 3)
	e, ok := tt.probe(42)
	if !ok || e.depth != 5 || e.score != -29990 || e.bound != boundLower || e.best != 4 {
		t.Errorf("probe after store = %+v, %v", e, ok)
	}
	tt.store(42, 3, 10, boundExact, 1) // shallower: the deeper result stays
	if e, _ := tt.probe(42); e.depth != 5 {
		t.Errorf("a shallower result replaced a deeper one: %+v", e)
	}
	other := uint64(42) + uint64(len(tt.slots)) // same slot, another position
	tt.store(other, 1, 7, boundExact, 0)
	if _, ok := tt.probe(42); ok {
		t.Error("the slot still answers for the replaced position")
	}
	if e, ok := tt.probe(other); !ok || e.score != 7 {
		t.Errorf("probe(other) = %+v, %v", e, ok)
	}
	tt.clear()
	if _, ok := tt.probe(other); ok {
		t.Error("clear left a position")
	}
	// Wins keep their distance from the root through the table.
	if got := fromTT(toTT(mate-7, 3), 5); got != mate-9 {
		t.Errorf("a win in 7 plies stored at ply 3, read at ply 5: %d, want %d", got, mate-9)
	}
}
