//go:build !noetcd

package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/storage/bolt"
	"github.com/boardgamebot/bot/storage/dump"
	"github.com/boardgamebot/bot/storage/etcdstore"
	"github.com/boardgamebot/bot/storage/etcdstore/etcdtest"
)

// migrateSetup starts etcd and returns its endpoint and a bbolt database
// written by the console: a finished game and one in play, and two
// tournaments of alice, bob and carol in the console's channel: #1 of one
// round, finished (its game resigned), #2 running, its game in play.
func migrateSetup(t *testing.T) (endpoint, db string) {
	t.Helper()
	e, endpoint, err := etcdtest.Start(t.TempDir(), false)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	db = filepath.Join(t.TempDir(), "bot.db")
	in := "/play spanish @bob color=white\n/as bob\n/accept\n/resign\n/lang de\n" +
		"/as alice\n/play spanish @bob color=white\n/as bob\n/accept\n/as alice\n/move b3-a4\n"
	var out, log bytes.Buffer
	if err := runConsole(context.Background(), consoleConfig(t, db), strings.NewReader(in), &out, &log, false); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "alice (White) played b3-a4.") {
		t.Fatalf("the console:\n%s", out.String())
	}
	console := func(in string) string {
		t.Helper()
		var out, log bytes.Buffer
		if err := runConsole(context.Background(), consoleConfig(t, db), strings.NewReader(in), &out, &log, false); err != nil {
			t.Fatalf("%v\n%s", err, log.String())
		}
		return out.String()
	}
	place := regexp.MustCompile(`/go (t(\d)-r1-(\w+)-\w+)\)?\.`)
	for _, id := range []string{"1", "2"} {
		out := console("/tournament new spanish rounds=" + id + "\n/tournament join\n/as bob\n/tournament join\n/as carol\n/tournament join\n/as alice\n/tournament start\n")
		g := place.FindStringSubmatch(out)
		if g == nil || g[2] != id {
			t.Fatalf("tournament %s: no game of round 1:\n%s", id, out)
		}
		if id == "1" {
			// White resigns: the tournament is over.
			if out := console("/as " + g[3] + "\n/go " + g[1] + "\n/resign\n"); !strings.Contains(out, "Final standings of tournament #1") {
				t.Fatalf("tournament 1 after its only game:\n%s", out)
			}
		}
	}
	return endpoint, db
}

// tourAnswers are a store's answers about the tournaments of
// migrateSetup, as JSON.
func tourAnswers(t *testing.T, s sessions.Store) string {
	t.Helper()
	ctx := context.Background()
	var out []any
	for _, id := range []string{"1", "2"} {
		tr, err := s.Tournament(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, tr)
	}
	act, err := s.ActiveTournaments(ctx)
	if err != nil || len(act) != 1 {
		t.Fatalf("active tournaments: %d, %v; want 1", len(act), err)
	}
	at, err := s.TournamentsAt(ctx, sessions.Key{Platform: "console", Channel: "terminal"}, 0)
	if err != nil || len(at) != 2 {
		t.Fatalf("tournaments of the console's channel: %d, %v; want 2", len(at), err)
	}
	b, err := json.Marshal(append(out, act, at))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// tourGoesOn checks that a store refuses a second active tournament in
// the console's channel and gives a new one elsewhere the next id, 3.
func tourGoesOn(t *testing.T, name string, s sessions.Store) {
	t.Helper()
	newTour := func(ch string) *sessions.Tournament {
		return &sessions.Tournament{V: sessions.TournamentVersion, Rev: 1, Key: sessions.Key{Platform: "console", Channel: ch},
			Organiser: sessions.User{ID: "carol", Name: "carol"}, Game: "spanish", Format: sessions.FormatSwiss, Rounds: 1,
			Status: sessions.StatusSignup, Created: time.Now().UTC()}
	}
	if err := s.PutTournament(context.Background(), newTour("terminal")); !errors.Is(err, sessions.ErrTournamentOpen) {
		t.Errorf("%s: a second active tournament in the console's channel: %v, want ErrTournamentOpen", name, err)
	}
	next := newTour("elsewhere")
	if err := s.PutTournament(context.Background(), next); err != nil || next.ID != "3" {
		t.Errorf("%s: a new tournament: id %q, %v; want 3", name, next.ID, err)
	}
}

// configFile writes a configuration of the bbolt file db and the etcd
// at endpoint ("": none) under /migrated/.
func configFile(t *testing.T, db, endpoint string) string {
	t.Helper()
	f := filepath.Join(t.TempDir(), "bot.yaml")
	yaml := fmt.Sprintf("storage:\n  path: %s\n  etcd:\n    endpoints: %q\n    prefix: /migrated/\n", db, endpoint)
	if err := os.WriteFile(f, []byte(yaml), 0o600); err != nil {
		t.Fatal(err)
	}
	return f
}

func fileSum(t *testing.T, path string) [32]byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return sha256.Sum256(b)
}

