package bolt

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"strconv"
	"time"

	"github.com/boardgamebot/bot/sessions"
	"go.etcd.io/bbolt"
)

// The layout of schema 2. A live session is a head under its key in
// bucket live: its record without the actions, in JSON, then a zero byte,
// a byte of flags (headComputer), the JSON's CRC-32 (4 bytes), how many
// actions are in chunks, and its newest actions (fewer than chunkSize). Its older actions are in
// bucket moves, chunkSize to a key: the session key, 0 and the index of
// the chunk's first action (4 bytes). So a move rewrites the head alone,
// and every chunkSize moves one chunk moves to bucket moves: the pages a
// move writes and the bytes it encodes are the same at any ply. The live
// sessions whose clock has something to do are indexed by when (bucket
// due: 8 bytes of unix nanoseconds and the session key; bucket due_of: the
// session key and those 8 bytes, to find the entry to replace). A
// finished game is one record with all its actions (bucket games),
// written in the transaction that ends the game, which drops its chunks.
var (
	bMoves = []byte("moves")
	bDue   = []byte("due")
	bDueOf = []byte("due_of")
)

// chunkSize is how many actions a chunk of bucket moves holds.
const chunkSize = 32

// logPrefix is the prefix of the chunk keys of the session key k.
func logPrefix(k []byte) []byte {
	p := make([]byte, len(k)+1, len(k)+5)
	copy(p, k)
	return p
}

// chunkKey is the key of the chunk that starts at action i.
func chunkKey(p []byte, i int) []byte {
	return binary.BigEndian.AppendUint32(p[:len(p):len(p)], uint32(i))
}

// putLive writes the live session r under the key k: its head with its
// newest actions, after moving full chunks of older ones to bucket moves
// (or dropping the chunks past its actions: a takeback). The actions
// stored are r.Actions' first ones: a session's actions only grow at the
// end, or are cut back.
//
// How many actions are in chunks is read from the old head, never
// searched for in bucket moves: putLive runs in the group commit's write
// transaction, after other sessions of the batch may have deleted their
// chunks, and bbolt v1.5.0's Cursor.Last never returns once every key of
// a bucket spanning several pages was deleted in the transaction (its
// loop over empty leaves goes back to the first one for ever: issue 24,
// TestBboltLastAfterDeletingEverything); Prev may step over emptied
// leaves too. So no write transaction of this package calls Last or
// Prev: they seek forward (First, Seek, Next skip emptied leaves).
func putLive(tx *bbolt.Tx, k []byte, r *sessions.Record) error {
	moves, p := tx.Bucket(bMoves), logPrefix(k)
	moves.FillPercent = 0.9 // a session's chunks come in order
	acts := r.Actions
	base := 0 // the first action not in a chunk
	if old := tx.Bucket(bLive).Get(k); old != nil {
		h, err := splitHead(old)
		if err != nil {
			// A damaged head, or a schema-1 record being migrated: its
			// chunks, if any, are not known; write them all again.
			if err := dropChunks(moves, p); err != nil {
				return err
			}
		}
		base = h.base
	}
	for base > len(acts) {
		base -= chunkSize
		if err := moves.Delete(chunkKey(p, base)); err != nil {
			return err
		}
	}
	for len(acts)-base >= chunkSize {
		if err := moves.Put(chunkKey(p, base), appendActions(nil, acts[base:base+chunkSize])); err != nil {
			return err
		}
		base += chunkSize
	}
	v, err := encodeHead(r, base, acts[base:])
	if err != nil {
		return err
	}
	return tx.Bucket(bLive).Put(k, v)
}

// dropLive deletes the live session of key k: its head and its chunks.
func dropLive(tx *bbolt.Tx, k []byte) error {
	if err := tx.Bucket(bLive).Delete(k); err != nil {
		return err
	}
	return dropChunks(tx.Bucket(bMoves), logPrefix(k))
}

// dropChunks deletes the chunks of the session whose chunk keys start
// with p.
func dropChunks(moves *bbolt.Bucket, p []byte) error {
	return deleteFrom(moves, p, func(k []byte) (bool, error) { return bytes.HasPrefix(k, p), nil })
}

// deleteFrom deletes the keys of b from the key from on, in order, as
// long as del reports true for them (del may write other buckets). It
// seeks again after each delete, as bbolt asks of a cursor after a
// change, and only forward (see putLive).
func deleteFrom(b *bbolt.Bucket, from []byte, del func(k []byte) (bool, error)) error {
	c := b.Cursor()
	for k, _ := c.Seek(from); k != nil; k, _ = c.Seek(from) {
		if ok, err := del(k); !ok || err != nil {
			return err
		}
		from = bytes.Clone(k) // k is bbolt's, and about to be deleted
		if err := c.Delete(); err != nil {
			return err
		}
	}
	return nil
}

