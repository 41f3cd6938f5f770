package sessions_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/boardgamebot/bot/rules"
	"github.com/boardgamebot/bot/rules/ai"
	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/sessions/sessionstest"
)

// newClock is the clock of the clock tests: time moves only when told.
func newClock() *sessionstest.Clock {
	return sessionstest.NewClock(time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC))
}

// firstMove is a computer that plays the first legal move; with block set
// it waits for block to close (or for its context) before answering.
type firstMove struct {
	mu        sync.Mutex
	calls     int
	levels    []int
	owners    []string // whose turn each search took (ai.OwnerOf)
	block     chan struct{}
	cancelled chan struct{}
}

func (f *firstMove) Move(ctx context.Context, s rules.State, level int, seed uint64) (rules.Move, error) {
	f.mu.Lock()
	f.calls++
	f.levels = append(f.levels, level)
	f.owners = append(f.owners, ai.OwnerOf(ctx))
	block := f.block
	f.mu.Unlock()
	if block != nil {
		select {
		case <-block:
		case <-ctx.Done():
			if f.cancelled != nil {
				close(f.cancelled)
			}
			return rules.Move{}, ctx.Err()
		}
	}
	return s.Moves()[0], nil
}

// noticeLog keeps every notice.
type noticeLog struct {
	mu  sync.Mutex
	got []sessions.Notice
}

func (n *noticeLog) Notify(ctx context.Context, no sessions.Notice) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.got = append(n.got, no)
}

// take returns the notices so far as "kind:to" (to "#" for the channel)
// and forgets them.
func (n *noticeLog) take() string {
	n.mu.Lock()
	defer n.mu.Unlock()
	var out []string
	for _, no := range n.got {
		to := no.To.Name
		if no.To.IsZero() {
			to = "#"
		}
		name := map[sessions.NoticeKind]string{sessions.NoticeYourTurn: "turn", sessions.NoticeGameOver: "over",
			sessions.NoticeMoved: "moved", sessions.NoticeReminder: "reminder", sessions.NoticeExpired: "expired"}[no.Kind]
		if no.Auto {
			name += "(auto)"
		}
		out = append(out, name+":"+to)
	}
	n.got = nil
	return strings.Join(out, " ")
}

func (n *noticeLog) last() sessions.Notice {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.got[len(n.got)-1]
}

type clockFixture struct {
	clk   *sessionstest.Clock
	store *sessionstest.MemoryStore
	comp  *firstMove
	n     *noticeLog
	s     *sessions.Service
}

func newClockFixture(t *testing.T) *clockFixture {
	f := &clockFixture{clk: newClock(), store: sessionstest.NewMemoryStore(), comp: &firstMove{}, n: &noticeLog{}}
	f.s = f.service()
	t.Cleanup(func() { f.s.Close() })
	return f
}

func (f *clockFixture) service() *sessions.Service {
	return sessions.New(sessions.Config{
		Store: f.store, Games: sessionstest.Games, Now: f.clk.Now, Rand: func(int) int { return 0 },
		Computer: f.comp, Notifier: f.n,
		DefaultTime: func(platform string) sessions.Duration {
			if platform == "test" {
				return sessions.Duration(time.Hour)
			}
			return 0
		},
	})
}

// tick runs the clock at the fake time and waits for the moves it started.
func (f *clockFixture) tick(t *testing.T) {
	t.Helper()
	f.s.Tick(ctx)
	if err := f.s.Settle(ctx, key); err != nil {
		t.Fatal(err)
	}
}

func (f *clockFixture) look(t *testing.T) *sessions.Snapshot {
	t.Helper()
	snap, err := f.s.Look(ctx, key)
	if err != nil {
		t.Fatal(err)
	}
	return snap
}

// start has alice (White, to move) and bob play count to 1000 with the
// platform's default clock of an hour, started at the fake time.
func (f *clockFixture) start(t *testing.T, opts ...string) {
	t.Helper()
	p := sessions.DefaultPlayOptions()
	p.Color = sessions.ColorWhite
	for _, o := range opts {
		k, v, _ := strings.Cut(o, "=")
		if _, err := p.Set(k, v); err != nil {
			t.Fatal(err)
		}
	}
	must(t)(f.s.Challenge(ctx, req(alice), sessions.ChallengeSpec{Game: "count", Options: map[string]string{"target": "1000"},
		Invited: []sessions.User{bob}, Play: p}))
	must(t)(f.s.Accept(ctx, req(bob)))
	f.n.take()
}

