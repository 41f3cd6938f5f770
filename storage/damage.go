package storage

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/boardgamebot/bot/sessions"
	"go.etcd.io/bbolt"
)

// A damaged file must not crash the bot. bbolt trusts its pages: a bad
// page panics, and a page past the end of a cut-short file faults in the
// memory map (SIGBUS). So Open vets an existing file before it opens it
// for writing (vet), and every transaction runs through guard, which turns
// a panic or a fault into an error wrapping sessions.ErrDamaged.

// guard runs fn, which runs bbolt transactions in this goroutine, and
// turns a panic or a memory fault (debug.SetPanicOnFault, which is per
// goroutine) into an error wrapping sessions.ErrDamaged. bbolt's View and
// Update roll their transaction back on a panic, so the store stays usable.
func guard(fn func() error) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%w (bbolt: %v)", sessions.ErrDamaged, r)
		}
	}()
	return fn()
}

// view runs fn in a read transaction through guard; what names the data
// read (a session key, a game), for the log of damage.
func (s *Store) view(what string, fn func(tx *bbolt.Tx) error) error {
	return s.damaged(what, guard(func() error { return s.db.View(fn) }))
}

// update runs fn in a write transaction through guard.
func (s *Store) update(what string, fn func(tx *bbolt.Tx) error) error {
	return s.damaged(what, guard(func() error { return s.db.Update(fn) }))
}

// damaged logs err the first time what is found damaged, and returns err.
func (s *Store) damaged(what string, err error) error {
	if !errors.Is(err, sessions.ErrDamaged) {
		return err
	}
	s.mu.Lock()
	first := !s.logged[what]
	s.logged[what] = true
	s.mu.Unlock()
	if first {
		s.log.Error("storage: damaged data", "key", what, "file", s.db.Path(), "err", err)
	}
	return err
}

// damage marks a record that does not decode.
func damage(err error) error { return fmt.Errorf("%w: %v", sessions.ErrDamaged, err) }

// refusal is Open's error for a file it will not open: the file, what is
// wrong with it, and whether it is damaged (rather than someone else's).
type refusal struct {
	path    string
	what    string
	damaged bool
}

func (r *refusal) Error() string {
	return "storage: " + r.path + " " + r.what + "; the file was not changed"
}

// Unwrap gives ErrNotBotDB, and sessions.ErrDamaged for a damaged file.
func (r *refusal) Unwrap() []error {
	if r.damaged {
		return []error{ErrNotBotDB, sessions.ErrDamaged}
	}
	return []error{ErrNotBotDB}
}

// vet checks an existing database file without changing it, before Open
// opens it for writing: it reads the header pages itself (preflight), then
// opens the file read-only (a shared lock: a running bot holds it
// exclusively) and reads every page through guard before bbolt's own
// consistency check, which runs in a goroutine of bbolt's where a fault
// could not be caught.
func vet(path string, timeout time.Duration) error {
	var ro *bbolt.DB
	err := guard(func() (err error) {
		ro, err = bbolt.Open(path, 0o600, &bbolt.Options{ReadOnly: true, Timeout: timeout})
		return err
	})
	if errors.Is(err, bbolt.ErrTimeout) {
		return fmt.Errorf("%w: %s is open in another process (is the bot already running?)", ErrLocked, path)
	}
	if ro != nil {
		defer ro.Close()
	}
	if r := preflight(path); r != nil {
		return r
	}
	if err != nil {
		return &refusal{path, fmt.Sprintf("cannot be opened by bbolt (%v)", err), errors.Is(err, sessions.ErrDamaged)}
	}
	if err := guard(func() error { return ro.View(func(tx *bbolt.Tx) error { return checkApp(tx, path) }) }); err != nil {
		if errors.Is(err, ErrNotBotDB) {
			return err
		}
		return &refusal{path, fmt.Sprintf("is damaged: %v", err), true}
	}
	if err := check(ro); err != nil {
		return &refusal{path, fmt.Sprintf("is damaged: %v", err), true}
	}
	return nil
}

