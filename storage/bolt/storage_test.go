package bolt_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/boardgamebot/bot/rules"
	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/storage/bolt"
	"go.etcd.io/bbolt"
)

var ctx = context.Background()

func open(t *testing.T, path string) *bolt.Store {
	t.Helper()
	s, err := bolt.Open(path, bolt.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func key(ch string) sessions.Key { return sessions.Key{Platform: "test", Channel: ch} }

var (
	t0    = time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	alice = sessions.User{ID: "1", Name: "alice"}
	bob   = sessions.User{ID: "2", Name: "bob"}
)

// fullRecord has every field set.
func fullRecord(k sessions.Key) *sessions.Record {
	return &sessions.Record{
		V: 1, Key: k, Game: "damas", Options: map[string]string{"huff": "yes"},
		Play:       sessions.PlayOptions{Time: sessions.Duration(24 * time.Hour), Color: sessions.ColorBlack, Rated: true, Level: 3},
		Challenger: alice, Invited: []sessions.User{{Name: "bob"}}, Seats: []sessions.User{bob, alice},
		First: 1, Start: "W:W1,2:B30", DrawOffer: []int{1},
		Actions: []sessions.Action{
			{Kind: sessions.ActForm, Seat: 0, Text: "default", At: t0},
			{Kind: sessions.ActMove, Seat: 0, Text: "c3-d4", At: t0.Add(time.Minute)},
			{Kind: sessions.ActHuff, Seat: 1, Text: "d4", At: t0.Add(2 * time.Minute)},
		},
		Created: t0, Started: t0, Updated: t0.Add(2 * time.Minute),
		Version: 7, Deadline: t0.Add(24 * time.Hour), Reminded: true, Auto: []int{0, 2},
		Expires: t0.Add(48 * time.Hour), Takeback: []int{0},
		Ratings: []sessions.RatingChange{{Seat: 1, User: alice, Rated: true, Before: 1000, After: 1015, MonthBefore: 1000, MonthAfter: 1015, Month: "2026-03"}},
	}
}

func TestRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "bot.db")
	s := open(t, path)
	live := fullRecord(key("live"))
	fin := fullRecord(key("done"))
	fin.Result = &sessions.Result{Winner: -1, Reason: "draw agreed", Ended: t0.Add(time.Hour), FEN: "W:W1:B30"}
	if err := s.Commit(ctx, &sessions.Change{Key: live.Key, Live: live}); err != nil {
		t.Fatal(err)
	}
	c := &sessions.Change{Key: fin.Key, Finished: fin}
	if err := s.Commit(ctx, c); err != nil {
		t.Fatal(err)
	}
	if fin.ID != "1" {
		t.Fatalf("finished id %q, want 1", fin.ID)
	}
	check := func(s *bolt.Store) {
		t.Helper()
		got, err := s.Load(ctx, live.Key)
		if err != nil || !reflect.DeepEqual(got, live) {
			t.Fatalf("live record:\ngot  %+v (%v)\nwant %+v", got, err, live)
		}
		got, err = s.Finished(ctx, "1")
		if err != nil || !reflect.DeepEqual(got, fin) {
			t.Fatalf("finished record:\ngot  %+v (%v)\nwant %+v", got, err, fin)
		}
		all, err := s.Live(ctx)
		if err != nil || len(all) != 1 {
			t.Fatalf("live sessions: %d, %v", len(all), err)
		}
		if _, err := s.Load(ctx, key("nothing")); !errors.Is(err, sessions.ErrNotFound) {
			t.Fatalf("missing session: %v", err)
		}
		for _, id := range []string{"2", "x", "0", ""} {
			if _, err := s.Finished(ctx, id); !errors.Is(err, sessions.ErrNotFound) {
				t.Fatalf("game %q: %v", id, err)
			}
		}
	}
	check(s)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = open(t, path)
	defer s.Close()
	check(s)
	if err := s.Check(); err != nil {
		t.Fatal(err)
	}
}

