package web_test

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/boardgamebot/bot/chat"
	"github.com/boardgamebot/bot/sessions"
)

// moves counts the moves played at key.
func (f *fixture) moves(key sessions.Key) int {
	n := 0
	for _, a := range f.look(key).Record.Actions {
		if a.Kind == sessions.ActMove {
			n++
		}
	}
	return n
}

// firstMove is a legal move of the player to move at key.
func (f *fixture) firstMove(key sessions.Key) string {
	return f.look(key).State.Moves()[0].Text
}

// TestLinkRefusals: a request to play is refused, with the line saying
// why, when it carries no token in its header, a token changed or cut, a
// token past its time, a token of another game, or a watch token; and
// nothing is played.
func TestLinkRefusals(t *testing.T) {
	f := newFixture(t)
	f.game(here, alice, bob, "spanish")
	f.game(there, carol, bob, "spanish")
	path, play := parts(t, f.link(here, alice))
	_, watch := parts(t, f.links.Board(f.look(here), carol).Watch)
	_, elsewhere := parts(t, f.link(there, carol))
	mv := f.firstMove(here)
	en := f.chat.Catalogues().In("en")
	cases := []struct {
		name, token string
		later       time.Duration
		status      int
		line        string
	}{
		{"no token", "", 0, http.StatusUnauthorized, en.T("WebNoToken")},
		{"a letter changed", play[:20] + strings.Map(func(r rune) rune { return r ^ 1 }, play[20:21]) + play[21:], 0, http.StatusUnauthorized, en.T("WebBadLink")},
		{"cut short", play[:len(play)-3], 0, http.StatusUnauthorized, en.T("WebBadLink")},
		{"expired", play, 25 * time.Hour, http.StatusUnauthorized, en.T("WebExpired")},
		{"another game's", elsewhere, 0, http.StatusForbidden, en.T("WebOtherGame")},
		{"a watch link", watch, 0, http.StatusForbidden, en.T("WebWatchOnly")},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f.advance(c.later)
			defer f.advance(-c.later)
			code, out := f.post(path, "move", c.token, map[string]any{"id": "req-" + strings.ReplaceAll(c.name, " ", "-") + "-1", "arg": mv})
			if code != c.status || out["ok"] != false || out["error"] != c.line {
				t.Errorf("answered %d %v, want %d %q", code, out, c.status, c.line)
			}
			if n := f.moves(here); n != 0 {
				t.Errorf("%d moves played", n)
			}
		})
	}
	// A token in the address only (a link followed from another site)
	// moves nothing: state-changing requests take it from the header.
	req, _ := http.NewRequest("POST", f.srv.URL+path+"/move?t="+play, strings.NewReader(`{"id":"cross-site-1","arg":"`+mv+`"}`))
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusUnauthorized || f.moves(here) != 0 {
		t.Errorf("a token in the query: %s, %d moves", res.Status, f.moves(here))
	}
	// And the link itself plays.
	if code, out := f.post(path, "move", play, map[string]any{"id": "good-move-1", "arg": mv}); code != http.StatusOK || out["ok"] != true {
		t.Fatalf("alice's own link: %d %v", code, out)
	}
	if n := f.moves(here); n != 1 {
		t.Fatalf("%d moves after alice's move, want 1", n)
	}
}

// TestBadBodies: an action with a body too large, not JSON, with fields
// the server does not take, without a request id, or with a move that
// is not a move's notation, is refused and plays nothing.
func TestBadBodies(t *testing.T) {
	f := newFixture(t)
	f.game(here, alice, bob, "spanish")
	path, play := parts(t, f.link(here, alice))
	mv := f.firstMove(here)
	for _, body := range []any{
		map[string]any{"id": "big-body-1", "arg": mv, "pad": strings.Repeat("x", 20000)},
		"not an object",
		map[string]any{"id": "unknown-1", "arg": mv, "user": "bob"},
		map[string]any{"arg": mv},
		map[string]any{"id": "x", "arg": mv},
		map[string]any{"id": "spaces-1", "arg": mv + " /resign"},
		map[string]any{"id": "empty-arg-1"},
	} {
		if code, out := f.post(path, "move", play, body); code != http.StatusBadRequest || out["ok"] != false {
			t.Errorf("%.60v: %d %v, want 400", body, code, out)
		}
	}
	req, _ := http.NewRequest("POST", f.srv.URL+path+"/dance", strings.NewReader(`{"id":"dance-1"}`))
	req.Header.Set("X-Board-Token", play)
	if res, err := http.DefaultClient.Do(req); err != nil || res.StatusCode != http.StatusNotFound {
		t.Errorf("an unknown action: %v %v, want 404", res, err)
	} else {
		res.Body.Close()
	}
	if n := f.moves(here); n != 0 {
		t.Errorf("%d moves played", n)
	}
}

