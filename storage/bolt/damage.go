package bolt

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"io/fs"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/boardgamebot/bot/sessions"
	"go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
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
	if errors.Is(err, berrors.ErrTimeout) {
		return fmt.Errorf("%w: %s is open in another process (is the bot already running?)", ErrLocked, path)
	}
	if errors.Is(err, fs.ErrPermission) {
		return fmt.Errorf("storage: opening %s: %w", path, err)
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

// check runs bbolt's consistency check (Tx.Check: the free list against
// the pages in use, the order of keys). Tx.Check reads the pages in a
// goroutine of bbolt's, where a fault cannot be caught: run it only on a
// file that preflight passed, whose pages all lie inside the file.
func check(db *bbolt.DB) error {
	return guard(func() error {
		return db.View(func(tx *bbolt.Tx) error {
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

// The layout of bbolt's pages (go.etcd.io/bbolt/internal/common): a page
// header of 16 bytes (id, flags, count, overflow), and in the two first
// pages the meta (magic, version, page size, flags, root bucket, free list
// page, page count, transaction id, checksum of what precedes it).
const (
	boltMagic    = 0xED0CDAED
	boltVersion  = 2
	pageHeader   = 16
	metaSize     = 64
	branchFlag   = 0x01
	leafFlag     = 0x02
	freelistFlag = 0x10
	bucketFlag   = 0x01 // of a leaf element: the value is a bucket
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

// preflight reads the two meta pages, the free list and every page of the
// tree of an existing file with plain reads (no memory map), as bbolt
// would find them, and says what is wrong: not a bbolt file, both meta
// pages bad, a file shorter than its meta says (cut short), a page number
// outside the file, an element outside its page. What passes, bbolt can
// read through its memory map without a fault.
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
	read := func(b []byte, off, n int64) []byte {
		if int64(cap(b)) < n {
			b = make([]byte, n)
		}
		b = b[:n]
		k, err := f.ReadAt(b, off)
		if err != nil && !errors.Is(err, io.EOF) {
			return nil
		}
		return b[:k]
	}
	m0, _ := parseMeta(read(nil, 0, 4096))
	var m1 meta
	if m0.valid() {
		m1, _ = parseMeta(read(nil, int64(m0.pageSize), 4096))
	} else {
		// The page size is not known: try those bbolt tries.
		for i := 0; i <= 14; i++ {
			pos := int64(1024) << i
			if pos >= size-1024 {
				break
			}
			if m, ok := parseMeta(read(nil, pos, 4096)); ok && m.valid() {
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
	w := &walker{read: read, ps: ps, hwm: m.pgid, seen: make([]bool, m.pgid)}
	w.seen[0], w.seen[1], w.seen[m.freelist] = true, true, true
	if why := w.page(m.root, 0); why != "" {
		return &refusal{path, "is damaged: " + why, true}
	}
	return nil
}

// walker checks the pages of the tree with plain reads of the file.
type walker struct {
	read func(b []byte, off, n int64) []byte
	ps   int64
	hwm  uint64   // the number of pages of the file, from its meta
	seen []bool   // the pages reached (a page reached twice is a loop)
	bufs [][]byte // a buffer per depth, reused
}

// page checks page id and the pages below it.
func (w *walker) page(id uint64, depth int) string {
	switch {
	case id < 2 || id >= w.hwm:
		return fmt.Sprintf("it refers to page %d, outside its %d pages", id, w.hwm)
	case depth > 64:
		return "its tree of pages is too deep (a loop?)"
	case w.seen[id]:
		return fmt.Sprintf("page %d is used twice", id)
	}
	e := binary.NativeEndian
	for len(w.bufs) <= depth {
		w.bufs = append(w.bufs, nil)
	}
	h := w.read(w.bufs[depth], int64(id)*w.ps, w.ps)
	w.bufs[depth] = h
	if int64(len(h)) < w.ps {
		return fmt.Sprintf("page %d is unreadable", id)
	}
	overflow := uint64(e.Uint32(h[12:]))
	switch {
	case e.Uint64(h) != id:
		return fmt.Sprintf("page %d says it is page %d", id, e.Uint64(h))
	case id+overflow >= w.hwm:
		return fmt.Sprintf("page %d runs %d pages past the end", id, id+overflow+1-w.hwm)
	}
	for i := id; i <= id+overflow; i++ {
		if w.seen[i] {
			return fmt.Sprintf("page %d is used twice", i)
		}
		w.seen[i] = true
	}
	b := h
	if overflow > 0 {
		b = w.read(h, int64(id)*w.ps, int64(overflow+1)*w.ps)
		w.bufs[depth] = b
		if int64(len(b)) < int64(overflow+1)*w.ps {
			return fmt.Sprintf("page %d is unreadable", id)
		}
	}
	return w.elements(b, id, depth)
}

// elements checks that the elements of page p (page id of the file, or
// the page of an inline bucket inside a value when id is 0) lie inside it,
// and the pages they refer to.
func (w *walker) elements(p []byte, id uint64, depth int) string {
	e := binary.NativeEndian
	flags, count := e.Uint16(p[8:]), uint64(e.Uint16(p[10:]))
	if flags != branchFlag && flags != leafFlag || id == 0 && flags != leafFlag {
		return fmt.Sprintf("page %d is neither a branch nor a leaf (flags %#x)", id, flags)
	}
	if pageHeader+16*count > uint64(len(p)) {
		return fmt.Sprintf("page %d counts %d elements, more than it holds", id, count)
	}
	for i := range count {
		el := pageHeader + 16*i
		if flags == branchFlag {
			pos, ksize := uint64(e.Uint32(p[el:])), uint64(e.Uint32(p[el+4:]))
			if el+pos+ksize > uint64(len(p)) {
				return fmt.Sprintf("page %d: element %d lies outside the page", id, i)
			}
			if why := w.page(e.Uint64(p[el+8:]), depth+1); why != "" {
				return why
			}
			continue
		}
		fl, pos := e.Uint32(p[el:]), uint64(e.Uint32(p[el+4:]))
		ksize, vsize := uint64(e.Uint32(p[el+8:])), uint64(e.Uint32(p[el+12:]))
		end := el + pos + ksize + vsize
		if end > uint64(len(p)) {
			return fmt.Sprintf("page %d: element %d lies outside the page", id, i)
		}
		if fl&bucketFlag == 0 {
			continue
		}
		v := p[end-vsize : end]
		switch {
		case len(v) < 16:
			return fmt.Sprintf("page %d: bucket %d is %d bytes", id, i, len(v))
		case e.Uint64(v) != 0:
			if why := w.page(e.Uint64(v), depth+1); why != "" {
				return why
			}
		case id == 0 || len(v) < 16+pageHeader:
			return fmt.Sprintf("page %d: bucket %d is damaged", id, i)
		default:
			if why := w.elements(v[16:], 0, depth+1); why != "" {
				return why
			}
		}
	}
	return ""
}

// checkFreelist checks the free list page of m: its header, that its ids
// fit in its pages, and that they are pages of the file.
func checkFreelist(read func(b []byte, off, n int64) []byte, m meta, ps int64) string {
	e := binary.NativeEndian
	h := read(nil, int64(m.freelist)*ps, pageHeader+8)
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
	b := read(nil, int64(m.freelist)*ps, int64(span))
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