// checkApp refuses a bbolt database of another program or of a newer schema.
func checkApp(tx *bbolt.Tx, path string) error {
	m := tx.Bucket(bMeta)
	if m == nil {
		var names []string
		_ = tx.ForEach(func(name []byte, _ *bbolt.Bucket) error {
			names = append(names, strconv.Quote(string(name)))
			return nil
		})
		if len(names) > 0 {
			return &refusal{path, fmt.Sprintf("is a bbolt database of another program (buckets %s)", strings.Join(names, ", ")), false}
		}
		return nil
	}
	if app := string(m.Get([]byte("app"))); app != App {
		return &refusal{path, fmt.Sprintf("belongs to %q", app), false}
	}
	if v, _ := strconv.Atoi(string(m.Get([]byte("schema")))); v > SchemaVersion {
		return &refusal{path, fmt.Sprintf("has schema %d, newer than this bot's %d", v, SchemaVersion), false}
	}
	return nil
}

// check reads every key and value of every bucket through guard (so that
// a page out of the file faults here, where it is caught), then runs
// bbolt's consistency check (Tx.Check) on pages now known to be readable.
func check(db *bbolt.DB) error {
	return guard(func() error {
		return db.View(func(tx *bbolt.Tx) error {
			if err := tx.ForEach(func(_ []byte, b *bbolt.Bucket) error { return readBucket(b) }); err != nil {
				return err
			}
			var first error
			n := 0
			for err := range tx.Check() {
				if n++; first == nil {
					first = err
				}
			}
			switch {
			case n == 1:
				return fmt.Errorf("%w: %w", sessions.ErrDamaged, first)
			case n > 1:
				return fmt.Errorf("%w: %w (and %d more problems)", sessions.ErrDamaged, first, n-1)
			}
			return nil
		})
	})
}

// readBucket touches the last byte of every key and value of b and of its
// nested buckets.
func readBucket(b *bbolt.Bucket) error {
	var sink byte
	c := b.Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		sink ^= k[len(k)-1]
		if v == nil {
			if child := b.Bucket(k); child != nil {
				if err := readBucket(child); err != nil {
					return err
				}
			}
		} else if len(v) > 0 {
			sink ^= v[len(v)-1]
		}
	}
	_ = sink
	return nil
}

// The layout of bbolt's pages (go.etcd.io/bbolt/internal/common): a page
// header of 16 bytes (id, flags, count, overflow), and in the two first
// pages the meta (magic, version, page size, flags, root bucket, free list
// page, page count, transaction id, checksum of what precedes it).
const (
	boltMagic    = 0xED0CDAED
	boltVersion  = 2
	pageHeader   = 16
	metaSize     = 64
	freelistFlag = 0x10
)

// meta is what a meta page says.
type meta struct {
	magic, version, pageSize uint32
	root, freelist, pgid     uint64
	txid                     uint64
	sumOK                    bool
}

func (m meta) valid() bool { return m.magic == boltMagic && m.version == boltVersion && m.sumOK }

func parseMeta(page []byte) (meta, bool) {
	if len(page) < pageHeader+metaSize {
		return meta{}, false
	}
	b := page[pageHeader : pageHeader+metaSize]
	e := binary.NativeEndian
	h := fnv.New64a()
	h.Write(b[:56])
	return meta{
		magic: e.Uint32(b[0:]), version: e.Uint32(b[4:]), pageSize: e.Uint32(b[8:]),
		root: e.Uint64(b[16:]), freelist: e.Uint64(b[32:]), pgid: e.Uint64(b[40:]), txid: e.Uint64(b[48:]),
		sumOK: h.Sum64() == e.Uint64(b[56:]),
	}, true
}