func TestClockReminderThenAutoMove(t *testing.T) {
	f := newClockFixture(t)
	t0 := f.clk.Now()
	f.start(t)
	if d := f.look(t).Record.Deadline; !d.Equal(t0.Add(time.Hour)) {
		t.Fatalf("deadline %v, want an hour after the start", d)
	}
	f.clk.Set(t0.Add(53 * time.Minute))
	f.tick(t)
	if got := f.n.take(); got != "" {
		t.Fatalf("7 minutes before the deadline: notices %q", got)
	}
	f.clk.Set(t0.Add(54 * time.Minute)) // a tenth of the hour left
	f.tick(t)
	if got := f.n.take(); got != "reminder:alice" {
		t.Fatalf("at 10%% left: notices %q, want the reminder to alice", got)
	}
	f.clk.Set(t0.Add(55 * time.Minute))
	f.tick(t)
	if got := f.n.take(); got != "" {
		t.Fatalf("after the reminder: notices %q, want none (one reminder per move)", got)
	}
	f.clk.Set(t0.Add(time.Hour))
	f.tick(t)
	if got := f.n.take(); got != "moved(auto):# turn:bob" {
		t.Fatalf("at the deadline: notices %q, want alice's move by the clock and bob's turn", got)
	}
	snap := f.look(t)
	if snap.State.FEN() != "1:1" || snap.Record.Auto[0] != 1 {
		t.Fatalf("after the auto-move: %s, auto %v", snap.State.FEN(), snap.Record.Auto)
	}
	if !snap.Record.Deadline.Equal(t0.Add(2 * time.Hour)) {
		t.Fatalf("bob's deadline %v, want an hour after the auto-move", snap.Record.Deadline)
	}
	if f.comp.levels[0] != 1 {
		t.Fatalf("the clock's move searched at level %d, want the quick level 1", f.comp.levels[0])
	}
}

func TestAbandonAfterThreeAutoMoves(t *testing.T) {
	f := newClockFixture(t)
	f.start(t)
	f.clk.Add(time.Hour) // alice lets her time run out once
	f.tick(t)
	must(t)(f.s.Move(ctx, req(bob), "1"))
	must(t)(f.s.Move(ctx, req(alice), "1")) // then plays herself: the count starts again
	if a := f.look(t).Record.Auto[0]; a != 0 {
		t.Fatalf("alice's own move left her count of auto-moves at %d", a)
	}
	must(t)(f.s.Move(ctx, req(bob), "1"))
	for i := 1; i <= 3; i++ {
		f.clk.Add(time.Hour)
		f.tick(t)
		if i == 3 {
			break
		}
		if a := f.look(t).Record.Auto[0]; a != i {
			t.Fatalf("after %d auto-moves in a row the count is %d", i, a)
		}
		must(t)(f.s.Move(ctx, req(bob), "1"))
	}
	if _, err := f.s.Look(ctx, key); !errors.Is(err, sessions.ErrNoGame) {
		t.Fatalf("after 3 auto-moves in a row the game still runs: %v", err)
	}
	no := f.n.last()
	res := no.Session.Record.Result
	if res == nil || res.Winner != 1 || !res.Abandoned || res.Reason != rules.Abandoned || res.By != 0 || res.N != sessions.AutoMovesToAbandon {
		t.Fatalf("last notice %+v, result %+v: want bob's win by abandonment", no, res)
	}
	hist, _ := f.s.History(ctx, sessions.HistoryQuery{Key: key})
	if len(hist) != 1 || !hist[0].Result.Abandoned || hist[0].Result.Winner != 1 {
		t.Fatalf("history %v", hist)
	}
}

