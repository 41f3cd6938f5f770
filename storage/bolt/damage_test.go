package bolt_test

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/sessions/sessionstest"
	"github.com/boardgamebot/bot/storage/bolt"
	"go.etcd.io/bbolt"
)

// fixture builds a bot database with some of everything (live sessions,
// finished rated games and their indexes, ladders, names, preferences,
// request ids) and returns its bytes.
func fixture(tb testing.TB) []byte {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), "bot.db")
	s, err := bolt.Open(path, bolt.Options{NoSync: true})
	if err != nil {
		tb.Fatal(err)
	}
	for i := range 40 {
		k := key(fmt.Sprint("live", i))
		r := fullRecord(k)
		if err := s.Commit(ctx, &sessions.Change{Key: k, Live: r, Request: fmt.Sprint("r", i), At: t0}); err != nil {
			tb.Fatal(err)
		}
	}
	for i := range 60 {
		k := key(fmt.Sprint("done", i%7))
		r := fullRecord(k)
		r.Seats = []sessions.User{{ID: fmt.Sprint("u", i%9), Name: fmt.Sprint("user", i%9)}, alice}
		r.Result = &sessions.Result{Winner: i % 2, Reason: "resigned", Ended: t0}
		rate := &sessions.RateRequest{Platform: "test", Game: "damas", Month: "2026-03", Players: [2]sessions.User{r.Seats[0], r.Seats[1]}, Score: float64(i % 2), Rated: true}
		if err := s.Commit(ctx, &sessions.Change{Key: k, Finished: r, Rate: rate}); err != nil {
			tb.Fatal(err)
		}
	}
	for i := range 5 {
		if err := s.SetNotify(ctx, "test", fmt.Sprint("u", i), i%2 == 0); err != nil {
			tb.Fatal(err)
		}
	}
	if err := s.Close(); err != nil {
		tb.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// openDamaged writes b to a file, opens it, and reads everything a bot
// reads (then commits, when it opened). The process must not crash: Open
// either refuses the file with an error wrapping bolt.ErrNotBotDB
// (and nothing else), or opens it and every read either works or fails
// with sessions.ErrDamaged (or ErrNotFound, when bbolt fell back to the
// older meta page); the file is unchanged until the first commit.
// It returns Open's error.
func openDamaged(t *testing.T, b []byte) error {
	t.Helper()
	path := filepath.Join(t.TempDir(), "bot.db")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	before := sha256.Sum256(b)
	unchanged := func(when string) {
		t.Helper()
		after, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if sha256.Sum256(after) != before {
			t.Fatalf("%s changed the file", when)
		}
	}
	s, err := bolt.Open(path, bolt.Options{Timeout: time.Second, NoSync: true})
	unchanged("Open")
	if err != nil {
		if !errors.Is(err, bolt.ErrNotBotDB) || strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), path) {
			t.Fatalf("Open: %q, want one line naming the file, wrapping ErrNotBotDB", err)
		}
		return err
	}
	defer s.Close()
	ok := func(what string, err error) {
		t.Helper()
		if err != nil && !errors.Is(err, sessions.ErrDamaged) && !errors.Is(err, sessions.ErrNotFound) {
			t.Errorf("%s: %v, want nil or ErrDamaged", what, err)
		}
	}
	_, err = s.Live(ctx)
	ok("Live", err)
	for i := range 40 {
		_, err := s.Load(ctx, key(fmt.Sprint("live", i)))
		ok("Load", err)
	}
	for i := range 62 {
		_, err := s.Finished(ctx, fmt.Sprint(i))
		ok("Finished", err)
	}
	for i := range 9 {
		u := fmt.Sprint("u", i)
		_, err := s.History(ctx, sessions.HistoryQuery{Platform: "test", User: u})
		ok("History of a user", err)
		_, err = s.Standings(ctx, "test", u, "")
		ok("Standings", err)
		_, err = s.LiveOf(ctx, "test", u)
		ok("LiveOf", err)
		_, err = s.FindUser(ctx, "test", fmt.Sprint("user", i))
		ok("FindUser", err)
		_, err = s.Seen(ctx, "test", fmt.Sprint("r", i))
		ok("Seen", err)
	}
	for i := range 7 {
		_, err := s.History(ctx, sessions.HistoryQuery{Key: key(fmt.Sprint("done", i))})
		ok("History of a channel", err)
	}
	for _, period := range []string{sessions.AllTime, "2026-03"} {
		_, err := s.Top(ctx, sessions.TopQuery{Platform: "test", Game: "damas", Period: period, Limit: 10, User: "1"})
		ok("Top", err)
	}
	_, err = s.NotifyPrefs(ctx, "test")
	ok("NotifyPrefs", err)
	ok("Check", s.Check())
	var buf bytes.Buffer
	_, err = s.Backup(&buf)
	ok("Backup", err)
	unchanged("reading")
	k := key("live3")
	r := fullRecord(k)
	ok("Commit", s.Commit(ctx, &sessions.Change{Key: k, Live: r}))
	r = r.Clone()
	r.Result = &sessions.Result{Winner: 0, Reason: "resigned", Ended: t0}
	ok("Commit of a finished game", s.Commit(ctx, &sessions.Change{Key: k, Finished: r,
		Rate: &sessions.RateRequest{Platform: "test", Game: "damas", Month: "2026-03", Players: [2]sessions.User{alice, bob}, Score: 1, Rated: true}}))
	ok("SetNotify", s.SetNotify(ctx, "test", "u1", true))
	ok("Forget", s.Forget(ctx, t0.Add(time.Hour)))
	return nil
}