// TestMoveSentTwice: a move a page sends twice with its request id (a
// tap repeated, a retry after a lost answer) is played once; the second
// answer says it was.
func TestMoveSentTwice(t *testing.T) {
	f := newFixture(t)
	f.game(here, alice, bob, "spanish")
	path, play := parts(t, f.link(here, alice))
	mv := f.firstMove(here)
	body := map[string]any{"id": "the-same-move-7", "arg": mv}
	if code, out := f.post(path, "move", play, body); code != http.StatusOK || out["ok"] != true {
		t.Fatalf("first: %d %v", code, out)
	}
	code, out := f.post(path, "move", play, body)
	if code != http.StatusOK || out["ok"] != true || out["duplicate"] != true {
		t.Fatalf("second: %d %v, want ok and duplicate", code, out)
	}
	if n := f.moves(here); n != 1 {
		t.Fatalf("%d moves, want 1", n)
	}
	if n := len(f.notices.kinds(sessions.NoticeEvent)); n != 1 {
		t.Fatalf("%d posts in the channel, want 1", n)
	}
}

// TestChatAndWebAtOnce: the same move sent at the same moment from the
// chat and from the web board is played once; the other is refused as a
// move out of turn. Many times over, so that either may come first.
func TestChatAndWebAtOnce(t *testing.T) {
	f := newFixture(t)
	f.game(here, alice, bob, "spanish")
	path, play := parts(t, f.link(here, alice))
	for round := range 20 {
		key := here
		mover, link := alice, play
		if round%2 == 1 {
			mover = bob
			_, link = parts(t, f.link(here, bob))
		}
		before := f.moves(key)
		mv := f.firstMove(key)
		var wg sync.WaitGroup
		var web map[string]any
		var chatReply chat.Reply
		wg.Add(2)
		go func() {
			defer wg.Done()
			_, web = f.post(path, "move", link, map[string]any{"id": fmt.Sprintf("at-once-%d", round), "arg": mv})
		}()
		go func() {
			defer wg.Done()
			chatReply = f.say(key, mover, "/move "+mv)
		}()
		wg.Wait()
		if n := f.moves(key); n != before+1 {
			t.Fatalf("round %d: %d moves played, want 1", round, n-before)
		}
		if (web["ok"] == true) == !chatReply.Error {
			t.Fatalf("round %d: web %v, chat %q: want exactly one played", round, web, chatReply.Text())
		}
	}
}

// TestWebMovePostedInChannel: a move played on the web board is posted
// in the game's channel (a NoticeEvent the platform shows as the
// command's reply), so the players there see it.
func TestWebMovePostedInChannel(t *testing.T) {
	f := newFixture(t)
	f.game(here, alice, bob, "spanish")
	path, play := parts(t, f.link(here, alice))
	mv := f.firstMove(here)
	f.post(path, "move", play, map[string]any{"id": "posted-1", "arg": mv})
	got := f.notices.kinds(sessions.NoticeEvent)
	if len(got) != 1 {
		t.Fatalf("%d NoticeEvent, want 1", len(got))
	}
	r := f.chat.NoticeReply(got[0])
	if r.Picture == nil || !strings.Contains(r.Text(), "alice (White) played "+mv) {
		t.Fatalf("the channel reads %q (picture %v)", r.Text(), r.Picture != nil)
	}
}

// TestLinkForOneGame: a link plays its own game only: once that game is
// over and another is played at the same place, the old link moves
// nothing there.
func TestLinkForOneGame(t *testing.T) {
	f := newFixture(t)
	f.game(here, alice, bob, "spanish")
	path, play := parts(t, f.link(here, alice))
	_, watch := parts(t, f.links.Board(f.look(here), carol).Watch)
	f.must(here, bob, "/resign")
	f.game(here, alice, bob, "spanish")
	code, out := f.post(path, "move", play, map[string]any{"id": "old-link-1", "arg": f.firstMove(here)})
	if code == http.StatusOK || out["ok"] != false {
		t.Fatalf("the first game's link in the second game: %d %v", code, out)
	}
	if n := f.moves(here); n != 0 {
		t.Fatalf("%d moves in the second game", n)
	}
	// The old link now shows its finished game.
	if st := f.state(f.links.Board(f.look(here), alice).Watch); st.Phase != "playing" {
		t.Fatalf("the second game's state: %s", st.Phase)
	}
	code, b := f.get(path+"/state", "X-Board-Token", watch)
	if code != http.StatusOK || !strings.Contains(string(b), `"phase":"finished"`) {
		t.Fatalf("the first game's state: %d %s", code, b)
	}
}