func TestStoredJSONHasVersion(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bot.db")
	s := open(t, path)
	r := fullRecord(key("a"))
	r.V = 0 // the store fills it in
	if err := s.Commit(ctx, &sessions.Change{Key: r.Key, Live: r}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	db, err := bbolt.Open(path, 0o600, &bbolt.Options{ReadOnly: true, Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.View(func(tx *bbolt.Tx) error {
		v := tx.Bucket([]byte("live")).Get([]byte("test\x00a\x00"))
		if !bytes.HasPrefix(v, fmt.Appendf(nil, `{"v":%d,`, sessions.RecordVersion)) {
			t.Errorf("stored record: %.60s", v)
		}
		return nil
	})
}

func TestHistoryAndIndexes(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "bot.db"))
	defer s.Close()
	carol := sessions.User{ID: "3", Name: "carol"}
	games := []struct {
		ch, game string
		seats    []sessions.User
	}{
		{"x", "spanish", []sessions.User{alice, bob}},
		{"y", "halma", []sessions.User{bob, carol}},
		{"x", "halma", []sessions.User{carol, alice}},
		{"x", "spanish", []sessions.User{alice, alice}},
	}
	for _, g := range games {
		r := &sessions.Record{V: 1, Key: key(g.ch), Game: g.game, Seats: g.seats, Result: &sessions.Result{Winner: 0}}
		live := r.Clone()
		live.Result = nil
		if err := s.Commit(ctx, &sessions.Change{Key: r.Key, Live: live}); err != nil {
			t.Fatal(err)
		}
		if recs, _ := s.LiveOf(ctx, "test", g.seats[0].ID); len(recs) != 1 || recs[0].Key != r.Key {
			t.Fatalf("live index of %s: %v", g.seats[0].Name, recs)
		}
		if err := s.Commit(ctx, &sessions.Change{Key: r.Key, Finished: r}); err != nil {
			t.Fatal(err)
		}
		if recs, _ := s.LiveOf(ctx, "test", g.seats[0].ID); len(recs) != 0 {
			t.Fatalf("live index after the end: %v", recs)
		}
	}
	ids := func(rs []*sessions.Record, err error) string {
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, r := range rs {
			out = append(out, r.ID)
		}
		return strings.Join(out, ",")
	}
	for _, tc := range []struct {
		q    sessions.HistoryQuery
		want string
	}{
		{sessions.HistoryQuery{Platform: "test", User: "1"}, "4,3,1"},
		{sessions.HistoryQuery{Platform: "test", User: "1", Limit: 2}, "4,3"},
		{sessions.HistoryQuery{Platform: "test", User: "1", Game: "halma"}, "3"},
		{sessions.HistoryQuery{Platform: "test", User: "3"}, "3,2"},
		{sessions.HistoryQuery{Platform: "other", User: "3"}, ""},
		{sessions.HistoryQuery{Key: key("x")}, "4,3,1"},
		{sessions.HistoryQuery{Key: key("y")}, "2"},
		{sessions.HistoryQuery{Key: key("z")}, ""},
	} {
		if got := ids(s.History(ctx, tc.q)); got != tc.want {
			t.Errorf("%+v: got %q, want %q", tc.q, got, tc.want)
		}
	}
}

func TestBadKeys(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "bot.db"))
	defer s.Close()
	for _, k := range []sessions.Key{{}, {Platform: "p"}, {Platform: "p", Channel: "a\x00b"}} {
		if err := s.Commit(ctx, &sessions.Change{Key: k, Live: fullRecord(k)}); err == nil {
			t.Errorf("key %q accepted", k.String())
		}
	}
}