// TestOpenDamaged: a table of damages, each refused (one line, the file
// unchanged) or, where bbolt can still read the file, served without a
// crash.
func TestOpenDamaged(t *testing.T) {
	good := fixture(t)
	const page = 4096
	if len(good) < 16*page {
		t.Fatalf("the fixture has %d bytes, want more pages to damage", len(good))
	}
	zero := func(off, n int) []byte {
		b := bytes.Clone(good)
		clear(b[off : off+n])
		return b
	}
	type damage struct {
		name    string
		file    []byte
		damaged bool   // Open must refuse it as damaged
		foreign bool   // Open must refuse it as not a bot database
		msg     string // in Open's error
	}
	cases := []damage{
		{name: "intact", file: good},
		{name: "zeroed meta page 0", file: zero(0, page)},
		{name: "zeroed meta page 1", file: zero(page, page)},
		{name: "zeroed meta pages", file: zero(0, 2*page), foreign: true, msg: "is not a bbolt database"},
		{name: "both meta checksums bad", file: func() []byte {
			b := bytes.Clone(good)
			b[16+20]++ // the root of meta 0
			b[page+16+20]++
			return b
		}(), damaged: true, msg: "header pages are unreadable"},
		{name: "foreign text", file: bytes.Repeat([]byte("a text file, not a database\n"), 2000), foreign: true, msg: "is not a bbolt database"},
	}
	for _, size := range []int{1000, page, 2 * page, 8 << 10, 12 << 10, 20 << 10, len(good) / 2, len(good) - page, len(good) - 1} {
		c := damage{name: fmt.Sprint("truncated at ", size), file: good[:size], damaged: true, msg: "cut short"}
		switch {
		case size < page:
			c = damage{name: c.name, file: c.file, foreign: true, msg: "too small"}
		case size > len(good)/2:
			c.damaged, c.msg = false, "" // bbolt grows the file ahead: the end may be unused
		}
		cases = append(cases, c)
	}
	for seed := range uint64(40) {
		rng := rand.New(rand.NewPCG(seed, 14))
		b := bytes.Clone(good)
		n := 100 + rng.IntN(400)
		off := rng.IntN(len(b) - n)
		for i := range n {
			b[off+i] = byte(rng.Uint32())
		}
		cases = append(cases, damage{name: fmt.Sprintf("seed %d: %d random bytes at %d", seed, n, off), file: b})
	}
	foreign := filepath.Join(t.TempDir(), "foreign.db")
	db, err := bbolt.Open(foreign, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	db.Update(func(tx *bbolt.Tx) error { _, err := tx.CreateBucket([]byte("widgets")); return err })
	db.Close()
	fb, _ := os.ReadFile(foreign)
	cases = append(cases, damage{name: "another program's bbolt file", file: fb, foreign: true, msg: "another program"})

	refused := 0
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := openDamaged(t, c.file)
			switch {
			case c.damaged && !errors.Is(err, sessions.ErrDamaged):
				t.Fatalf("Open: %v, want ErrDamaged", err)
			case c.foreign && (err == nil || errors.Is(err, sessions.ErrDamaged)):
				t.Fatalf("Open: %v, want ErrNotBotDB, not damaged", err)
			case c.msg != "" && (err == nil || !strings.Contains(err.Error(), c.msg)):
				t.Fatalf("Open: %v, want %q", err, c.msg)
			case c.name == "intact" && err != nil:
				t.Fatalf("Open: %v", err)
			}
			if err != nil {
				refused++
			}
		})
	}
	t.Logf("%d of %d damaged files refused at Open, the others served", refused, len(cases))
}