// loadLive reads the live session of key k whose head is v, with all its
// actions.
func loadLive(tx *bbolt.Tx, k, v []byte) (*sessions.Record, error) {
	h, err := splitHead(v)
	if err != nil {
		return nil, err
	}
	rec, err := decode(h.js)
	if err != nil {
		return nil, err
	}
	p := logPrefix(k)
	var acts []sessions.Action
	c := tx.Bucket(bMoves).Cursor()
	for k, v := c.Seek(p); k != nil && bytes.HasPrefix(k, p); k, v = c.Next() {
		if len(k) != len(p)+4 || int(binary.BigEndian.Uint32(k[len(p):])) != len(acts) {
			return nil, damage(fmt.Errorf("move %d of the log is missing", len(acts)+1))
		}
		n := len(acts)
		if acts, err = readActions(acts, v); err != nil || len(acts) != n+chunkSize {
			return nil, damage(fmt.Errorf("moves %d to %d: bad chunk", n+1, n+chunkSize))
		}
	}
	if len(acts) != h.base {
		return nil, damage(fmt.Errorf("moves %d to %d are missing", len(acts)+1, h.base))
	}
	if acts, err = readActions(acts, h.newest); err != nil {
		return nil, damage(fmt.Errorf("the newest moves: %w", err))
	}
	rec.Actions = acts
	return rec, nil
}

// headParts are the parts of a head (encodeHead).
type headParts struct {
	js     []byte // the record without its actions
	flags  byte
	base   int    // how many actions are in chunks
	newest []byte // the newest actions (appendActions)
}

// splitHead splits the head v, checking its JSON against its checksum
// and its count of actions in chunks; an error wraps sessions.ErrDamaged.
func splitHead(v []byte) (headParts, error) {
	js, tail, _ := bytes.Cut(v, []byte{0})
	if len(tail) < 5 || crc32.ChecksumIEEE(js) != binary.BigEndian.Uint32(tail[1:5]) {
		return headParts{}, damage(errors.New("bad head"))
	}
	base, w := binary.Uvarint(tail[5:])
	if w <= 0 || base%chunkSize != 0 || base > 1<<32 {
		return headParts{}, damage(errors.New("bad head"))
	}
	return headParts{js: js, flags: tail[0], base: int(base), newest: tail[5+w:]}, nil
}

// headComputer, in a head's flags: the session is a game in play with a
// computer seat (sessions.LiveEntry.Computer).
const headComputer = 1

// encodeHead encodes a live session's head: its record without actions,
// a zero byte (JSON has none), its flags, how many actions are in chunks
// (uvarint) and tail, its newest actions.
func encodeHead(r *sessions.Record, base int, tail []sessions.Action) ([]byte, error) {
	h := *r
	h.Actions = nil
	v, err := encode(&h)
	if err != nil {
		return nil, err
	}
	var flags byte
	if r.Entry().Computer {
		flags |= headComputer
	}
	sum := crc32.ChecksumIEEE(v)
	v = binary.AppendUvarint(binary.BigEndian.AppendUint32(append(v, 0, flags), sum), uint64(base))
	return appendActions(v, tail), nil
}

// decodeHead decodes the record of a head, without its actions.
func decodeHead(v []byte) (*sessions.Record, error) {
	h, err := splitHead(v)
	if err != nil {
		return nil, err
	}
	return decode(h.js)
}

// The actions of a head or a chunk, one after the other, each: a byte
// of its kind (kindCode; 0: the kind's length and text follow) with
// bit actionNoTime when At is zero, the seat (uvarint), At in unix
// nanoseconds (varint, UTC), the text's length (uvarint) and the text.
func kindCode(k sessions.ActionKind) byte {
	switch k {
	case sessions.ActMove:
		return 1
	case sessions.ActForm:
		return 2
	case sessions.ActHuff:
		return 3
	case sessions.ActRetire:
		return 4
	}
	return 0
}

// kindOf is the kind of a code of kindCode other than 0.
func kindOf(code byte) (sessions.ActionKind, bool) {
	switch code {
	case 1:
		return sessions.ActMove, true
	case 2:
		return sessions.ActForm, true
	case 3:
		return sessions.ActHuff, true
	case 4:
		return sessions.ActRetire, true
	}
	return "", false
}

const actionNoTime = 0x80

// appendActions appends acts to b.
func appendActions(b []byte, acts []sessions.Action) []byte {
	for _, a := range acts {
		code := kindCode(a.Kind)
		if a.At.IsZero() {
			code |= actionNoTime
		}
		b = append(b, code)
		if code&^actionNoTime == 0 {
			b = binary.AppendUvarint(b, uint64(len(a.Kind)))
			b = append(b, a.Kind...)
		}
		b = binary.AppendUvarint(b, uint64(a.Seat))
		if !a.At.IsZero() {
			b = binary.AppendVarint(b, a.At.UnixNano())
		}
		b = binary.AppendUvarint(b, uint64(len(a.Text)))
		b = append(b, a.Text...)
	}
	return b
}

var errBadAction = errors.New("bad action")

