//go:build unix

package bolt

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/boardgamebot/bot/sessions"
	"go.etcd.io/bbolt"
)

// A transaction that loops for ever inside bbolt cannot be cancelled, so
// the tests of this file run the risky part in a child process (the test
// binary again, told by an environment variable) that watches its own CPU
// time: work of a few milliseconds that has burnt spinBudget of CPU is
// spinning, and the child says so and exits, so that no goroutine spins
// on through the package's other tests. CPU time, not the clock: a
// loaded machine slows the wall clock, not the CPU a loop burns.
const spinBudget = 2 * time.Second

// cpuTime is the CPU time (user and system) this process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		panic(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// returnsWithin runs fn and reports whether it returned before the process
// burnt budget more CPU time (false: fn is still running, for ever).
func returnsWithin(budget time.Duration, fn func()) bool {
	done := make(chan struct{})
	start := cpuTime()
	go func() {
		defer close(done)
		fn()
	}()
	for cpuTime()-start < budget {
		select {
		case <-done:
			return true
		case <-time.After(10 * time.Millisecond):
		}
	}
	select {
	case <-done:
		return true
	default:
		return false
	}
}

// childVerdict runs the test named test as a child process with env set
// to value and returns the word of its last "verdict: <word>" line. The
// child bounds itself (returnsWithin); the test's deadline bounds it too.
func childVerdict(t *testing.T, test, env, value string) string {
	t.Helper()
	ctx := t.Context()
	if d, ok := t.Deadline(); ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, d.Add(-5*time.Second))
		defer cancel()
	}
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^"+test+"$", "-test.count=1")
	cmd.Env = append(os.Environ(), env+"="+value)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	verdict := ""
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		if w, ok := strings.CutPrefix(sc.Text(), "verdict: "); ok {
			verdict = w
		}
	}
	if err := cmd.Wait(); err != nil && verdict == "" {
		t.Fatalf("child %s: %v, and no verdict", test, err)
	}
	return verdict
}

// childFail ends a child process whose set-up failed.
func childFail(err error) {
	fmt.Println("verdict: set-up failed:", err)
	os.Exit(1)
}