// FuzzOpenDamaged overwrites bytes of a bot database at an offset: Open
// must not crash, must leave the file unchanged, and either refuse it in
// one line or serve it (see openDamaged). The seeds run as a unit test.
//
//	go test -run '^$' -fuzz FuzzOpenDamaged -fuzztime 1m ./storage/
func FuzzOpenDamaged(f *testing.F) {
	good := fixture(f)
	for _, off := range []uint32{0, 16, 40, 4096, 4096 + 40, 2 * 4096, 3 * 4096, 3*4096 + 16, 5*4096 + 100, 9*4096 + 30, uint32(len(good)) - 64} {
		f.Add(off, []byte{0xff, 0, 0x13, 0x37, 0xff, 0xff, 0xff, 0x7f})
	}
	f.Add(uint32(4*4096), bytes.Repeat([]byte{0xff}, 300))
	f.Fuzz(func(t *testing.T, off uint32, data []byte) {
		b := bytes.Clone(good)
		if len(data) > 512 {
			data = data[:512]
		}
		copy(b[int(off)%len(b):], data)
		openDamaged(t, b)
	})
}

// TestDamagedLiveRecord: one live session's record is damaged (bad JSON,
// random bytes): the bot still starts and resumes the others, a command on
// that game answers ErrDamaged, and the damage is logged once with its key.
func TestDamagedLiveRecord(t *testing.T) {
	for _, bad := range [][]byte{[]byte(`{"v":1,"game":"count","seats":[`), {0x93, 0x00, 0xff, 0x12, 0x7f}} {
		t.Run(fmt.Sprintf("%q", bad), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "bot.db")
			s := open(t, path)
			svc := sessions.New(sessions.Config{Store: s, Games: sessionstest.Games})
			for _, ch := range []string{"a", "b", "c"} {
				_, err := svc.Challenge(ctx, sessions.Request{Key: key(ch), User: alice},
					sessions.ChallengeSpec{Game: "count", Invited: []sessions.User{bob}, Play: sessions.DefaultPlayOptions()})
				if err != nil {
					t.Fatal(err)
				}
			}
			svc.Close()
			s.Close()
			db, err := bbolt.Open(path, 0o600, nil)
			if err != nil {
				t.Fatal(err)
			}
			if err := db.Update(func(tx *bbolt.Tx) error { return tx.Bucket([]byte("live")).Put([]byte("test\x00b\x00"), bad) }); err != nil {
				t.Fatal(err)
			}
			db.Close()

			var logs bytes.Buffer
			log := slog.New(slog.NewTextHandler(&logs, nil))
			s, err = bolt.Open(path, bolt.Options{Log: log})
			if err != nil {
				t.Fatalf("Open: %v", err)
			}
			defer s.Close()
			svc = sessions.New(sessions.Config{Store: s, Games: sessionstest.Games, Log: log})
			defer svc.Close()
			n, err := svc.Resume(ctx)
			if err != nil || n != 2 {
				t.Fatalf("Resume: %d sessions, %v; want the 2 others", n, err)
			}
			for range 2 {
				if _, err := svc.Look(ctx, key("b")); sessions.KindOf(err) != sessions.ErrDamaged {
					t.Fatalf("Look at the damaged session: %v, want ErrDamaged", err)
				}
			}
			for _, ch := range []string{"a", "c"} {
				if snap, err := svc.Look(ctx, key(ch)); err != nil || snap == nil {
					t.Fatalf("Look at %s: %v", ch, err)
				}
			}
			if n := strings.Count(logs.String(), "storage: damaged data"); n != 1 || !strings.Contains(logs.String(), "test:b") {
				t.Fatalf("the damage was logged %d times, want once with its key:\n%s", n, logs.String())
			}
		})
	}
}

// TestDamageWhileRunning: the file is cut short under a running store (a
// disk error, someone's truncate): the reads that reach past its end fault
// in bbolt's memory map; each fails with ErrDamaged and the bot goes on.
func TestDamageWhileRunning(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bot.db")
	if err := os.WriteFile(path, fixture(t), 0o600); err != nil {
		t.Fatal(err)
	}
	var logs bytes.Buffer
	s, err := bolt.Open(path, bolt.Options{Log: slog.New(slog.NewTextHandler(&logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := os.Truncate(path, 3*4096); err != nil {
		t.Fatal(err)
	}
	damaged := 0
	for range 2 {
		for i := range 40 {
			_, err := s.Load(ctx, key(fmt.Sprint("live", i)))
			if errors.Is(err, sessions.ErrDamaged) {
				damaged++
			} else if err != nil {
				t.Fatalf("Load: %v, want ErrDamaged", err)
			}
		}
	}
	if _, err := s.Live(ctx); !errors.Is(err, sessions.ErrDamaged) {
		t.Fatalf("Live: %v, want ErrDamaged", err)
	}
	if _, err := s.History(ctx, sessions.HistoryQuery{Platform: "test", User: "u1"}); !errors.Is(err, sessions.ErrDamaged) {
		t.Fatalf("History: %v, want ErrDamaged", err)
	}
	if damaged == 0 {
		t.Fatal("no Load found the damage")
	}
	if n := strings.Count(logs.String(), `key="session test:live0"`); n != 1 {
		t.Fatalf("the damage of live0 was logged %d times, want once:\n%s", n, logs.String())
	}
}
