package discord

import (
	"strings"
	"testing"
	"time"

	"github.com/boardgamebot/bot/chat"
	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/sessions/sessionstest"
)

// TestFloodedThread: a member of the server (carol) sends 200 read-only
// commands at once in the thread of alice and bob's game: /board, /moves,
// /help and the Moves button. Every interaction is answered (deferred or
// responded to); carol's first commands are answered, she gets one
// slow-down notice that only she sees, and then silence: her deferred
// answers are deleted, nothing is posted in the thread. Then alice's move
// posts its board in the thread as usual, and bob plays on.
func TestFloodedThread(t *testing.T) {
	f := newFakeDiscord(t)
	clk := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC) // the rate limit's clock stands still
	b, svc := buildChat(t, f, sessions.Config{Store: sessionstest.NewMemoryStore()}, Config{},
		chat.Config{Rate: chat.DefaultRate(), Now: func() time.Time { return clk }})
	e := run(t, f, b, svc)
	thread := challenge(t, e) // carol's refused Accept counts: one of her 8
	key := sessions.Key{Platform: Platform, Channel: fakeChan, Thread: thread}
	boardMsg := f.since(0, posted(thread))[0].msgID

	from := f.mark()
	var flood []map[string]any
	for n := range 200 {
		var i map[string]any
		switch n % 4 {
		case 0:
			i = f.slash(t, thread, carol, "board")
		case 1:
			i = f.slash(t, thread, carol, "moves")
		case 2:
			i = f.slash(t, thread, carol, "help")
		default:
			i = f.press(t, boardMsg, carol, customIDs(f.message(boardMsg))["Moves"])
		}
		flood = append(flood, i)
	}
	// Every interaction is answered: a component by its callback, a slash
	// command by its deferral and then the deferred answer's edit or
	// deletion (with, for the notice to a public command, an ephemeral
	// follow-up: waited for below).
	ends := map[string][]*fakeReq{}
	for _, i := range flood {
		cb := f.waitFor(t, from, "the callback of each interaction", callback(i))
		ends[i["id"].(string)] = []*fakeReq{cb}
		if i["type"] == 2 { // a slash command
			done := f.waitFor(t, from, "the end of each command", func(q *fakeReq) bool {
				return onOriginal("PATCH", i)(q) || onOriginal("DELETE", i)(q)
			})
			ends[i["id"].(string)] = append(ends[i["id"].(string)], done)
		}
	}
	f.waitFor(t, from, "the slow-down notice", func(q *fakeReq) bool { return strings.Contains(content(q), "Slow down") })
	answered, notices, silent := 0, 0, 0
	for _, i := range flood {
		reqs := append(ends[i["id"].(string)], f.since(from, followup(i))...)
		cb := reqs[0]
		var texts []string
		eph := true
		for _, q := range reqs {
			if c := content(q); c != "" {
				texts = append(texts, c)
				eph = eph && (flags(q)&ephemeral != 0 || q.method == "PATCH" && flags(cb)&ephemeral != 0)
			}
		}
		text := strings.Join(texts, "\n")
		switch {
		case strings.Contains(text, "Slow down"):
			notices++
			if !eph || !strings.Contains(text, "Try again in 10 seconds") {
				t.Errorf("the notice %q (ephemeral %v): want it for carol only, saying when to try again", text, eph)
			}
		case text == "":
			silent++
		default:
			answered++
		}
	}
	if answered != 7 || notices != 1 || silent != 192 {
		t.Errorf("carol's 200 commands: %d answered, %d notices, %d silent; want 7 (8 with her Accept), 1, 192", answered, notices, silent)
	}
	if p := f.since(from, posted(thread)); len(p) != 0 {
		t.Errorf("the flood posted %d messages in the thread, want none (answers go to carol's interactions)", len(p))
	}

	// alice moves: her board is posted in the thread, bob is pinged.
	st := look(t, e.svc, key).State
	from = f.mark()
	i := f.slash(t, thread, alice, "move", str("move", st.Moves()[0].Text))
	edit := f.waitFor(t, from, "alice's move", onOriginal("PATCH", i))
	if !strings.Contains(content(edit), "<@"+bob.id+">") || len(edit.files) != 1 {
		t.Errorf("alice's move answered %q with %d files: want the board and bob mentioned", content(edit), len(edit.files))
	}
	if n := len(look(t, e.svc, key).Record.Actions); n != 1 {
		t.Errorf("%d actions after alice's move, want 1", n)
	}
	st = look(t, e.svc, key).State
	from = f.mark()
	i = f.slash(t, thread, bob, "move", str("move", st.Moves()[0].Text))
	f.waitFor(t, from, "bob's move", onOriginal("PATCH", i))
	if n := len(look(t, e.svc, key).Record.Actions); n != 2 {
		t.Errorf("%d actions after bob's move, want 2", n)
	}
}