func TestOpenRefusesForeignFiles(t *testing.T) {
	dir := t.TempDir()
	foreign := filepath.Join(dir, "foreign.db")
	db, err := bbolt.Open(foreign, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	db.Update(func(tx *bbolt.Tx) error { _, err := tx.CreateBucket([]byte("widgets")); return err })
	db.Close()
	newer := filepath.Join(dir, "newer.db")
	s := open(t, newer)
	s.Close()
	db, _ = bbolt.Open(newer, 0o600, nil)
	db.Update(func(tx *bbolt.Tx) error { return tx.Bucket([]byte("meta")).Put([]byte("schema"), []byte("7")) })
	db.Close()
	garbage := bytes.Repeat([]byte("not a database, just text. "), 1000)
	files := map[string][]byte{
		"text.db":  garbage,
		"tiny.db":  []byte("hello"),
		"zeros.db": make([]byte, 16384),
	}
	for name, b := range files {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct{ name, msg string }{
		{"foreign.db", `another program (buckets "widgets")`},
		{"newer.db", "schema 7, newer"},
		{"text.db", "is not a bbolt database"},
		{"tiny.db", "too small to be a database"},
		{"zeros.db", "is not a bbolt database"},
	} {
		path := filepath.Join(dir, tc.name)
		before, _ := os.ReadFile(path)
		_, err := bolt.Open(path, bolt.Options{})
		if !errors.Is(err, bolt.ErrNotBotDB) || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%s: got %v, want ErrNotBotDB with %q", tc.name, err, tc.msg)
		}
		if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
			t.Errorf("%s: Open changed the file", tc.name)
		}
	}
}

func TestOpenLockedFails(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bot.db")
	s := open(t, path)
	defer s.Close()
	start := time.Now()
	_, err := bolt.Open(path, bolt.Options{Timeout: 100 * time.Millisecond})
	if !errors.Is(err, bolt.ErrLocked) || !strings.Contains(err.Error(), "another process") {
		t.Fatalf("got %v, want ErrLocked", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("Open took %v", d)
	}
}

func TestCommitAfterClose(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "bot.db"))
	s.Close()
	if err := s.Commit(ctx, &sessions.Change{Key: key("a"), Live: fullRecord(key("a"))}); err == nil {
		t.Fatal("commit after close succeeded")
	}
}

func TestConcurrentCommitsAllModes(t *testing.T) {
	for _, mode := range []bolt.Mode{bolt.ModeGroup, bolt.ModeUpdate, bolt.ModeBatch} {
		t.Run(fmt.Sprint(mode), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "bot.db")
			s, err := bolt.Open(path, bolt.Options{Mode: mode})
			if err != nil {
				t.Fatal(err)
			}
			var wg sync.WaitGroup
			for w := range 8 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					r := fullRecord(key(fmt.Sprint("w", w)))
					for i := range 20 {
						r = r.Clone()
						r.Actions = append(r.Actions, sessions.Action{Kind: sessions.ActMove, Text: fmt.Sprint(i)})
						c := &sessions.Change{Key: r.Key, Live: r}
						if i == 19 {
							c = &sessions.Change{Key: r.Key, Finished: r}
						}
						if err := s.Commit(ctx, c); err != nil {
							t.Error(err)
							return
						}
					}
				}()
			}
			wg.Wait()
			s.Close()
			s = open(t, path)
			defer s.Close()
			for w := range 8 {
				h, err := s.History(ctx, sessions.HistoryQuery{Key: key(fmt.Sprint("w", w))})
				if err != nil || len(h) != 1 || len(h[0].Actions) != 23 {
					t.Fatalf("worker %d: %v %v", w, h, err)
				}
			}
			if live, _ := s.Live(ctx); len(live) != 0 {
				t.Fatalf("%d live sessions left", len(live))
			}
		})
	}
}

// killAfterAcks runs the test named test again as a child process (env
// set to path tells it to be the child), reads its acknowledgements ("ack
// <name> <n>" lines) and kills it with SIGKILL at the n-th. It returns the
// highest n acknowledged per name.
func killAfterAcks(t *testing.T, test, env, path string, n int) map[string]int {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^"+test+"$")
	cmd.Env = append(os.Environ(), env+"="+path)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	acked := map[string]int{}
	sc := bufio.NewScanner(out)
	total := 0
	for sc.Scan() {
		var name string
		var k int
		if _, err := fmt.Sscanf(sc.Text(), "ack %s %d", &name, &k); err != nil {
			continue
		}
		acked[name] = max(acked[name], k)
		if total++; total == n {
			cmd.Process.Signal(syscall.SIGKILL)
			break
		}
	}
	cmd.Wait()
	if total < n {
		t.Fatalf("the child stopped after %d acknowledgements", total)
	}
	return acked
}