func tallyFile(t *testing.T, path string) *dump.Tally {
	t.Helper()
	s, err := bolt.Open(path, bolt.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	tl, err := dump.TallyOf(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	return tl
}

// oneLine checks a refusal: exit 1, nothing on standard output, one line
// on standard error that says want.
func oneLine(t *testing.T, what string, code int, out, errs, want string) {
	t.Helper()
	if code != 1 || out != "" || strings.Count(errs, "\n") != 1 || !strings.HasPrefix(errs, "bot migrate: ") || !strings.Contains(errs, want) {
		t.Fatalf("%s: exit %d, output %q, errors %q; want exit 1 and one line saying %q", what, code, out, errs, want)
	}
}

// TestMigrate copies a console's database into etcd, where a console
// plays on; refuses to copy into a target that is not empty without
// --force, and says what --force replaced; copies etcd back into a new
// bbolt file equal to the first record by record; and never changes its
// source.
func TestMigrate(t *testing.T) {
	endpoint, db := migrateSetup(t)
	before := fileSum(t, db)
	conf := configFile(t, db, endpoint)
	src, err := bolt.Open(db, bolt.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	tours := tourAnswers(t, src)
	src.Close()

	code, out, errs := runTool("migrate", "--config", conf, "--to", "etcd")
	if code != 0 || errs != "" {
		t.Fatalf("migrate --to etcd: exit %d, %q, %q", code, out, errs)
	}
	for _, want := range []string{"copied " + db + " into etcd " + endpoint + " /migrated/", "  counter     2\n", "  live        2\n", "  games       2\n",
		"  history     6\n", "  prefs       1\n", "  tournaments 2\n", "request ids are not copied"} {
		if !strings.Contains(out, want) {
			t.Errorf("migrate --to etcd: no %q in\n%s", want, out)
		}
	}
	code, out, errs = runTool("migrate", "--config", conf, "--to", "etcd")
	oneLine(t, "migrate into a prefix that is not empty", code, out, errs, "already holds")
	code, out, errs = runTool("migrate", "--config", conf, "--to", "etcd", "--force")
	if code != 0 || errs != "" || !strings.HasPrefix(out, "--force: deleted the ") {
		t.Fatalf("migrate --to etcd --force: exit %d, %q, %q", code, out, errs)
	}
	if fileSum(t, db) != before {
		t.Fatal("migrate --to etcd changed its source")
	}

	// A console on etcd plays on, in the language bob chose (/lang de).
	c := consoleConfig(t, "/nonexistent/never-opened.db")
	c.Storage.Etcd.Endpoints, c.Storage.Etcd.Prefix = endpoint, "/migrated/"
	var cout, clog bytes.Buffer
	if err := runConsole(context.Background(), c, strings.NewReader("/as bob\n/move e6-f5\n/history\n"), &cout, &clog, false); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(cout.String(), "bob (Schwarz) spielte e6-f5.") || !strings.Contains(cout.String(), "#1 ") {
		t.Fatalf("a console on etcd after the migration:\n%s\n%s", cout.String(), clog.String())
	}

	// Back into bbolt: refused onto the database there, unless --force.
	code, out, errs = runTool("migrate", "--config", conf, "--to", "bbolt")
	oneLine(t, "migrate --to bbolt onto a database", code, out, errs, db+" already holds 2 live, 2 games, 6 history")
	db2 := filepath.Join(t.TempDir(), "new", "bot.db")
	code, out, errs = runTool("migrate", "--config", configFile(t, db2, endpoint), "--to", "bbolt")
	if code != 0 || errs != "" || !strings.Contains(out, "copied etcd "+endpoint+" /migrated/ into "+db2) {
		t.Fatalf("migrate --to bbolt: exit %d, %q, %q", code, out, errs)
	}
	// The copy differs from the first file only by bob's move.
	if err := tallyFile(t, db).Diff(tallyFile(t, db2)); err == nil || !strings.Contains(err.Error(), `1 differences: live "console/terminal/" differs`) {
		t.Fatalf("the copy back against the first database: %v", err)
	}
	code, out, errs = runTool("migrate", "--config", conf, "--to", "bbolt", "--force")
	if code != 0 || errs != "" || !strings.HasPrefix(out, "--force: replaced "+db+", which held 2 live, 2 games") ||
		!strings.Contains(out, ", 2 tournaments\n") {
		t.Fatalf("migrate --to bbolt --force: exit %d, %q, %q", code, out, errs)
	}
	if err := tallyFile(t, db2).Diff(tallyFile(t, db)); err != nil {
		t.Fatalf("the two copies of etcd: %v", err)
	}

	// The tournaments read the same in etcd and in both bbolt copies, and
	// go on in each.
	e, err := etcdstore.Open(context.Background(), etcdstore.Config{Endpoints: []string{endpoint}, Prefix: "/migrated/"})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	copies := map[string]sessions.Store{"etcd": e}
	for _, path := range []string{db, db2} {
		s, err := bolt.Open(path, bolt.Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		copies[path] = s
	}
	for name, s := range copies {
		if got := tourAnswers(t, s); got != tours {
			t.Errorf("the tournaments in %s:\n got %s\nwant %s", name, got, tours)
		}
		tourGoesOn(t, name, s)
	}
}

// TestMigrateRefuses: a damaged or missing source, a source that is the
// target, a store a bot runs on and a bad --to are refused in one line,
// and nothing is written.
func TestMigrateRefuses(t *testing.T) {
	endpoint, db := migrateSetup(t)
	conf := configFile(t, db, endpoint)
	keys := func() int64 {
		t.Helper()
		s, err := etcdstore.Open(context.Background(), etcdstore.Config{Endpoints: []string{endpoint}, Prefix: "/migrated/"})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		n, err := s.Keys(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		return n
	}

	code, out, errs := runTool("migrate", "--config", configFile(t, db, ""), "--to", "bbolt")
	oneLine(t, "--to bbolt without etcd", code, out, errs, "the source would be the target")
	code, out, errs = runTool("migrate", "--config", configFile(t, db, ""), "--to", "etcd")
	oneLine(t, "--to etcd without etcd", code, out, errs, "storage.etcd.endpoints is not set")
	code, out, errs = runTool("migrate", "--config", conf, "--to", "mysql")
	oneLine(t, "--to mysql", code, out, errs, `--to "mysql"`)
	code, out, errs = runTool("migrate", "--config", configFile(t, db+".none", endpoint), "--to", "etcd")
	oneLine(t, "no database", code, out, errs, "there is no database at")

	// A bot running on etcd (it campaigns for the clocks).
	s, err := etcdstore.Open(context.Background(), etcdstore.Config{Endpoints: []string{endpoint}, Prefix: "/migrated/"})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	leading, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		s.Lead(ctx, "bot", etcdstore.LeaderTTL, func(ctx context.Context) { close(leading); <-ctx.Done() })
	}()
	<-leading
	code, out, errs = runTool("migrate", "--config", conf, "--to", "etcd", "--force")
	oneLine(t, "a bot runs on etcd", code, out, errs, "1 bot process(es) run on etcd")
	cancel()
	<-stopped
	s.Close()

	// A damaged source: refused, and etcd stays empty.
	b, err := os.ReadFile(db)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(db, b[:len(b)/2], 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errs = runTool("migrate", "--config", conf, "--to", "etcd")
	oneLine(t, "a damaged source", code, out, errs, "damaged")
	if n := keys(); n != 0 {
		t.Fatalf("after the refusals, etcd holds %d keys", n)
	}
}
