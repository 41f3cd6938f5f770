package chat_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/boardgamebot/bot/chat"
	"github.com/boardgamebot/bot/rules"
	"github.com/boardgamebot/bot/rules/halma"
	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/sessions/sessionstest"
)

// TestFourPlayerDraw: a draw agreed by four Halma players names them all,
// and the game exports as a draw ("1/2-1/2"), not as unfinished ("*"),
// in a record that reads back.
func TestFourPlayerDraw(t *testing.T) {
	f := newRecFixture(t)
	f.expect("alice", "/play halma players=4 color=white", "challenges", false)
	for _, u := range []string{"bob", "carol", "dave"} {
		f.expect(u, "/accept", "", false)
	}
	s, err := f.svc.Look(ctx, key)
	if err != nil {
		t.Fatal(err)
	}
	first := s.State.Moves()[0].Text
	f.expect("alice", "/move "+first, "played", false)
	for _, u := range []string{"alice", "bob", "carol"} {
		f.expect(u, "/draw", "draw", false)
	}
	want := "Game over: draw between alice (Player 1, red), bob (Player 2, blue), carol (Player 3, green) and dave (Player 4, yellow) (draw agreed)."
	if r := f.expect("dave", "/draw", "accepts the draw", false); !strings.Contains(r.Text(), want) {
		t.Errorf("the last /draw:\n%s\nwant the line %q", r.Text(), want)
	}
	if r := f.expect("alice", "/show 1", "Game #1", false); !strings.Contains(r.Text(), want) {
		t.Errorf("/show 1:\n%s\nwant the line %q", r.Text(), want)
	}
	r := f.expect("alice", "/export 1", "Game #1", false)
	if r.Document == nil {
		t.Fatal("/export sent no file")
	}
	text := string(r.Document.Data)
	if !strings.Contains(text, `[Result "1/2-1/2"]`) {
		t.Fatalf("the export of a drawn four-player game:\n%s", text)
	}
	st, meta, err := halma.ReadRecord(text)
	if err != nil {
		t.Fatalf("the export does not read back: %v\n%s", err, text)
	}
	if meta.Result != "1/2-1/2" || len(meta.Names) != 4 || meta.Names[3] != "dave" || len(st.History()) != 1 {
		t.Errorf("read back: result %q, names %v, %d moves; want 1/2-1/2, four names, 1 move", meta.Result, meta.Names, len(st.History()))
	}
}

// TestFinishedPictureOutlinesNothing: after a resignation the rules still
// see a game going on, but the picture outlines no piece to move.
func TestFinishedPictureOutlinesNothing(t *testing.T) {
	f := newRecFixture(t)
	f.expect("alice", "/play spanish @bob color=white", "challenges", false)
	r := f.expect("bob", "/accept", "Game on", false)
	if r.Picture == nil || len(r.Picture.View.Movable) == 0 {
		t.Fatalf("the game's first picture outlines nothing: %+v", r.Picture)
	}
	f.expect("alice", "/move 11-15", "played", false)
	for _, c := range []struct{ who, cmd string }{{"bob", "/resign"}, {"carol", "/show 1"}} {
		r := f.expect(c.who, c.cmd, "Game", false)
		if r.Picture == nil {
			t.Fatalf("%s: no picture", c.cmd)
		}
		if v := r.Picture.View; len(v.Movable) != 0 || v.Turn != -1 {
			t.Errorf("%s: the finished game's picture has turn %d and outlines %v", c.cmd, v.Turn, v.Movable)
		}
	}
}

// TestHuffMarked: the picture after a huff marks the huffed square with
// the last move (as a captured piece is marked), and so does the picture
// of the huffer's move that follows.
//
//	  a b c d e f g h
//	8 . . . . . . . b      White's man stood on c3 and could take d4;
//	5 . . . . . . . .      it played c3-b4 instead (damas huff=yes):
//	4 . w . b . . . .      Black huffs b4.
//	1 w . . . . . . .
func TestHuffMarked(t *testing.T) {
	for _, byNumber := range []bool{false, true} {
		t.Run(fmt.Sprintf("by number %v", byNumber), func(t *testing.T) { huffMarked(t, byNumber) })
	}
}