// TestGamesEndingWithAMoveInOneBatch is the case of issue 24: the games
// that hold every chunk of bucket moves end in one group commit together
// with another session's move (in production: the last long games ending
// together while someone else moves). Ending them deletes every key of
// the multi-page bucket in the transaction; the move that follows must
// not search it (bbolt's Cursor.Last never returns there). The commit
// must return, and the file must hold the 64 finished games and the move.
func TestGamesEndingWithAMoveInOneBatch(t *testing.T) {
	const games, plies = 64, 200
	if path := os.Getenv("STORAGE_BATCH_CHILD"); path != "" {
		endingsChild(path, games, plies)
		return
	}
	path := filepath.Join(t.TempDir(), "bot.db")
	switch v := childVerdict(t, "TestGamesEndingWithAMoveInOneBatch", "STORAGE_BATCH_CHILD", path); v {
	case "committed":
	case "spinning":
		t.Fatalf("the group commit of %d games' ends and one move did not return: it burnt %v of CPU in one write transaction, holding every other commit of the bot (a cursor's Last or Prev over the pages the ends emptied)", games, spinBudget)
	default:
		t.Fatalf("child: %s", v)
	}
	s, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for i := range games {
		h, err := s.History(t.Context(), sessions.HistoryQuery{Key: batchKey(i)})
		if err != nil || len(h) != 1 || len(h[0].Actions) != plies {
			t.Fatalf("game %d: history %v, %v; want one game of %d actions", i, h, err, plies)
		}
	}
	r, err := s.Load(t.Context(), batchKey(games))
	if err != nil || len(r.Actions) != 11 {
		t.Fatalf("the session that moved: %v, %v; want 11 actions", r, err)
	}
	if err := s.db.View(func(tx *bbolt.Tx) error {
		if k, _ := tx.Bucket(bMoves).Cursor().First(); k != nil {
			return fmt.Errorf("bucket moves still holds %q", k)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}

func batchKey(i int) sessions.Key {
	return sessions.Key{Platform: "test", Channel: fmt.Sprintf("g%03d", i)}
}

// batchRecord is the live record at key with n actions.
func batchRecord(k sessions.Key, n int) *sessions.Record {
	r := &sessions.Record{V: sessions.RecordVersion, Key: k, Game: "halma", Options: map[string]string{"size": "16"},
		Seats: []sessions.User{{ID: "a" + k.Channel, Name: "ann"}, {ID: "b" + k.Channel, Name: "ben"}}, Started: t0}
	for i := range n {
		r.Actions = append(r.Actions, sessions.Action{Kind: sessions.ActMove, Seat: i % 2, Text: fmt.Sprintf("p%d-q%d", i%16, i%15), At: t0})
	}
	return r
}

var t0 = time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)

// endingsChild writes the games and the session that moves, then commits
// the games' ends and the move in one batch, as the group committer does.
func endingsChild(path string, games, plies int) {
	s, err := Open(path, Options{NoSync: true})
	if err != nil {
		childFail(err)
	}
	for i := range games {
		r := batchRecord(batchKey(i), plies)
		if err := s.Commit(context.Background(), &sessions.Change{Key: r.Key, Live: r}); err != nil {
			childFail(err)
		}
	}
	mover := batchRecord(batchKey(games), 10)
	if err := s.Commit(context.Background(), &sessions.Change{Key: mover.Key, Live: mover}); err != nil {
		childFail(err)
	}
	var batch []*commitReq
	for i := range games {
		r := batchRecord(batchKey(i), plies)
		r.Result = &sessions.Result{Winner: 0, Ended: t0}
		batch = append(batch, &commitReq{c: &sessions.Change{Key: r.Key, Finished: r}, done: make(chan error, 1)})
	}
	moved := batchRecord(batchKey(games), 11)
	batch = append(batch, &commitReq{c: &sessions.Change{Key: moved.Key, Live: moved}, done: make(chan error, 1)})
	var cerr error
	if !returnsWithin(spinBudget, func() { cerr = s.commitBatch(batch) }) {
		fmt.Println("verdict: spinning")
		os.Exit(2)
	}
	if cerr == nil {
		cerr = s.Close()
	}
	if cerr != nil {
		childFail(cerr)
	}
	fmt.Println("verdict: committed")
}

// TestBboltLastAfterDeletingEverything documents bbolt's own bug that
// issue 24 met: in a write transaction that deleted every key of a bucket
// spanning several pages, Cursor.Last never returns (its loop over empty
// leaves calls prev, which at the first element goes back to the first,
// still empty, leaf). The store never calls Last or Prev in a write
// transaction (see the note at putLive in movelog.go). The test passes
// while bbolt still spins, saying so in its log; it fails once a bbolt
// upgrade fixed it, to tell us that the note may go.
func TestBboltLastAfterDeletingEverything(t *testing.T) {
	if path := os.Getenv("STORAGE_BBOLT_LAST_CHILD"); path != "" {
		bboltLastChild(path)
		return
	}
	version := "go.etcd.io/bbolt"
	if mod, err := os.ReadFile("../go.mod"); err == nil {
		for line := range strings.Lines(string(mod)) {
			if f := strings.Fields(line); len(f) >= 2 && f[0] == version {
				version += " " + f[1]
			}
		}
	}
	switch v := childVerdict(t, "TestBboltLastAfterDeletingEverything", "STORAGE_BBOLT_LAST_CHILD", filepath.Join(t.TempDir(), "b.db")); v {
	case "spinning":
		t.Logf("%s still spins in Cursor.Last after every key of a multi-page bucket was deleted in the transaction (stopped after %v of CPU): keep the note at putLive", version, spinBudget)
	case "returned":
		t.Errorf("%s: Cursor.Last now returns after every key of a multi-page bucket was deleted: the upstream bug is fixed; drop the note at putLive (storage/movelog.go) and this test", version)
	default:
		t.Fatalf("child: %s", v)
	}
}

// bboltLastChild puts 1,000 keys of 100 bytes in a bucket and commits; in
// a new transaction it deletes them all and calls Cursor.Last.
func bboltLastChild(path string) {
	db, err := bbolt.Open(path, 0o600, &bbolt.Options{NoSync: true})
	if err != nil {
		childFail(err)
	}
	name := []byte("b")
	if err := db.Update(func(tx *bbolt.Tx) error {
		b, err := tx.CreateBucket(name)
		if err != nil {
			return err
		}
		for i := range 1000 {
			if err := b.Put(fmt.Appendf(nil, "%04d", i), make([]byte, 100)); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		childFail(err)
	}
	err = db.Update(func(tx *bbolt.Tx) error {
		b := tx.Bucket(name)
		if n := b.Stats().LeafPageN; n < 2 {
			return fmt.Errorf("the bucket spans %d leaf page, not several", n)
		}
		for i := range 1000 {
			if err := b.Delete(fmt.Appendf(nil, "%04d", i)); err != nil {
				return err
			}
		}
		var k []byte
		if !returnsWithin(spinBudget, func() { k, _ = b.Cursor().Last() }) {
			fmt.Println("verdict: spinning")
			os.Exit(0)
		}
		if k != nil {
			return fmt.Errorf("Last found %q in an emptied bucket", k)
		}
		return nil
	})
	if err != nil {
		childFail(err)
	}
	fmt.Println("verdict: returned")
}
