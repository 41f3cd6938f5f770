package storage

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/boardgamebot/bot/sessions"
	"go.etcd.io/bbolt"
)

// The layout of schema 2. A live session is a head, its record without
// the actions (bucket live), and a move log: one key per action, the
// session key, 0 and the action's index as 4 bytes (bucket moves), so that
// a move writes the head and one log entry, whatever the length of the
// game. The live sessions whose clock has something to do are indexed by
// when (bucket due: 8 bytes of unix nanoseconds and the session key;
// bucket due_of: the session key and those 8 bytes, to find the entry to
// replace). A finished game is one record with all its actions (bucket
// games), written in the transaction that ends the game, which drops its
// log.
var (
	bMoves = []byte("moves")
	bDue   = []byte("due")
	bDueOf = []byte("due_of")
)

// logPrefix is the prefix of the log keys of the session key k.
func logPrefix(k []byte) []byte {
	p := make([]byte, len(k)+1, len(k)+5)
	copy(p, k)
	return p
}

// logKey is the key of action i of the session whose prefix is p.
func logKey(p []byte, i int) []byte {
	return binary.BigEndian.AppendUint32(p[:len(p):len(p)], uint32(i))
}

// logLen returns how many actions the log of prefix p holds: one more
// than the index of its last key.
func logLen(moves *bbolt.Bucket, p []byte) int {
	c := moves.Cursor()
	k, _ := c.Seek(logKey(p, 1<<32-1))
	if k == nil {
		k, _ = c.Last()
	} else if len(k) != len(p)+4 || !bytes.HasPrefix(k, p) {
		k, _ = c.Prev()
	}
	if k == nil || len(k) != len(p)+4 || !bytes.HasPrefix(k, p) {
		return 0
	}
	return int(binary.BigEndian.Uint32(k[len(p):])) + 1
}

// putLog makes the log of prefix p hold acts: it writes the actions past
// the ones it holds (a move: one key) and drops the ones past len(acts)
// (a takeback). The actions it holds are acts' first ones: a session's
// actions only grow at the end, or are cut back.
func putLog(moves *bbolt.Bucket, p []byte, acts []sessions.Action) error {
	n := logLen(moves, p)
	for i := len(acts); i < n; i++ {
		if err := moves.Delete(logKey(p, i)); err != nil {
			return err
		}
	}
	for i := n; i < len(acts); i++ {
		if err := moves.Put(logKey(p, i), encodeAction(acts[i])); err != nil {
			return err
		}
	}
	return nil
}

// dropLog deletes the log of prefix p.
func dropLog(moves *bbolt.Bucket, p []byte) error {
	c := moves.Cursor()
	for k, _ := c.Seek(p); k != nil && bytes.HasPrefix(k, p); k, _ = c.Seek(p) {
		if len(k) != len(p)+4 {
			return nil // the log of another session (this one's key continues)
		}
		if err := c.Delete(); err != nil {
			return err
		}
	}
	return nil
}

// readLog returns the actions of the log of prefix p.
func readLog(moves *bbolt.Bucket, p []byte) ([]sessions.Action, error) {
	var out []sessions.Action
	c := moves.Cursor()
	for k, v := c.Seek(p); k != nil && bytes.HasPrefix(k, p); k, v = c.Next() {
		if len(k) != len(p)+4 {
			continue
		}
		if i := int(binary.BigEndian.Uint32(k[len(p):])); i != len(out) {
			return nil, damage(fmt.Errorf("move %d of the log is missing", len(out)+1))
		}
		a, err := decodeAction(v)
		if err != nil {
			return nil, damage(fmt.Errorf("move %d: %w", len(out)+1, err))
		}
		out = append(out, a)
	}
	return out, nil
}

// An action in the log: a version byte (1), the kind's length and kind,
// the seat (uvarint), the time's length and time (time.MarshalBinary), and
// the text.
func encodeAction(a sessions.Action) []byte {
	at, _ := a.At.MarshalBinary() // only fails for odd time zones: a.At is UTC
	b := make([]byte, 0, 4+len(a.Kind)+len(at)+len(a.Text))
	b = append(b, 1, byte(len(a.Kind)))
	b = append(b, a.Kind...)
	b = binary.AppendUvarint(b, uint64(a.Seat))
	b = append(b, byte(len(at)))
	b = append(b, at...)
	return append(b, a.Text...)
}

var errBadAction = errors.New("bad action")

func decodeAction(v []byte) (sessions.Action, error) {
	var a sessions.Action
	if len(v) < 2 || v[0] != 1 {
		return a, errBadAction
	}
	n := int(v[1])
	v = v[2:]
	if len(v) < n {
		return a, errBadAction
	}
	a.Kind, v = sessions.ActionKind(v[:n]), v[n:]
	seat, w := binary.Uvarint(v)
	if w <= 0 || seat > 1<<16 {
		return a, errBadAction
	}
	a.Seat, v = int(seat), v[w:]
	if len(v) < 1 || len(v) < 1+int(v[0]) {
		return a, errBadAction
	}
	if err := a.At.UnmarshalBinary(v[1 : 1+int(v[0])]); err != nil {
		return a, errBadAction
	}
	a.Text = string(v[1+int(v[0]):])
	return a, nil
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
		live, moves := tx.Bucket(bLive), tx.Bucket(bMoves)
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
			if err := putLog(moves, logPrefix(x.k), x.r.Actions); err != nil {
				return err
			}
			v, err := encodeHead(x.r)
			if err != nil {
				return err
			}
			if err := live.Put(x.k, v); err != nil {
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

// encodeHead encodes a live session's head: its record without actions.
func encodeHead(r *sessions.Record) ([]byte, error) {
	h := *r
	h.Actions = nil
	return encode(&h)
}
