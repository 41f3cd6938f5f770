package chat_test

import (
	"strings"
	"testing"

	"github.com/boardgamebot/bot/rules/halma"
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