// TestEventsLive: a page's stream sends the game's state at once, then
// again at each change, whoever made it (the chat here).
func TestEventsLive(t *testing.T) {
	f := newFixture(t)
	f.game(here, alice, bob, "spanish")
	watching := f.watch(f.links.Board(f.look(here), carol).Watch)
	st := watching.nextState(t)
	if st.Phase != "playing" || st.Turn != 0 || len(st.Moves) != 0 || len(st.History) != 0 {
		t.Fatalf("first state: phase %s turn %d, %d moves offered, %d played", st.Phase, st.Turn, len(st.Moves), len(st.History))
	}
	mv := f.firstMove(here)
	f.must(here, alice, "/move "+mv)
	st = watching.nextState(t)
	if st.Turn != 1 || len(st.History) != 1 || st.History[0].Text != mv || st.Last == nil || st.Last.Text != mv {
		t.Fatalf("after alice's move: turn %d, history %v", st.Turn, st.History)
	}
	if st.FEN != f.look(here).State.FEN() {
		t.Fatalf("FEN %q, want %q", st.FEN, f.look(here).State.FEN())
	}
	f.must(here, bob, "/resign")
	st = watching.nextState(t)
	if st.Phase != "finished" || st.Winner != 0 || st.GameID == "" {
		t.Fatalf("after bob resigned: phase %s winner %d id %q", st.Phase, st.Winner, st.GameID)
	}
	if name, _ := watching.next(t); name != "end" {
		t.Fatalf("after the last state: event %q, want end", name)
	}
}

// TestEventsOverHTTP2: where the HTTP server keeps a stream's
// connection (HTTP/2, behind TLS), the stream is served from its handler
// and gets each change just the same.
func TestEventsOverHTTP2(t *testing.T) {
	f := newFixtureWith(t, fixtureOptions{http2: true})
	f.game(here, alice, bob, "spanish")
	watching := f.watch(f.links.Board(f.look(here), carol).Watch)
	if f.streamProto != "HTTP/2.0" {
		t.Fatalf("the stream is %s, want HTTP/2.0", f.streamProto)
	}
	if st := watching.nextState(t); st.Turn != 0 {
		t.Fatalf("first state: turn %d", st.Turn)
	}
	mv := f.firstMove(here)
	path, play := parts(t, f.link(here, alice))
	if code, out := f.post(path, "move", play, map[string]any{"id": "over-http2-1", "arg": mv}); code != http.StatusOK {
		t.Fatalf("the move: %d %v", code, out)
	}
	if st := watching.nextState(t); len(st.History) != 1 || st.History[0].Text != mv {
		t.Fatalf("after the move: %v", st.History)
	}
	if n := f.hub.Streams(); n != 1 {
		t.Fatalf("%d streams", n)
	}
}

// TestTooManyStreams: beyond MaxStreams a page's stream is refused (429,
// the page tries again after Retry-After), and it is taken again once a page left.
func TestTooManyStreams(t *testing.T) {
	f := newFixtureWith(t, fixtureOptions{maxStreams: 1, keepAlive: 5 * time.Millisecond})
	f.game(here, alice, bob, "spanish")
	watch := f.links.Board(f.look(here), carol).Watch
	first := f.watch(watch)
	first.nextState(t)
	path, tok := parts(t, watch)
	if code, _ := f.get(path + "/events?t=" + tok); code != http.StatusTooManyRequests {
		t.Fatalf("a second stream: %d, want 429", code)
	}
	first.res.Body.Close()
	// The hub learns that the page left when a write fails (a keep-alive
	// comment after the page closed the connection).
	f.must(here, alice, "/move "+f.firstMove(here))
	f.must(here, bob, "/move "+f.firstMove(here))
	for start := time.Now(); f.hub.Streams() != 0; time.Sleep(time.Millisecond) {
		if time.Since(start) > time.Minute {
			t.Fatal("the page that left still counts")
		}
	}
	second := f.watch(watch)
	if st := second.nextState(t); len(st.History) != 2 {
		t.Fatalf("the second stream's state: %v", st.History)
	}
}

