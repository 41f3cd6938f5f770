package ai

// Bounds of a score stored in the transposition table.
const (
	boundExact uint8 = iota + 1
	boundLower       // the score is at least the stored one (a beta cut-off)
	boundUpper       // the score is at most the stored one (no move raised alpha)
)

// entry is one slot of the transposition table: 16 bytes.
type entry struct {
	key   uint64
	score int16
	best  uint16 // index of the best move in the generated move list, +1 (0: none)
	depth int8
	bound uint8
	_     [2]byte
}

// table is a fixed-size transposition table indexed by the low bits of a
// Zobrist key; a slot keeps the deeper of two results for its index.
type table struct {
	slots []entry
	mask  uint64
}

// newTable returns a table of at most mb megabytes (at least 1024 slots).
func newTable(mb int) *table {
	n := uint64(1024)
	for (n*2)*16 <= uint64(mb)<<20 {
		n *= 2
	}
	return &table{slots: make([]entry, n), mask: n - 1}
}

// clear empties the table, so that a search depends only on its inputs.
func (t *table) clear() { clear(t.slots) }

// probe returns the entry of key, if the table holds it.
func (t *table) probe(key uint64) (entry, bool) {
	e := t.slots[key&t.mask]
	return e, e.key == key && e.bound != 0
}

// store records a result; it replaces a shallower result or another position's.
func (t *table) store(key uint64, depth, score int, bound uint8, best int) {
	e := &t.slots[key&t.mask]
	if e.key == key && int(e.depth) > depth && e.bound != 0 {
		return
	}
	if depth > 127 {
		depth = 127
	}
	*e = entry{key: key, score: int16(score), depth: int8(depth), bound: bound, best: uint16(best + 1)}
}
