package etcdstore_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/boardgamebot/bot/chat"
	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/storage/etcdstore"
	"github.com/boardgamebot/bot/storage/etcdstore/etcdtest"
	"go.etcd.io/etcd/api/v3/etcdserverpb"
	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"
	"google.golang.org/grpc"
)

// lossy is a bot process whose connection to etcd goes through a proxy
// (etcdtest.Proxy) that loses what the test says: its store's next
// write transaction (a Txn that puts) runs the function given to
// beforeWrite just before it leaves.
type lossy struct {
	proxy *etcdtest.Proxy
	store *etcdstore.Store
	next  atomic.Pointer[func()]
}

// newLossy starts a lossy process on the test's member, with its keys
// under prefix and o's other options.
func newLossy(t *testing.T, prefix string, o etcdstore.Options) *lossy {
	t.Helper()
	p, err := etcdtest.StartProxy(cli.Endpoints()[0])
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	l := &lossy{proxy: p}
	c, err := clientv3.New(clientv3.Config{Endpoints: []string{p.Addr()}, DialTimeout: 5 * time.Second, Logger: zap.NewNop(),
		DialOptions: []grpc.DialOption{grpc.WithChainUnaryInterceptor(l.intercept)}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	o.Prefix = prefix
	l.store = etcdstore.New(c, o)
	return l
}

// intercept runs the function of beforeWrite before the next write.
func (l *lossy) intercept(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
	if r, ok := req.(*etcdserverpb.TxnRequest); ok && puts(r) {
		if f := l.next.Swap(nil); f != nil {
			(*f)()
		}
	}
	return invoker(ctx, method, req, reply, cc, opts...)
}

func puts(r *etcdserverpb.TxnRequest) bool {
	for _, op := range r.Success {
		if op.GetRequestPut() != nil {
			return true
		}
	}
	return false
}

// beforeWrite makes f run just before the next write leaves.
func (l *lossy) beforeWrite(f func()) { l.next.Store(&f) }

// loseAnswer makes the next write reach etcd and apply, and its answer
// never come back: the proxy holds back what the member sends from the
// moment the write leaves, and cut (Proxy.Reset or Cut) runs once the
// write's marker is in etcd (watched on another connection).
func (l *lossy) loseAnswer(t *testing.T, prefix string, cut func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	resp, err := cli.Get(ctx, prefix+"w/", clientv3.WithPrefix(), clientv3.WithCountOnly())
	if err != nil {
		t.Fatal(err)
	}
	wch := cli.Watch(ctx, prefix+"w/", clientv3.WithPrefix(), clientv3.WithRev(resp.Header.Revision+1))
	l.beforeWrite(func() {
		l.proxy.HoldAnswers()
		go func() {
			defer cancel()
			for w := range wch {
				if len(w.Events) > 0 {
					cut()
					return
				}
			}
		}()
	})
}

// loseRequest makes the next write never reach etcd: the proxy drops it
// and resets the connection. first, when set, runs before (another
// process acting first).
func (l *lossy) loseRequest(first func()) {
	l.beforeWrite(func() {
		if first != nil {
			first()
		}
		l.proxy.DropRequests()
	})
}

// TestLostAnswerMove: a move whose transaction reaches etcd and applies,
// and whose answer is lost (the connection reset under it), is answered
// as played, as the store holds it; a move whose request is lost on the
// way is played too (it did not apply: it runs again), or refused as
// usual when another process played first meanwhile. Every answer
// matches the store, over many moves.
func TestLostAnswerMove(t *testing.T) {
	ctx := context.Background()
	direct := open(t)
	prefix := "/" + t.Name() + "/"
	l := newLossy(t, prefix, etcdstore.Options{})
	a, other := service(l.store), service(etcdstore.New(cli, etcdstore.Options{Prefix: prefix}))
	key := sessions.Key{Platform: "test", Channel: "lost"}
	startCount(t, a, key, "1000")
	stored := func() int {
		r, err := direct.Load(ctx, key)
		if err != nil {
			t.Fatal(err)
		}
		return len(r.Actions)
	}
	for i := range 60 {
		n := stored()
		u := []sessions.User{ann, bob}[n%2]
		var want error
		switch i % 3 {
		case 0:
			l.loseAnswer(t, prefix, l.proxy.Reset)
		case 1:
			l.loseRequest(nil)
		case 2:
			l.loseRequest(func() {
				if _, err := other.Move(ctx, sessions.Request{Key: key, User: u}, "1"); err != nil {
					t.Errorf("the other process's move: %v", err)
				}
			})
			want = sessions.ErrNotYourTurn
		}
		_, err := a.Move(ctx, sessions.Request{Key: key, User: u}, "1")
		answered := err == nil && want == nil || err != nil && sessions.KindOf(err) == want
		if got := stored(); got != n+1 || !answered {
			t.Fatalf("move %d (case %d): answered %v; the store holds %d moves, had %d", i, i%3, err, got, n)
		}
	}
	if l.next.Load() != nil {
		t.Fatal("a loss was set up but no write went through it")
	}
}

// startCount starts a game of count to target at key through svc, ann
// (seat 0) against bob.
func startCount(t *testing.T, svc *sessions.Service, key sessions.Key, target string) {
	t.Helper()
	p := sessions.DefaultPlayOptions()
	p.Color = sessions.ColorWhite
	if _, err := svc.Challenge(context.Background(), sessions.Request{Key: key, User: ann}, sessions.ChallengeSpec{Game: "count", Options: map[string]string{"target": target}, Invited: []sessions.User{bob}, Play: p}); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Accept(context.Background(), sessions.Request{Key: key, User: bob}); err != nil {
		t.Fatal(err)
	}
}

// TestLostAnswerGameEnd: the move that ends a rated game, whose answer
// is lost after it applied, or whose request is lost on the way, is
// answered with the game's end, its id and the rating changes that the
// store holds; every game is stored once, and rated once.
func TestLostAnswerGameEnd(t *testing.T) {
	ctx := context.Background()
	direct := open(t)
	prefix := "/" + t.Name() + "/"
	l := newLossy(t, prefix, etcdstore.Options{})
	a := service(l.store)
	const games = 16
	for i := range games {
		key := sessions.Key{Platform: "test", Channel: fmt.Sprint("end", i)}
		startCount(t, a, key, "42") // ann wins with her 11th move of 2: rated
		for m := range 20 {
			if _, err := a.Move(ctx, sessions.Request{Key: key, User: []sessions.User{ann, bob}[m%2]}, "2"); err != nil {
				t.Fatal(err)
			}
		}
		if i%2 == 0 {
			l.loseAnswer(t, prefix, l.proxy.Reset)
		} else {
			l.loseRequest(nil)
		}
		ev, err := a.Move(ctx, sessions.Request{Key: key, User: ann}, "2")
		if err != nil || !ev.Ended() {
			t.Fatalf("game %d: the last move answered %v (ended %v)", i, err, ev.Ended())
		}
		said := ev.Session.Record
		got, err := direct.Finished(ctx, said.ID)
		if err != nil {
			t.Fatalf("game %d: the answer names game %q: %v", i, said.ID, err)
		}
		if got.Key != key || len(got.Ratings) != 2 || fmt.Sprint(got.Ratings) != fmt.Sprint(said.Ratings) {
			t.Fatalf("game %d: answered ratings %+v, stored %+v (game of %s)", i, said.Ratings, got.Ratings, got.Key)
		}
		if h, err := direct.History(ctx, sessions.HistoryQuery{Key: key}); err != nil || len(h) != 1 {
			t.Fatalf("game %d: %d games stored here (%v), want 1", i, len(h), err)
		}
		if _, err := direct.Load(ctx, key); !errors.Is(err, sessions.ErrNotFound) {
			t.Fatalf("game %d: the live session is still there: %v", i, err)
		}
		st, err := direct.Standings(ctx, "test", ann.ID, "count")
		if err != nil || len(st) == 0 || st[0].Games != i+1 || st[0].Rating != said.Ratings[0].After {
			t.Fatalf("game %d: ann's standings %+v (%v): want %d games rated once each, rating %d", i, st, err, i+1, said.Ratings[0].After)
		}
	}
}

// TestUnreachableAfterTheWrite: when etcd cannot be reached at all after
// a move's transaction left (applied, or never sent), the store cannot
// know, and says so within its bound: the player reads that the move may
// or may not have been saved and that /board shows which; once etcd is
// back, /board shows what the store holds.
func TestUnreachableAfterTheWrite(t *testing.T) {
	for _, applied := range []bool{true, false} {
		t.Run(fmt.Sprint("applied=", applied), func(t *testing.T) {
			ctx := context.Background()
			direct := open(t)
			prefix := "/" + t.Name() + "/"
			l := newLossy(t, prefix, etcdstore.Options{Wait: 2 * time.Second})
			a := service(l.store)
			h := chat.New(chat.Config{Sessions: a})
			key := sessions.Key{Platform: "test", Channel: "cut"}
			startCount(t, a, key, "1000")
			if applied {
				l.loseAnswer(t, prefix, l.proxy.Cut)
			} else {
				l.beforeWrite(l.proxy.Cut)
			}
			r := h.Handle(ctx, chat.Message{Key: key, User: ann, Text: "/move 2"})
			words, err := chat.NewCatalogues("en")
			if err != nil {
				t.Fatal(err)
			}
			if want := words.In("en").T("RefusedUnknownOutcome"); r.Text() != want {
				t.Fatalf("the answer: %q\nwant %q", r.Text(), want)
			}
			l.proxy.Reset() // etcd is back
			rec, err := direct.Load(ctx, key)
			if err != nil {
				t.Fatal(err)
			}
			if n := len(rec.Actions); n != map[bool]int{true: 1, false: 0}[applied] {
				t.Fatalf("the store holds %d moves", n)
			}
			snap, err := a.Look(ctx, key)
			if err != nil {
				t.Fatal(err)
			}
			if len(snap.Record.Actions) != len(rec.Actions) {
				t.Fatalf("/board shows %d moves, the store holds %d", len(snap.Record.Actions), len(rec.Actions))
			}
			board := h.Handle(ctx, chat.Message{Key: key, User: ann, Text: "/board"})
			if strings.Contains(board.Text(), "may or may not") || board.Error {
				t.Fatalf("/board: %q", board.Text())
			}
		})
	}
}

// TestFenceStopsALateWrite: a write whose answer was lost is settled by
// a fence on its marker: when the write had applied, the fence says so;
// when it had not, the fence says so and the write can never apply
// after, even when it reaches etcd late (still queued in a member, or in
// a leader's log); asking twice gives the same answer.
func TestFenceStopsALateWrite(t *testing.T) {
	ctx := context.Background()
	s := open(t)
	prefix := "/" + t.Name() + "/"
	for _, tc := range []struct {
		name    string
		arrives bool // the write reached etcd before the fence
	}{{"applied, then asked", true}, {"asked, then it arrives late", false}} {
		t.Run(tc.name, func(t *testing.T) {
			k := prefix + strings.ReplaceAll(tc.name, " ", "_")
			send, settle, err := s.MarkedPut(ctx, k, "x")
			if err != nil {
				t.Fatal(err)
			}
			if tc.arrives {
				if ok, err := send(); !ok || err != nil {
					t.Fatalf("the write: %v %v", ok, err)
				}
			}
			for range 2 {
				if applied, err := settle(); err != nil || applied != tc.arrives {
					t.Fatalf("settle: applied %v (%v), want %v", applied, err, tc.arrives)
				}
			}
			if !tc.arrives {
				if ok, err := send(); ok || err != nil {
					t.Fatalf("the late write applied (%v) after the fence: %v", ok, err)
				}
			}
			resp, err := cli.Get(ctx, k)
			if err != nil {
				t.Fatal(err)
			}
			if stored := len(resp.Kvs) > 0; stored != tc.arrives {
				t.Fatalf("the key is stored: %v, want %v", stored, tc.arrives)
			}
		})
	}
}

// TestLostAnswerTournament: a tournament write (a new tournament, then
// its next revision) whose answer is lost after it applied, or whose
// request is lost on the way, is answered as written, with the id the
// store gave it, and is stored once.
func TestLostAnswerTournament(t *testing.T) {
	ctx := context.Background()
	direct := open(t)
	prefix := "/" + t.Name() + "/"
	l := newLossy(t, prefix, etcdstore.Options{})
	lose := []func(){func() { l.loseAnswer(t, prefix, l.proxy.Reset) }, func() { l.loseRequest(nil) }}
	for i := range 6 {
		key := sessions.Key{Platform: "test", Channel: fmt.Sprint("t", i)}
		tour := &sessions.Tournament{V: sessions.TournamentVersion, Rev: 1, Key: key, Organiser: ann, Game: "count",
			Format: sessions.FormatSwiss, Rounds: 3, Status: sessions.StatusSignup, Created: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
		lose[i%2]()
		if err := l.store.PutTournament(ctx, tour); err != nil || tour.ID == "" {
			t.Fatalf("tournament %d: new: %v (id %q)", i, err, tour.ID)
		}
		if at, err := direct.TournamentsAt(ctx, key, 0); err != nil || len(at) != 1 || at[0].ID != tour.ID {
			t.Fatalf("tournament %d: answered id %s; stored here: %d (%v)", i, tour.ID, len(at), err)
		}
		tour.Rev++
		tour.Players = append(tour.Players, sessions.Entrant{User: bob, Rating: 1000})
		lose[(i+1)%2]()
		if err := l.store.PutTournament(ctx, tour); err != nil {
			t.Fatalf("tournament %d: rev 2: %v", i, err)
		}
		if got, err := direct.Tournament(ctx, tour.ID); err != nil || got.Rev != 2 || len(got.Players) != 1 {
			t.Fatalf("tournament %d: stored %+v (%v), want rev 2 with one player", i, got, err)
		}
	}
}