func TestChallengeExpires(t *testing.T) {
	f := newClockFixture(t)
	t0 := f.clk.Now()
	challenge(t, f.s, alice, nil, bob)
	f.clk.Set(t0.Add(24*time.Hour - time.Second))
	f.tick(t)
	if f.look(t).Phase() != sessions.PhaseChallenge {
		t.Fatal("the challenge lapsed early")
	}
	f.clk.Set(t0.Add(24 * time.Hour))
	f.tick(t)
	if _, err := f.s.Look(ctx, key); !errors.Is(err, sessions.ErrNoGame) {
		t.Fatalf("after 24 hours: %v, want no game", err)
	}
	if got := f.n.take(); got != "expired:#" {
		t.Fatalf("notices %q", got)
	}
	// The channel is free again.
	challenge(t, f.s, bob, nil, alice)
}

func TestClockCarriesOnAfterRestart(t *testing.T) {
	f := newClockFixture(t)
	t0 := f.clk.Now()
	f.start(t)
	f.clk.Set(t0.Add(30 * time.Minute))
	f.s.Close()
	// The bot stops and starts again half-way through alice's hour.
	f.s = f.service()
	if n, err := f.s.Resume(ctx); err != nil || n != 1 {
		t.Fatalf("resume: %d, %v", n, err)
	}
	if n := f.s.Resident(); n != 0 {
		t.Fatalf("%d sessions loaded at start, want none (the clock loads its session when due)", n)
	}
	f.clk.Set(t0.Add(59 * time.Minute))
	f.tick(t)
	if got := f.n.take(); got != "reminder:alice" {
		t.Fatalf("notices %q, want only the reminder", got)
	}
	f.clk.Set(t0.Add(time.Hour))
	f.tick(t)
	if got := f.n.take(); got != "moved(auto):# turn:bob" {
		t.Fatalf("at the stored deadline: notices %q", got)
	}
}

func TestClockOptions(t *testing.T) {
	for _, tc := range []struct {
		opt  string
		want time.Duration
	}{{"", time.Hour}, {"time=off", 0}, {"time=5m", 5 * time.Minute}, {"time=3d", 72 * time.Hour}} {
		t.Run(tc.opt, func(t *testing.T) {
			f := newClockFixture(t)
			t0 := f.clk.Now()
			var opts []string
			if tc.opt != "" {
				opts = append(opts, tc.opt)
			}
			f.start(t, opts...)
			d := f.look(t).Record.Deadline
			if tc.want == 0 && !d.IsZero() || tc.want != 0 && !d.Equal(t0.Add(tc.want)) {
				t.Fatalf("deadline %v, want %v after the start", d, tc.want)
			}
			if tc.want == 0 {
				f.clk.Add(1000 * time.Hour)
				f.tick(t)
				if got := f.n.take(); got != "" {
					t.Fatalf("a game without a clock got %q", got)
				}
			}
		})
	}
}

// TestDefaultTime: the time per move a /play without time= gets on each
// platform, as adapters show it; off without a configured default.
func TestDefaultTime(t *testing.T) {
	f := newClockFixture(t)
	if got := f.s.DefaultTime("test"); got != sessions.Duration(time.Hour) {
		t.Errorf("test: %v, want 1h", got)
	}
	if got := f.s.DefaultTime("elsewhere"); got != 0 {
		t.Errorf("elsewhere: %v, want off", got)
	}
	bare := sessions.New(sessions.Config{Store: sessionstest.NewMemoryStore()})
	defer bare.Close()
	if got := bare.DefaultTime("test"); got != 0 {
		t.Errorf("without Config.DefaultTime: %v, want off", got)
	}
}

// BenchmarkTickIdle is the clock's pass over games that are not due:
//
//	go test -run '^$' -bench TickIdle -count 3 ./sessions/
func BenchmarkTickIdle(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			f := &clockFixture{clk: newClock(), store: sessionstest.NewMemoryStore(), comp: &firstMove{}, n: &noticeLog{}}
			f.s = f.service()
			defer f.s.Close()
			p := sessions.DefaultPlayOptions()
			for i := range n {
				k := sessions.Key{Platform: "test", Channel: fmt.Sprint(i)}
				if _, err := f.s.Challenge(ctx, sessions.Request{Key: k, User: alice}, sessions.ChallengeSpec{Game: "count", Invited: []sessions.User{bob}, Play: p}); err != nil {
					b.Fatal(err)
				}
				if _, err := f.s.Accept(ctx, sessions.Request{Key: k, User: bob}); err != nil {
					b.Fatal(err)
				}
			}
			b.ResetTimer()
			for range b.N {
				f.s.Tick(ctx)
			}
		})
	}
}