// TestCrash runs a child process that commits moves of four sessions at once
// and prints each acknowledgement; the test kills it with SIGKILL in the
// middle and checks that every acknowledged move is in the file, which
// opens cleanly and passes bbolt's consistency check.
func TestCrash(t *testing.T) {
	if path := os.Getenv("STORAGE_CRASH_CHILD"); path != "" {
		crashChild(path)
		return
	}
	path := filepath.Join(t.TempDir(), "bot.db")
	acked := killAfterAcks(t, "TestCrash", "STORAGE_CRASH_CHILD", path, 300)
	s, err := bolt.Open(path, bolt.Options{})
	if err != nil {
		t.Fatalf("reopening after the crash: %v", err)
	}
	defer s.Close()
	if err := s.Check(); err != nil {
		t.Fatalf("consistency check: %v", err)
	}
	for ch, n := range acked {
		r, err := s.Load(ctx, key(ch))
		if err != nil {
			t.Fatalf("session %s: %v", ch, err)
		}
		if len(r.Actions) < n {
			t.Errorf("session %s: %d moves stored, %d acknowledged", ch, len(r.Actions), n)
		}
		for i, a := range r.Actions {
			if a.Text != strconv.Itoa(i+1) {
				t.Fatalf("session %s: move %d is %q", ch, i+1, a.Text)
			}
		}
	}
	t.Logf("acknowledged before the kill: %v", acked)
}

func crashChild(path string) {
	s, err := bolt.Open(path, bolt.Options{})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ch := fmt.Sprint("s", w)
			r := &sessions.Record{V: 1, Key: key(ch), Game: "spanish", Seats: []sessions.User{alice, bob}, Started: t0}
			for i := 1; ; i++ {
				r = r.Clone()
				r.Actions = append(r.Actions, sessions.Action{Kind: sessions.ActMove, Text: strconv.Itoa(i), At: t0})
				if err := s.Commit(ctx, &sessions.Change{Key: r.Key, Live: r}); err != nil {
					fmt.Fprintln(os.Stderr, err)
					os.Exit(1)
				}
				mu.Lock()
				fmt.Printf("ack %s %d\n", ch, i)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
}

// TestOldFinishedGameRead: a finished game stored by a version 1 bot,
// whose result is an English phrase, reads with its result as codes.
func TestOldFinishedGameRead(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bot.db")
	s := open(t, path)
	fin := fullRecord(key("done"))
	fin.Result = &sessions.Result{Winner: 0, Reason: rules.Resigned, By: 1, Ended: t0.Add(time.Hour)}
	if err := s.Commit(ctx, &sessions.Change{Key: fin.Key, Finished: fin}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	// Make it what a version 1 bot wrote.
	db, err := bbolt.Open(path, 0o600, &bbolt.Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	err = db.Update(func(tx *bbolt.Tx) error {
		b := tx.Bucket([]byte("games"))
		k, v := b.Cursor().First()
		var rec map[string]any
		if err := json.Unmarshal(v, &rec); err != nil {
			return err
		}
		rec["v"] = 1
		rec["result"] = map[string]any{"winner": 0, "reason": "Black resigned", "ended": t0.Add(time.Hour)}
		old, err := json.Marshal(rec)
		if err != nil {
			return err
		}
		return b.Put(k, old)
	})
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	s = open(t, path)
	defer s.Close()
	got, err := s.Finished(ctx, "1")
	if err != nil {
		t.Fatal(err)
	}
	if r := got.Result; r == nil || r.Reason != rules.Resigned || r.By != 1 || r.Winner != 0 {
		t.Fatalf("old result read as %+v, want Black (seat 1) resigned", got.Result)
	}
}