// readActions appends to acts the actions appendActions wrote in b.
func readActions(acts []sessions.Action, b []byte) ([]sessions.Action, error) {
	str := func() (string, bool) {
		n, w := binary.Uvarint(b)
		if w <= 0 || n > uint64(len(b)-w) {
			return "", false
		}
		t := string(b[w : w+int(n)])
		b = b[w+int(n):]
		return t, true
	}
	for len(b) > 0 {
		var a sessions.Action
		code := b[0]
		b = b[1:]
		if kind, ok := kindOf(code &^ actionNoTime); ok {
			a.Kind = kind
		} else if kind, ok := str(); code&^actionNoTime == 0 && ok {
			a.Kind = sessions.ActionKind(kind)
		} else {
			return acts, errBadAction
		}
		seat, w := binary.Uvarint(b)
		if w <= 0 || seat > 1<<16 {
			return acts, errBadAction
		}
		a.Seat, b = int(seat), b[w:]
		if code&actionNoTime == 0 {
			at, w := binary.Varint(b)
			if w <= 0 {
				return acts, errBadAction
			}
			a.At, b = time.Unix(0, at).UTC(), b[w:]
		}
		text, ok := str()
		if !ok {
			return acts, errBadAction
		}
		a.Text = text
		acts = append(acts, a)
	}
	return acts, nil
}

// putDue indexes the session of key k under when its clock next has
// something to do (none: zero), replacing its entry.
func putDue(tx *bbolt.Tx, k []byte, due time.Time) error {
	idx, of := tx.Bucket(bDue), tx.Bucket(bDueOf)
	var at []byte
	if !due.IsZero() {
		at = binary.BigEndian.AppendUint64(nil, uint64(max(due.UnixNano(), 0)))
	}
	old := of.Get(k)
	if bytes.Equal(old, at) && (old == nil) == (at == nil) {
		return nil
	}
	if old != nil {
		if err := idx.Delete(append(bytes.Clone(old), k...)); err != nil {
			return err
		}
	}
	if at == nil {
		return of.Delete(k)
	}
	if err := idx.Put(append(bytes.Clone(at), k...), nil); err != nil {
		return err
	}
	return of.Put(k, at)
}

// migrate brings a database of schema 1 (each live session one record
// with all its actions) to schema 2, in one transaction: each live record
// becomes a head and a move log, and is indexed by when it is due. A
// record that does not decode stays as it is (it is damage, found when
// read); nothing else changes.
func (s *Store) migrate() error {
	schema := 0
	if err := s.view("schema", func(tx *bbolt.Tx) error {
		schema, _ = strconv.Atoi(string(tx.Bucket(bMeta).Get([]byte("schema"))))
		return nil
	}); err != nil || schema >= SchemaVersion {
		return err
	}
	n := 0
	err := s.update("migration to schema 2", func(tx *bbolt.Tx) error {
		live := tx.Bucket(bLive)
		type rec struct {
			k []byte
			r *sessions.Record
		}
		var recs []rec
		if err := live.ForEach(func(k, v []byte) error {
			if r, err := decode(v); err == nil {
				recs = append(recs, rec{bytes.Clone(k), r})
			}
			return nil
		}); err != nil {
			return err
		}
		for _, x := range recs {
			if err := putLive(tx, x.k, x.r); err != nil {
				return err
			}
			if err := putDue(tx, x.k, x.r.Due()); err != nil {
				return err
			}
			n++
		}
		return tx.Bucket(bMeta).Put([]byte("schema"), []byte(strconv.Itoa(SchemaVersion)))
	})
	if err == nil {
		s.log.Info("database migrated", "from_schema", schema, "to_schema", SchemaVersion, "live_sessions", n)
	}
	return err
}

// liveIndex reads what start-up needs of every live session: the due
// index in time order, then each head's key and flags, and whether its
// JSON matches its checksum (a head that does not is damage, skipped and
// logged). It decodes no record.
func (s *Store) liveIndex(tx *bbolt.Tx, damaged *[]error) ([]sessions.LiveEntry, error) {
	due := map[string]time.Time{}
	c := tx.Bucket(bDue).Cursor()
	for k, _ := c.First(); k != nil; k, _ = c.Next() {
		if len(k) < 8 {
			return nil, damage(fmt.Errorf("bad due index key %q", k))
		}
		due[string(k[8:])] = time.Unix(0, int64(binary.BigEndian.Uint64(k[:8]))).UTC()
	}
	var out []sessions.LiveEntry
	err := tx.Bucket(bLive).ForEach(func(k, v []byte) error {
		key, ok := parseKey(k)
		h, err := splitHead(v)
		if !ok && err == nil {
			err = damage(errors.New("bad key"))
		}
		if err != nil {
			what := "session " + keyString(k)
			*damaged = append(*damaged, s.damaged(what, fmt.Errorf("storage: %s: %w", what, err)))
			return nil
		}
		out = append(out, sessions.LiveEntry{Key: key, Due: due[string(k)], Computer: h.flags&headComputer != 0})
		return nil
	})
	return out, err
}