// preflight reads the two meta pages and the free list of an existing file
// with plain reads (no memory map), as bbolt would find them, and says what
// is wrong: not a bbolt file, both meta pages bad, a file shorter than its
// meta says (cut short), a meta or free list pointing outside the file.
func preflight(path string) *refusal {
	f, err := os.Open(path)
	if err != nil {
		return &refusal{path, fmt.Sprintf("cannot be read (%v)", err), false}
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return &refusal{path, fmt.Sprintf("cannot be read (%v)", err), false}
	}
	size := fi.Size()
	if size < 4096 {
		return &refusal{path, fmt.Sprintf("is too small to be a database (%d bytes)", size), false}
	}
	read := func(off, n int64) []byte {
		b := make([]byte, n)
		k, err := f.ReadAt(b, off)
		if err != nil && !errors.Is(err, io.EOF) {
			return nil
		}
		return b[:k]
	}
	m0, _ := parseMeta(read(0, 4096))
	var m1 meta
	if m0.valid() {
		m1, _ = parseMeta(read(int64(m0.pageSize), 4096))
	} else {
		// The page size is not known: try those bbolt tries.
		for i := 0; i <= 14; i++ {
			pos := int64(1024) << i
			if pos >= size-1024 {
				break
			}
			if m, ok := parseMeta(read(pos, 4096)); ok && m.valid() {
				m1 = m
				break
			}
		}
	}
	m := m0
	if m1.valid() && (!m0.valid() || m1.txid > m0.txid) {
		m = m1
	}
	switch {
	case m.valid():
	case m0.magic != boltMagic && m1.magic != boltMagic:
		return &refusal{path, "is not a bbolt database (no bbolt header)", false}
	case m0.version != boltVersion && m1.version != boltVersion:
		return &refusal{path, fmt.Sprintf("is a bbolt database of format %d, not %d", max(m0.version, m1.version), boltVersion), false}
	default:
		return &refusal{path, "is damaged: both of its header pages are unreadable (bad checksums)", true}
	}
	ps := int64(m.pageSize)
	switch {
	case ps < 1024 || ps&(ps-1) != 0:
		return &refusal{path, fmt.Sprintf("is damaged: its header says pages of %d bytes", ps), true}
	case m.pgid > uint64(size/ps):
		return &refusal{path, fmt.Sprintf("is damaged: it is cut short, %d bytes where its header says %d (a half-copied file, or a disk that was full?)", size, m.pgid*uint64(ps)), true}
	case m.root < 2 || m.root >= m.pgid:
		return &refusal{path, fmt.Sprintf("is damaged: its root page %d is outside the file's %d pages", m.root, m.pgid), true}
	case m.freelist < 2 || m.freelist >= m.pgid:
		return &refusal{path, fmt.Sprintf("is damaged: its free-page list (page %d) is outside the file's %d pages", m.freelist, m.pgid), true}
	}
	if why := checkFreelist(read, m, ps); why != "" {
		return &refusal{path, "is damaged: its free-page list " + why, true}
	}
	return nil
}

// checkFreelist checks the free list page of m: its header, that its ids
// fit in its pages, and that they are pages of the file.
func checkFreelist(read func(off, n int64) []byte, m meta, ps int64) string {
	e := binary.NativeEndian
	h := read(int64(m.freelist)*ps, pageHeader+8)
	if len(h) < pageHeader+8 {
		return "is unreadable"
	}
	id, flags, count, overflow := e.Uint64(h), e.Uint16(h[8:]), uint64(e.Uint16(h[10:])), uint64(e.Uint32(h[12:]))
	if id != m.freelist || flags != freelistFlag || m.freelist+overflow >= m.pgid {
		return fmt.Sprintf("(page %d) has a bad header", m.freelist)
	}
	span := (overflow + 1) * uint64(ps)
	first := uint64(0)
	if count == 0xFFFF {
		count, first = e.Uint64(h[pageHeader:]), 1
	}
	if count > (span-pageHeader)/8-first {
		return fmt.Sprintf("(page %d) counts %d pages, more than it holds", m.freelist, count)
	}
	b := read(int64(m.freelist)*ps, int64(span))
	if uint64(len(b)) < span {
		return "is unreadable"
	}
	for i := range count {
		if p := e.Uint64(b[pageHeader+8*(first+i):]); p < 2 || p >= m.pgid {
			return fmt.Sprintf("(page %d) lists page %d, outside the file's %d pages", m.freelist, p, m.pgid)
		}
	}
	return ""
}