func huffMarked(t *testing.T, byNumber bool) {
	store := sessionstest.NewMemoryStore()
	alice, bob := user("alice"), user("bob")
	now := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	rec := &sessions.Record{V: sessions.RecordVersion, Key: key, Game: "damas", Options: map[string]string{"huff": "yes"},
		Play: sessions.DefaultPlayOptions(), Challenger: alice, Seats: []sessions.User{alice, bob},
		Start:   "W:Wc3,a1:Bd4,h8",
		Actions: []sessions.Action{{Kind: sessions.ActMove, Seat: 0, Text: "c3-b4", At: now}},
		Created: now, Started: now, Updated: now}
	if err := store.Commit(ctx, &sessions.Change{Key: key, Live: rec}); err != nil {
		t.Fatal(err)
	}
	svc := sessions.New(sessions.Config{Store: store, Now: func() time.Time { return now }})
	t.Cleanup(svc.Close)
	if _, err := svc.Resume(ctx); err != nil {
		t.Fatal(err)
	}
	f := &fixture{t: t, h: chat.New(chat.Config{Sessions: svc}), store: store}
	b4 := rules.Square{File: 1, Rank: 3}
	marked := func(r chat.Reply) bool {
		return r.Picture != nil && r.Picture.Last != nil && slices.Contains(r.Picture.Last.Captured, b4)
	}
	r := f.expect("bob", "/board", "Last move: c3-b4", false)
	if marked(r) {
		t.Fatalf("b4 marked before the huff: %+v", r.Picture.Last)
	}
	sq := "b4"
	if byNumber { // the square as the numbered board names it
		sq = fmt.Sprint(r.Picture.View.Numbers[b4])
	}
	r = f.expect("bob", "/huff "+sq, "huffs the piece on "+sq, false)
	if !marked(r) || r.Picture.Last.Text != "c3-b4" {
		t.Errorf("the picture after the huff: last %+v, want c3-b4 with b4 marked", r.Picture.Last)
	}
	if r := f.expect("alice", "/board", "", false); !marked(r) {
		t.Errorf("/board after the huff: last %+v, want b4 marked", r.Picture.Last)
	}
	r = f.expect("bob", "/move d4-c3", "played", false)
	if !marked(r) || r.Picture.Last.Text != "d4-c3" {
		t.Errorf("the huffer's move: last %+v, want d4-c3 with b4 marked", r.Picture.Last)
	}
	if r := f.expect("alice", "/move a1-b2", "played", false); marked(r) {
		t.Errorf("the next move still marks b4: %+v", r.Picture.Last)
	}
}

// TestTopWithoutGame: /top without a game shows the ladder of the game
// played here (going on, else the last one finished), and where no game
// was played the leaders of every game that has a ladder.
func TestTopWithoutGame(t *testing.T) {
	f := newRecFixture(t)
	f.game(t) // a rated count game in key's channel: bob 1015, alice 985
	f.expect("carol", "/top", `^Ladder of count, all time, global \(2 players\):\n1\. bob 1015`, false)
	say := func(channel, name, text string) chat.Reply {
		return f.h.Handle(ctx, chat.Message{Key: sessions.Key{Platform: key.Platform, Channel: channel}, User: user(name), Text: text})
	}
	want := "Leaders of every game, all time, global (/top <game> for a whole ladder):\ncount (2 players): 1. bob 1015, 2. alice 985."
	if r := say("elsewhere", "carol", "/top"); r.Text() != want {
		t.Errorf("/top where nothing was played:\n%s\nwant\n%s", r.Text(), want)
	}
	if r := say("elsewhere", "carol", "/top 2026-10"); r.Text() != "No rated games yet (2026-10, global): /play <game> @user starts one." {
		t.Errorf("/top 2026-10 where nothing was played:\n%s", r.Text())
	}
	// A game going on decides, before the last one finished here.
	say("elsewhere", "carol", "/play halma size=8 @dave")
	if r := say("elsewhere", "carol", "/top"); r.Text() != "No rated halma games yet (all time, global): /play halma @user starts one." {
		t.Errorf("/top beside a Halma challenge:\n%s", r.Text())
	}
}