// TestRateLimitShared: a page's actions pass the chat's per-user rate
// limit, the same as the user's chat commands: past it, the notice to
// slow down, then actions ignored (the page says so), and the user's
// commands in the chat ignored too; nothing changes.
func TestRateLimitShared(t *testing.T) {
	f := newFixtureWith(t, fixtureOptions{rate: chat.Rate{PerChat: 3, PerChatWindow: time.Hour}})
	// alice's /play counts: two commands left in her bucket.
	f.game(here, alice, bob, "spanish")
	path, play := parts(t, f.link(here, alice))
	en := f.chat.Catalogues().In("en")
	for i, want := range []struct {
		status int
		line   string
	}{
		{http.StatusUnprocessableEntity, en.T("RefusedNoTakeback")},
		{http.StatusUnprocessableEntity, en.T("RefusedNoTakeback")},
		{http.StatusUnprocessableEntity, "Slow down: "},
		{http.StatusTooManyRequests, en.T("WebDropped")},
	} {
		code, out := f.post(path, "takeback", play, map[string]any{"id": fmt.Sprintf("takeback-%d", i)})
		if line, _ := out["error"].(string); code != want.status || !strings.HasPrefix(line, want.line) {
			t.Fatalf("takeback %d: %d %v, want %d %q", i, code, out, want.status, want.line)
		}
	}
	if r := f.say(here, alice, "/draw"); !r.Dropped {
		t.Fatalf("alice's /draw in the chat, past the limit she reached on the web: %q", r.Text())
	}
	if s := f.look(here); len(s.Record.DrawOffer) != 0 || s.Record.Version != 2 {
		t.Fatalf("the game changed: version %d", s.Record.Version)
	}
}

// TestPlayerGetsMoves: the page of the player to move gets the legal
// moves, each with its squares; a watcher's and the other player's do
// not (the server decides what is legal, never the page).
func TestPlayerGetsMoves(t *testing.T) {
	f := newFixture(t)
	f.game(here, alice, bob, "spanish")
	a := f.state(f.link(here, alice))
	b := f.state(f.link(here, bob))
	w := f.state(f.links.Board(f.look(here), carol).Watch)
	legal := f.look(here).State.Moves()
	if len(a.Moves) != len(legal) || len(b.Moves) != 0 || len(w.Moves) != 0 {
		t.Fatalf("moves: alice %d, bob %d, watcher %d; legal %d", len(a.Moves), len(b.Moves), len(w.Moves), len(legal))
	}
	for i, m := range a.Moves {
		if m.Text != legal[i].Text || m.From != legal[i].From.String() || m.To != legal[i].To.String() {
			t.Errorf("move %d: %+v, want %s", i, m, legal[i].Text)
		}
	}
	if len(a.You) != 1 || a.You[0] != 0 || len(w.You) != 0 {
		t.Errorf("you: alice %v, watcher %v", a.You, w.You)
	}
	if a.Rows[0][0] != "a8" || b.Rows[0][0] != "h1" {
		t.Errorf("alice sees %s top left, bob %s: each from their side", a.Rows[0][0], b.Rows[0][0])
	}
}

// TestSetupAndHuff: the page's other actions: an Ultradamas formation
// (the default one), and a Damas huff, each as the chat's command.
func TestSetupAndHuff(t *testing.T) {
	f := newFixture(t)
	f.game(here, alice, bob, "ultradamas")
	path, play := parts(t, f.link(here, alice))
	if st := f.state(f.link(here, alice)); st.Phase != "setup" || len(st.Pending) != 2 {
		t.Fatalf("ultradamas starts in phase %s, pending %v", st.Phase, st.Pending)
	}
	if code, out := f.post(path, "setup", play, map[string]any{"id": "formation-1"}); code != http.StatusOK {
		t.Fatalf("setup: %d %v", code, out)
	}
	if p := f.look(here).Pending(); len(p) != 1 || p[0] != 1 {
		t.Fatalf("after alice's formation, pending %v", p)
	}

	g := newFixture(t)
	g.placed(there, "damas", map[string]string{"huff": "yes"}, "B:Wa3,c3:Bd4,h8", alice, bob)
	// Black (bob) to move may capture d4xb2 or d4xf2; he steps h8-g7 instead, and alice may huff d4.
	g.must(there, bob, "/move h8-g7")
	path, play = parts(t, g.link(there, alice))
	st := g.state(g.link(there, alice))
	if len(st.Huffable) != 1 || st.Huffable[0] != "d4" {
		t.Fatalf("huffable %v, want d4", st.Huffable)
	}
	if code, out := g.post(path, "huff", play, map[string]any{"id": "huff-d4-1", "arg": "d4"}); code != http.StatusOK {
		t.Fatalf("huff: %d %v", code, out)
	}
	if acts := g.look(there).Record.Actions; acts[len(acts)-1].Kind != sessions.ActHuff || acts[len(acts)-1].Text != "d4" {
		t.Fatalf("the last action %+v, want the huff of d4", acts[len(acts)-1])
	}
}
