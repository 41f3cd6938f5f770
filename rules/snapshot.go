package rules

import "encoding/binary"

// SnapshotReader reads the bytes a Saver wrote: single bytes,
// little-endian fixed-width numbers and varints. The first read past the
// end, or a varint over its limit, sticks: Bad reports it and every later
// read returns 0, so a Restorer checks Bad once after a group of reads
// instead of after each.
type SnapshotReader struct {
	b   []byte
	bad bool
}

// NewSnapshotReader reads b.
func NewSnapshotReader(b []byte) *SnapshotReader { return &SnapshotReader{b: b} }

// Bad reports whether a read failed.
func (r *SnapshotReader) Bad() bool { return r.bad }

// Len is the number of bytes not read yet.
func (r *SnapshotReader) Len() int { return len(r.b) }

// take returns the next n bytes, or nil (and Bad) when fewer are left.
func (r *SnapshotReader) take(n int) []byte {
	if r.bad || len(r.b) < n {
		r.bad = true
		return nil
	}
	out := r.b[:n]
	r.b = r.b[n:]
	return out
}

// Byte reads one byte.
func (r *SnapshotReader) Byte() byte {
	if b := r.take(1); b != nil {
		return b[0]
	}
	return 0
}

// Uint32 reads a little-endian uint32.
func (r *SnapshotReader) Uint32() uint32 {
	if b := r.take(4); b != nil {
		return binary.LittleEndian.Uint32(b)
	}
	return 0
}

// Uint64 reads a little-endian uint64.
func (r *SnapshotReader) Uint64() uint64 {
	if b := r.take(8); b != nil {
		return binary.LittleEndian.Uint64(b)
	}
	return 0
}

// Uvarint reads an unsigned varint of at most limit.
func (r *SnapshotReader) Uvarint(limit uint64) uint64 {
	if r.bad {
		return 0
	}
	x, n := binary.Uvarint(r.b)
	if n <= 0 || x > limit {
		r.bad = true
		return 0
	}
	r.b = r.b[n:]
	return x
}
