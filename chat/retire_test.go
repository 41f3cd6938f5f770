package chat_test

import (
	"strings"
	"testing"
	"time"

	"github.com/boardgamebot/bot/sessions"
)

// TestFourPlayersLeaveInChat: in a game of four whose rules let a player
// leave, /resign and abandoning take the player out, the chat says the
// others play on, and the last one left wins.
func TestFourPlayersLeaveInChat(t *testing.T) {
	f := newRecFixture(t)
	f.expect("alice", "/play count players=4 retire=yes target=1000 color=white", "challenges anyone here", false)
	for _, u := range []string{"bob", "carol", "dave"} {
		f.expect(u, "/accept", u+" ", false)
	}
	f.expect("carol", "/resign", `^carol \(Player 3\) resigns and leaves the game; the others play on\.\nalice \(Player 1\) to move`, false)
	f.expect("carol", "/move 1", `^You have left this game; the others play on without you`, true)
	f.expect("carol", "/draw", `^You have left this game`, true)
	// alice lets the clock play for her three times in a row: she leaves.
	var last string
	for i := 0; i < 3; i++ {
		f.n.take()
		f.clk.Add(time.Hour)
		f.svc.Tick(ctx)
		if err := f.h.Settle(ctx, key); err != nil {
			t.Fatal(err)
		}
		for _, n := range f.n.take() {
			if n.Kind == sessions.NoticeMoved {
				last = f.h.NoticeReply(n).Text()
			}
		}
		if i < 2 {
			f.expect("bob", "/move 1", "played 1", false)
			f.expect("dave", "/move 1", "played 1", false)
		}
	}
	want := "alice (Player 1) ran out of time: the computer played 1 for them (3 of 3 in a row before the game is lost).\n" +
		"alice (Player 1) has abandoned the game and leaves it; the others play on.\nbob (Player 2) to move"
	if !strings.HasPrefix(last, want) {
		t.Fatalf("the third auto-move:\n%s\nwant:\n%s", last, want)
	}
	f.expect("bob", "/move 1", `bob \(Player 2\) played 1\.\ndave \(Player 4\) to move`, false)
	f.expect("dave", "/resign", `^dave \(Player 4\) resigns\.\nGame over: bob \(Player 2\) wins \(the others left\)\.`, false)
}
