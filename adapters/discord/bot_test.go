package discord

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/boardgamebot/bot/chat"
	"github.com/boardgamebot/bot/render"
	"github.com/boardgamebot/bot/rules"
	"github.com/boardgamebot/bot/rules/games"
	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/sessions/sessionstest"
	"github.com/boardgamebot/bot/storage/bolt"
	"github.com/bwmarrin/discordgo"
)

// relay is the sessions.Notifier of the tests: it hands notices to the bot
// once there is one (the service is built before the bot).
type relay struct{ b atomic.Pointer[Bot] }

func (r *relay) Notify(ctx context.Context, n sessions.Notice) {
	if b := r.b.Load(); b != nil {
		b.Notify(ctx, n)
	}
}

// env is a bot connected to a fake Discord.
type env struct {
	f    *fakeDiscord
	svc  *sessions.Service
	bot  *Bot
	stop func()
}

// start runs a bot on store against f and waits for its commands.
func start(t *testing.T, f *fakeDiscord, store sessions.Store, guild string) *env {
	t.Helper()
	return startWith(t, f, sessions.Config{Store: store}, guild)
}

// startWith is start with a sessions configuration (a clock).
func startWith(t *testing.T, f *fakeDiscord, sc sessions.Config, guild string) *env {
	t.Helper()
	b, svc := build(t, f, sc, Config{GuildID: guild})
	return run(t, f, b, svc)
}

// build makes a bot of f on a sessions service of sc.
func build(t *testing.T, f *fakeDiscord, sc sessions.Config, cfg Config) (*Bot, *sessions.Service) {
	t.Helper()
	return buildChat(t, f, sc, cfg, chat.Config{})
}

// buildChat is build with a configuration of the chat handler (its
// Sessions is the service built here).
func buildChat(t *testing.T, f *fakeDiscord, sc sessions.Config, cfg Config, cc chat.Config) (*Bot, *sessions.Service) {
	t.Helper()
	rl := &relay{}
	sc.Notifier = rl
	sc.Rand = func(n int) int { return 0 }
	svc := sessions.New(sc)
	t.Cleanup(svc.Close)
	cc.Sessions = svc
	if cfg.Web != nil {
		cc.Web = cfg.Web
	}
	h := chat.New(cc)
	log := slog.New(slog.NewTextHandler(testWriter{t}, &slog.HandlerOptions{Level: slog.LevelWarn}))
	cfg.Token, cfg.HTTPClient = "test-token", f.client()
	b, err := New(cfg, h, svc, render.New(), log)
	if err != nil {
		t.Fatal(err)
	}
	rl.b.Store(b)
	return b, svc
}

// run runs b and waits for its commands.
func run(t *testing.T, f *fakeDiscord, b *Bot, svc *sessions.Service) *env {
	t.Helper()
	from := f.mark()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- b.Run(ctx) }()
	f.waitFor(t, from, "command registration", func(q *fakeReq) bool { return q.method == "PUT" && strings.HasSuffix(q.path, "/commands") })
	var stopped bool
	stop := func() {
		if stopped {
			return
		}
		stopped = true
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("Run: %v", err)
			}
		case <-time.After(10 * time.Second):
			t.Errorf("Run did not return after its context ended")
		}
	}
	t.Cleanup(stop)
	return &env{f: f, svc: svc, bot: b, stop: stop}
}

type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimSpace(string(p)))
	return len(p), nil
}

// request predicates
func callback(i map[string]any) func(q *fakeReq) bool {
	path := "/interactions/" + i["id"].(string) + "/" + i["token"].(string) + "/callback"
	return func(q *fakeReq) bool { return q.method == "POST" && q.path == path }
}

func onOriginal(method string, i map[string]any) func(q *fakeReq) bool {
	path := "/webhooks/" + fakeApp + "/" + i["token"].(string) + "/messages/@original"
	return func(q *fakeReq) bool { return q.method == method && q.path == path }
}

func followup(i map[string]any) func(q *fakeReq) bool {
	path := "/webhooks/" + fakeApp + "/" + i["token"].(string)
	return func(q *fakeReq) bool { return q.method == "POST" && q.path == path }
}

func posted(channel string) func(q *fakeReq) bool {
	return func(q *fakeReq) bool { return q.method == "POST" && q.path == "/channels/"+channel+"/messages" }
}

func content(q *fakeReq) string {
	if d, ok := q.body["data"].(map[string]any); ok {
		s, _ := d["content"].(string)
		return s
	}
	s, _ := q.body["content"].(string)
	return s
}

func flags(q *fakeReq) int {
	if d, ok := q.body["data"].(map[string]any); ok {
		return int(num(d["flags"]))
	}
	return int(num(q.body["flags"]))
}

const ephemeral = 1 << 6

// look returns the session of key, failing the test when there is none.
func look(t *testing.T, svc *sessions.Service, key sessions.Key) *sessions.Snapshot {
	t.Helper()
	s, err := svc.Look(context.Background(), key)
	if err != nil {
		t.Fatalf("Look(%s): %v", key, err)
	}
	return s
}

// challenge has alice challenge bob to Spanish draughts in the text
// channel and bob accept with the button; it returns the game's thread.
func challenge(t *testing.T, e *env) string {
	t.Helper()
	f := e.f
	from := f.mark()
	play := f.slash(t, fakeChan, alice, "play", str("game", "spanish"), usr("opponent", bob))
	cb := f.waitFor(t, from, "the /play callback", callback(play))
	if typ := num(cb.body["type"]); typ != 5 || flags(cb)&ephemeral != 0 {
		t.Fatalf("/play answered with type %v flags %d, want a public deferral (5)", typ, flags(cb))
	}
	edit := f.waitFor(t, from, "the challenge", onOriginal("PATCH", play))
	msg := f.original(play["token"].(string))
	if !strings.Contains(content(edit), "challenges bob") || !strings.Contains(content(edit), "<@"+bob.id+">") {
		t.Fatalf("challenge message %q: want bob challenged and mentioned", content(edit))
	}
	am, _ := edit.body["allowed_mentions"].(map[string]any)
	if parse, _ := am["parse"].([]any); am == nil || len(parse) != 0 {
		t.Errorf("allowed mentions %v: want only users", am)
	}
	for _, u := range am["users"].([]any) {
		if u != alice.id && u != bob.id {
			t.Errorf("allowed mentions name %v, who does not play", u)
		}
	}
	ids := customIDs(f.message(msg))
	if ids["Accept"] == "" || ids["Decline"] == "" {
		t.Fatalf("challenge buttons %v: want Accept and Decline", ids)
	}

	// carol is not invited: her Accept is refused, only she sees why.
	from = f.mark()
	p := f.press(t, msg, carol, ids["Accept"])
	fu := f.waitFor(t, from, "carol's refusal", followup(p))
	if flags(fu)&ephemeral == 0 || !strings.Contains(content(fu), "not for you") {
		t.Errorf("carol's Accept answered %q (flags %d): want an ephemeral refusal", content(fu), flags(fu))
	}

	from = f.mark()
	p = f.press(t, msg, bob, ids["Accept"])
	if typ := num(f.waitFor(t, from, "the Accept callback", callback(p)).body["type"]); typ != 6 {
		t.Fatalf("Accept answered with type %v, want a deferred update (6)", typ)
	}
	th := f.waitFor(t, from, "the thread", func(q *fakeReq) bool {
		return q.method == "POST" && q.path == "/channels/"+fakeChan+"/messages/"+msg+"/threads"
	})
	if name := th.body["name"]; name != "alice vs bob · Spanish draughts" {
		t.Errorf("thread name %q", name)
	}
	board := f.waitFor(t, from, "the board in the thread", posted(msg))
	if len(board.files) != 1 || !strings.HasPrefix(string(board.files[0].data), "\x89PNG") || !strings.Contains(content(board), "<@"+alice.id+">: your move") {
		t.Errorf("first board: %q with %d files: want the picture and alice mentioned", content(board), len(board.files))
	}
	edit = f.waitFor(t, from, "the challenge's update", onOriginal("PATCH", p))
	if !strings.Contains(content(edit), "<#"+msg+">") {
		t.Errorf("challenge message after Accept: %q, want a link to the thread", content(edit))
	}
	return msg
}

// greedy picks the move that leaves the mover the most material (kings
// count 3), then the first in the list: a short, deterministic game.
func greedy(st rules.State) string {
	me := st.Turn()
	best, score := "", -1<<30
	for _, m := range st.Moves() {
		next, _, err := st.Play(m.Text)
		if err != nil {
			continue
		}
		s := 0
		if o := next.Outcome(); o.Over && o.Winner == me {
			return m.Text
		}
		for _, p := range next.View().Pieces {
			v := 1
			if p.Level > 1 {
				v = 3
			}
			if p.Seat == me {
				s += v
			} else {
				s -= v
			}
		}
		if s > score {
			best, score = m.Text, s
		}
	}
	return best
}

func median(d []time.Duration) time.Duration {
	if len(d) == 0 {
		return 0
	}
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2]
}

func TestGameInAThread(t *testing.T) {
	f := newFakeDiscord(t)
	store, err := bolt.Open(filepath.Join(t.TempDir(), "bot.db"), bolt.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	e := start(t, f, store, "")
	f.mu.Lock()
	id := f.identifies[0]
	f.mu.Unlock()
	if intents := num(id["intents"]); intents != 1 {
		t.Errorf("identify intents %v, want 1 (guilds only)", intents)
	}
	thread := challenge(t, e)
	key := sessions.Key{Platform: Platform, Channel: fakeChan, Thread: thread}

	// Autocomplete: the legal moves that start with what was typed.
	st := look(t, e.svc, key).State
	for _, typed := range []string{"", "c", "C3", "zz"} {
		from := f.mark()
		i := f.complete(t, thread, alice, typed)
		cb := f.waitFor(t, from, "the autocomplete answer", callback(i))
		if num(cb.body["type"]) != 8 {
			t.Fatalf("autocomplete answered with type %v, want 8", cb.body["type"])
		}
		var got, want []string
		for _, c := range cb.body["data"].(map[string]any)["choices"].([]any) {
			got = append(got, c.(map[string]any)["value"].(string))
		}
		for _, m := range st.Moves() {
			if strings.HasPrefix(m.Text, strings.ToLower(typed)) && len(want) < 25 {
				want = append(want, m.Text)
			}
		}
		if len(want) == 0 {
			if len(got) != 1 || got[0] != strings.ToLower(typed) {
				t.Errorf("autocomplete %q: %v, want only what was typed back", typed, got)
			}
			continue
		}
		sort.Strings(got)
		sort.Strings(want)
		if !slices.Equal(got, want) {
			t.Errorf("autocomplete %q: %v, want %v", typed, got, want)
		}
	}

	// bob moves out of turn: an ephemeral refusal, nothing changes.
	before := len(look(t, e.svc, key).Record.Actions)
	from := f.mark()
	i := f.slash(t, thread, bob, "move", str("move", st.Moves()[0].Text))
	f.waitFor(t, from, "the deferred answer's deletion", onOriginal("DELETE", i))
	fu := f.waitFor(t, from, "the refusal", followup(i))
	if flags(fu)&ephemeral == 0 || !strings.Contains(content(fu), "alice's turn") {
		t.Errorf("bob's move out of turn answered %q (flags %d)", content(fu), flags(fu))
	}
	if n := len(look(t, e.svc, key).Record.Actions); n != before {
		t.Errorf("a refused move changed the game: %d actions, want %d", n, before)
	}
	if p := f.since(from, posted(thread)); len(p) > 0 {
		t.Errorf("a refused move posted %d messages in the thread", len(p))
	}

	// alice's illegal move: a few legal ones, privately.
	from = f.mark()
	i = f.slash(t, thread, alice, "move", str("move", "a1-h8"))
	fu = f.waitFor(t, from, "the refusal", followup(i))
	if flags(fu)&ephemeral == 0 || !strings.Contains(content(fu), "Legal moves: "+st.Moves()[0].Text) {
		t.Errorf("an illegal move answered %q (flags %d)", content(fu), flags(fu))
	}
	if n := len(look(t, e.svc, key).Record.Actions); n != before {
		t.Errorf("an illegal move changed the game: %d actions, want %d", n, before)
	}

	// bob's Moves while alice is to move: the list, for him only.
	boardMsg := f.message(f.since(0, posted(thread))[0].msgID)
	from = f.mark()
	i = f.press(t, boardMsg.id, bob, customIDs(boardMsg)["Moves"])
	cb := f.waitFor(t, from, "bob's Moves", callback(i))
	if flags(cb)&ephemeral == 0 || !strings.Contains(content(cb), "alice's turn") || !strings.Contains(content(cb), st.Moves()[0].Text) {
		t.Errorf("bob's Moves answered %q (flags %d)", content(cb), flags(cb))
	}

	// The first move with the menus: Moves, a piece, a target.
	from = f.mark()
	i = f.press(t, boardMsg.id, alice, customIDs(boardMsg)["Moves"])
	cb = f.waitFor(t, from, "the piece menu", callback(i))
	if num(cb.body["type"]) != 4 || flags(cb)&ephemeral == 0 {
		t.Fatalf("Moves answered with type %v flags %d, want an ephemeral message", cb.body["type"], flags(cb))
	}
	menu := f.original(i["token"].(string))
	pieceID, pieces, _ := menuOptions(f.message(menu), "Choose a piece")
	if len(pieces) == 0 {
		t.Fatalf("piece menu without pieces: %+v", f.message(menu))
	}
	from = f.mark()
	i = f.press(t, menu, alice, pieceID, pieces[0])
	f.waitFor(t, from, "the target menu", callback(i))
	targetID, targets, values := menuOptions(f.message(menu), "Move "+pieces[0])
	if len(targets) == 0 {
		t.Fatalf("target menu without targets: %+v", f.message(menu))
	}
	from = f.mark()
	i = f.press(t, menu, alice, targetID, values[0])
	f.waitFor(t, from, "the menu's update", onOriginal("PATCH", i))
	fu = f.waitFor(t, from, "the board after a move from the menu", followup(i))
	if len(fu.files) != 1 || flags(fu)&ephemeral != 0 || !strings.Contains(content(fu), "played") {
		t.Errorf("board after the menu move: %q, %d files, flags %d", content(fu), len(fu.files), flags(fu))
	}
	if n := len(look(t, e.svc, key).Record.Actions); n != before+1 {
		t.Errorf("after the menu move: %d actions, want %d", n, before+1)
	}

	// /moves: the list and, for the player to move, the menus; privately.
	from = f.mark()
	i = f.slash(t, thread, bob, "moves")
	cb = f.waitFor(t, from, "the /moves deferral", callback(i))
	list := f.waitFor(t, from, "the moves", onOriginal("PATCH", i))
	if id, pieces, _ := menuOptions(f.message(f.original(i["token"].(string))), "Choose a piece"); flags(cb)&ephemeral == 0 ||
		!strings.Contains(content(list), "legal moves") || id == "" || len(pieces) == 0 {
		t.Errorf("/moves for bob: flags %d, %q, piece menu %q %v", flags(cb), content(list), id, pieces)
	}

	// A duplicate delivery of a /move is applied once.
	snap := look(t, e.svc, key)
	mover := bob
	from = f.mark()
	i = f.interaction(2, thread, mover, map[string]any{"id": "cmdmove", "name": "move", "type": 1,
		"options": []any{map[string]any{"name": "move", "type": 3, "value": greedy(snap.State)}}})
	f.dispatch(t, "INTERACTION_CREATE", i)
	f.dispatch(t, "INTERACTION_CREATE", i)
	f.waitFor(t, from, "the board", onOriginal("PATCH", i))
	time.Sleep(50 * time.Millisecond)
	if n := len(f.since(from, callback(i))); n != 1 {
		t.Errorf("an interaction delivered twice was answered %d times", n)
	}
	if n := len(look(t, e.svc, key).Record.Actions); n != len(snap.Record.Actions)+1 {
		t.Errorf("an interaction delivered twice: %d actions, want %d", n, len(snap.Record.Actions)+1)
	}

	// The rest of the game with /move, timed.
	var deferred, pictures []time.Duration
	var last *fakeReq
	for ply := 0; ; ply++ {
		snap, err := e.svc.Look(context.Background(), key)
		if errors.Is(err, sessions.ErrNoGame) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if ply == 400 {
			t.Fatalf("no end after 400 moves: %s", snap.State.FEN())
		}
		mover := alice
		if snap.Player(snap.Turn()).ID == bob.id {
			mover = bob
		}
		from := f.mark()
		i := f.slash(t, thread, mover, "move", str("move", greedy(snap.State)))
		cb := f.waitFor(t, from, "the /move callback", callback(i))
		last = f.waitFor(t, from, "the board", onOriginal("PATCH", i))
		if len(last.files) != 1 {
			t.Fatalf("move %d: answer %q without a picture", ply, content(last))
		}
		deferred = append(deferred, cb.at.Sub(f.dispatchedAt(i["id"].(string))))
		pictures = append(pictures, last.at.Sub(cb.at))
	}
	if !strings.Contains(content(last), "Game over") {
		t.Errorf("last answer %q: want the result", content(last))
	}
	t.Logf("%d moves: interaction to deferral median %v (max %v); deferral to picture median %v (max %v)",
		len(deferred), median(deferred), slices.Max(deferred), median(pictures), slices.Max(pictures))
}

func TestCommandsRegistered(t *testing.T) {
	f := newFakeDiscord(t)
	from := f.mark()
	start(t, f, sessionstest.NewMemoryStore(), fakeGuild)
	q := f.waitFor(t, from, "the bulk overwrite", func(q *fakeReq) bool { return q.method == "PUT" })
	if want := "/applications/" + fakeApp + "/guilds/" + fakeGuild + "/commands"; q.path != want {
		t.Errorf("commands put on %s, want %s", q.path, want)
	}
	byName := map[string]map[string]any{}
	var names []string
	for _, c := range q.list {
		cm := c.(map[string]any)
		names = append(names, cm["name"].(string))
		byName[cm["name"].(string)] = cm
		if d, _ := cm["description"].(string); d == "" || len([]rune(d)) > 100 {
			t.Errorf("/%s: description %q", cm["name"], d)
		}
		// Server members who may send messages use the commands, in
		// servers only; not through the deprecated dm_permission.
		if _, ok := cm["dm_permission"]; ok {
			t.Errorf("/%s: dm_permission %v (deprecated)", cm["name"], cm["dm_permission"])
		}
		if p := cm["default_member_permissions"]; p != "2048" {
			t.Errorf("/%s: default_member_permissions %v, want \"2048\" (Send Messages)", cm["name"], p)
		}
		if c, _ := cm["contexts"].([]any); len(c) != 1 || num(c[0]) != 0 {
			t.Errorf("/%s: contexts %v, want [0] (servers only)", cm["name"], cm["contexts"])
		}
	}
	for _, n := range []string{"play", "accept", "decline", "cancel", "move", "moves", "board", "draw", "resign",
		"takeback", "rematch", "setup", "huff", "history", "show", "replay", "export", "rating", "top", "profile", "vs", "games", "help"} {
		if byName[n] == nil {
			t.Errorf("no /%s among %v", n, names)
		}
	}
	options := func(cmd string) map[string]map[string]any {
		out := map[string]map[string]any{}
		for _, o := range byName[cmd]["options"].([]any) {
			om := o.(map[string]any)
			out[om["name"].(string)] = om
		}
		return out
	}
	play := options("play")
	for _, o := range []string{"game", "opponent", "color", "time", "rated", "level", "size", "players", "flying", "huff"} {
		if play[o] == nil {
			t.Errorf("/play has no option %s", o)
		}
	}
	var ids []string
	for _, c := range play["game"]["choices"].([]any) {
		ids = append(ids, c.(map[string]any)["value"].(string))
	}
	var want []string
	for _, g := range games.List() {
		want = append(want, g.ID)
	}
	if !slices.Equal(ids, want) {
		t.Errorf("/play game choices %v, want %v", ids, want)
	}
	if num(play["opponent"]["type"]) != 6 {
		t.Errorf("/play opponent is of type %v, want a user (6)", play["opponent"]["type"])
	}
	if mv := options("move")["move"]; mv["autocomplete"] != true || mv["required"] != true {
		t.Errorf("/move option: %v, want required and autocompleted", mv)
	}

	// /help answers privately, in as many messages as it takes.
	from = f.mark()
	i := f.slash(t, fakeChan, alice, "help")
	cb := f.waitFor(t, from, "the /help deferral", callback(i))
	help := f.waitFor(t, from, "the help", onOriginal("PATCH", i))
	if flags(cb)&ephemeral == 0 || !strings.Contains(content(help), "/play") {
		t.Errorf("/help: deferred with flags %d, answered %q", flags(cb), content(help))
	}
}

// TestPlayTimeOptionShowsTheDefault: /play's time option tells the time
// per move Discord games get without it (clocks.discord), and offers it.
func TestPlayTimeOptionShowsTheDefault(t *testing.T) {
	f := newFakeDiscord(t)
	from := f.mark()
	startWith(t, f, sessions.Config{Store: sessionstest.NewMemoryStore(), DefaultTime: func(p string) sessions.Duration {
		if p == Platform {
			return sessions.Duration(10 * time.Minute)
		}
		return 0
	}}, fakeGuild)
	q := f.waitFor(t, from, "the bulk overwrite", func(q *fakeReq) bool { return q.method == "PUT" })
	var opt map[string]any
	for _, c := range q.list {
		if cm := c.(map[string]any); cm["name"] == "play" {
			for _, o := range cm["options"].([]any) {
				if om := o.(map[string]any); om["name"] == "time" {
					opt = om
				}
			}
		}
	}
	if opt == nil {
		t.Fatal("/play has no time option")
	}
	if opt["description"] != "time per move (default 10m)" {
		t.Errorf("time option described as %q", opt["description"])
	}
	var values []string
	for _, c := range opt["choices"].([]any) {
		values = append(values, c.(map[string]any)["value"].(string))
	}
	if want := []string{"5m", "10m", "1h", "1d", "3d", "off"}; !slices.Equal(values, want) {
		t.Errorf("time choices %q, want %q", values, want)
	}
}

// TestTimeChoices: a configured default that is not among the usual
// choices is offered too, in its place.
func TestTimeChoices(t *testing.T) {
	for _, tc := range []struct {
		def  sessions.Duration
		want []string
	}{
		{0, []string{"5m", "10m", "1h", "1d", "3d", "off"}},
		{sessions.Duration(time.Hour), []string{"5m", "10m", "1h", "1d", "3d", "off"}},
		{sessions.Duration(2 * time.Hour), []string{"5m", "10m", "1h", "2h", "1d", "3d", "off"}},
		{sessions.Duration(7 * 24 * time.Hour), []string{"5m", "10m", "1h", "1d", "3d", "7d", "off"}},
	} {
		if got := timeChoices(tc.def); !slices.Equal(got, tc.want) {
			t.Errorf("default %v: %q, want %q", tc.def, got, tc.want)
		}
	}
}

func TestParts(t *testing.T) {
	var lines []string
	for n := 0; n < 120; n++ {
		lines = append(lines, strings.Repeat("x", n%70)+" line")
	}
	lines = append(lines, strings.Repeat("y", 4100))
	text := strings.Join(lines, "\n")
	first, rest := outgoing{content: text}.parts()
	all := append([]string{first}, rest...)
	for _, p := range all {
		if len(p) > maxContent || p == "" {
			t.Errorf("a part of %d bytes", len(p))
		}
	}
	if got := strings.ReplaceAll(strings.Join(all, ""), "\n", ""); got != strings.ReplaceAll(text, "\n", "") {
		t.Errorf("the parts do not add up to the text")
	}
	if first, rest := (outgoing{content: "short"}).parts(); first != "short" || rest != nil {
		t.Errorf("parts of a short text: %q %q", first, rest)
	}
}

// TestPartsMultibyte: Discord counts characters, not bytes; a long text
// of German, Tagalog and emoji is cut at line ends, a line longer than a
// message between two characters, never inside one.
func TestPartsMultibyte(t *testing.T) {
	line := "Grüße aus Köln 🎲 · Magandang umaga, kumusta ka? ♛♚ " // 51 characters, more bytes
	var lines []string
	for range 60 {
		lines = append(lines, line)
	}
	long := strings.Repeat("ä🎲", 1500) // one line of 3000 characters
	for _, tc := range []struct {
		name      string
		text      string
		wholeLine bool // every part is whole lines
		parts     int
	}{
		{"one message of 1999 two-byte characters", strings.Repeat("ß", 1999), true, 1},
		{"exactly 2000 emoji", strings.Repeat("🎲", 2000), true, 1},
		{"lines", strings.Join(lines, "\n"), true, 2},
		{"a line longer than a message", "Schach\n" + long + "\nmatt", false, 3},
		{"a line break just past the limit", strings.Repeat("ü", 2000) + "\n" + "ende", true, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			first, rest := outgoing{content: tc.text}.parts()
			all := append([]string{first}, rest...)
			if len(all) != tc.parts {
				t.Errorf("%d parts, want %d", len(all), tc.parts)
			}
			for i, p := range all {
				if n := utf8.RuneCountInString(p); n > maxContent || n == 0 || !utf8.ValidString(p) {
					t.Errorf("part %d: %d characters, valid UTF-8 %v", i, n, utf8.ValidString(p))
				}
				if tc.wholeLine && !strings.HasPrefix(tc.text, p) && !strings.Contains(tc.text, "\n"+p) {
					t.Errorf("part %d does not start at a line: %q...", i, p[:20])
				}
			}
			if got := strings.ReplaceAll(strings.Join(all, ""), "\n", ""); got != strings.ReplaceAll(tc.text, "\n", "") {
				t.Errorf("the parts do not add up to the text")
			}
		})
	}
}

func TestResignWithConfirmation(t *testing.T) {
	f := newFakeDiscord(t)
	e := start(t, f, sessionstest.NewMemoryStore(), "")
	thread := challenge(t, e)
	key := sessions.Key{Platform: Platform, Channel: fakeChan, Thread: thread}
	board := f.message(f.since(0, posted(thread))[0].msgID)
	resign := customIDs(board)["Resign"]

	// A stranger's Resign: refused, privately.
	from := f.mark()
	i := f.press(t, board.id, carol, resign)
	cb := f.waitFor(t, from, "carol's refusal", callback(i))
	if flags(cb)&ephemeral == 0 || !strings.Contains(content(cb), "Only a player of this game") {
		t.Errorf("carol's Resign answered %q (flags %d)", content(cb), flags(cb))
	}

	// bob presses Resign, then No: the game goes on.
	from = f.mark()
	i = f.press(t, board.id, bob, resign)
	cb = f.waitFor(t, from, "the confirmation", callback(i))
	if flags(cb)&ephemeral == 0 || !strings.Contains(content(cb), "Resign") {
		t.Fatalf("Resign answered %q (flags %d), want an ephemeral question", content(cb), flags(cb))
	}
	confirm := f.message(f.original(i["token"].(string)))
	from = f.mark()
	i = f.press(t, confirm.id, bob, customIDs(confirm)["No, play on"])
	f.waitFor(t, from, "the answer to No", callback(i))
	look(t, e.svc, key)

	// bob presses Resign, then Yes: the game ends, everyone sees it.
	from = f.mark()
	i = f.press(t, board.id, bob, resign)
	f.waitFor(t, from, "the confirmation", callback(i))
	confirm = f.message(f.original(i["token"].(string)))
	from = f.mark()
	i = f.press(t, confirm.id, bob, customIDs(confirm)["Yes, resign"])
	fu := f.waitFor(t, from, "the result", followup(i))
	if flags(fu)&ephemeral != 0 || !strings.Contains(content(fu), "resigns") || !strings.Contains(content(fu), "alice (White) wins") {
		t.Errorf("result after resigning: %q (flags %d)", content(fu), flags(fu))
	}
	if _, err := e.svc.Look(context.Background(), key); !errors.Is(err, sessions.ErrNoGame) {
		t.Errorf("after resigning, Look: %v, want ErrNoGame", err)
	}
	if ids := customIDs(f.message(fu.msgID)); ids["Rematch"] == "" {
		t.Errorf("result buttons %v, want Rematch", ids)
	}

	// The finished game as an animation and as a file.
	_, after, ok := strings.Cut(content(fu), "game #")
	id := strings.TrimRight(strings.Fields(after + " ")[0], ".")
	if !ok || id == "" {
		t.Fatalf("result %q names no game id", content(fu))
	}
	for _, c := range []struct{ cmd, ext, magic string }{{"replay", ".gif", "GIF89a"}, {"export", ".pdn", "[Event"}} {
		from = f.mark()
		i = f.slash(t, thread, carol, c.cmd, str("id", id))
		q := f.waitFor(t, from, "the /"+c.cmd+" answer", onOriginal("PATCH", i))
		if len(q.files) != 1 || !strings.HasSuffix(q.files[0].name, c.ext) || !strings.HasPrefix(string(q.files[0].data), c.magic) {
			var names []string
			for _, f := range q.files {
				names = append(names, f.name)
			}
			t.Errorf("/%s %s answered %q with files %v, want one %s", c.cmd, id, content(q), names, c.ext)
		}
	}
}

func TestRestartMidGame(t *testing.T) {
	f := newFakeDiscord(t)
	path := filepath.Join(t.TempDir(), "bot.db")
	store, err := bolt.Open(path, bolt.Options{})
	if err != nil {
		t.Fatal(err)
	}
	e := start(t, f, store, "")
	thread := challenge(t, e)
	key := sessions.Key{Platform: Platform, Channel: fakeChan, Thread: thread}
	var lastMove map[string]any
	play := func(e *env, ply int) {
		t.Helper()
		snap := look(t, e.svc, key)
		mover := alice
		if snap.Player(snap.Turn()).ID == bob.id {
			mover = bob
		}
		from := f.mark()
		i := f.slash(t, thread, mover, "move", str("move", greedy(snap.State)))
		q := f.waitFor(t, from, "the board", onOriginal("PATCH", i))
		if len(q.files) != 1 || !strings.Contains(content(q), "played") {
			t.Fatalf("move %d answered %q", ply, content(q))
		}
		lastMove = i
	}
	play(e, 0)
	// A lost connection resumes the gateway session.
	f.drop()
	play(e, 1)
	play(e, 2)
	if id, res := f.counts(); id != 1 || res != 1 {
		t.Errorf("after a dropped connection: %d identifies and %d resumes, want 1 and 1", id, res)
	}
	e.stop()
	if err := store.Close(); err != nil {
		t.Fatal(err)
	}

	store, err = bolt.Open(path, bolt.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	f.omitChan = true // the new process must ask Discord what the thread is
	e = start(t, f, store, "")
	if id, _ := f.counts(); id != 2 {
		t.Errorf("%d identifies, want 2 (one per process)", id)
	}
	// The last move of the first process, delivered again to the new one
	// (which has not seen its id): applied once, nothing more said.
	from := f.mark()
	f.dispatch(t, "INTERACTION_CREATE", lastMove)
	f.waitFor(t, from, "the deferred answer's deletion", onOriginal("DELETE", lastMove))
	if n := len(look(t, e.svc, key).Record.Actions); n != 3 {
		t.Errorf("a move delivered again after the restart: %d moves, want 3", n)
	}
	if q := f.since(from, func(q *fakeReq) bool {
		return q.method == "PATCH" || q.method == "POST" && !strings.HasSuffix(q.path, "/callback")
	}); len(q) > 0 {
		t.Errorf("a move delivered again was answered: %s %s %q", q[0].method, q[0].path, content(q[0]))
	}
	for ply := 3; ply < 6; ply++ {
		play(e, ply)
	}
	if n := len(look(t, e.svc, key).Record.Actions); n != 6 {
		t.Errorf("after the restart: %d moves, want 6", n)
	}
}

func TestCommandText(t *testing.T) {
	// Slash commands become the text the chat handler parses.
	for _, c := range []struct {
		name string
		opts []any
		want string
	}{
		{"play", []any{map[string]any{"name": "game", "type": 3, "value": "dame"}, map[string]any{"name": "opponent", "type": 6, "value": bob.id},
			map[string]any{"name": "flying", "type": 5, "value": false}, map[string]any{"name": "time", "type": 3, "value": "1h"}},
			"/play dame @u102 time=1h flying=no"},
		{"play", []any{map[string]any{"name": "game", "type": 3, "value": "spanish"}, map[string]any{"name": "opponent", "type": 6, "value": fakeApp},
			map[string]any{"name": "level", "type": 4, "value": 3.0}}, "/play spanish bot level=3"},
		{"play", []any{map[string]any{"name": "game", "type": 3, "value": "halma"}, map[string]any{"name": "size", "type": 4, "value": 16.0},
			map[string]any{"name": "players", "type": 4, "value": 4.0}}, "/play halma size=16 players=4"},
		{"move", []any{map[string]any{"name": "move", "type": 3, "value": " c3 - d4 "}}, "/move c3-d4"},
		{"setup", []any{map[string]any{"name": "squares", "type": 3, "value": "a1 c1  e1"}}, "/setup a1 c1 e1"},
		{"board", nil, "/board"},
		{"top", []any{map[string]any{"name": "month", "type": 3, "value": "2026-10"}, map[string]any{"name": "game", "type": 3, "value": "dame"}}, "/top dame 2026-10"},
		{"history", []any{map[string]any{"name": "game", "type": 3, "value": "halma"}, map[string]any{"name": "user", "type": 6, "value": bob.id}}, "/history @u102 halma"},
		{"top", []any{map[string]any{"name": "ladder", "type": 3, "value": "global"}, map[string]any{"name": "game", "type": 3, "value": "dame"}}, "/top global dame"},
		{"top", []any{map[string]any{"name": "ladder", "type": 3, "value": "here"}}, "/top"},
		{"vs", []any{map[string]any{"name": "game", "type": 3, "value": "halma"}, map[string]any{"name": "user", "type": 6, "value": bob.id}}, "/vs @u102 halma"},
		{"profile", []any{map[string]any{"name": "user", "type": 6, "value": bob.id}}, "/profile @u102"},
		{"help", []any{map[string]any{"name": "command", "type": 3, "value": "play"}}, "/help play"},
	} {
		d := decodeCommand(t, c.name, c.opts)
		got, mentions := commandText(d, fakeApp)
		if got != c.want {
			t.Errorf("%s %v: %q, want %q", c.name, c.opts, got, c.want)
		}
		if strings.Contains(got, "@u102") && mentions["u102"].ID != bob.id {
			t.Errorf("%q: mentions %v, want bob's id", got, mentions)
		}
	}
}

// decodeCommand reads a slash command as discordgo reads it from the gateway.
func decodeCommand(t *testing.T, name string, opts []any) discordgo.ApplicationCommandInteractionData {
	t.Helper()
	b, err := json.Marshal(map[string]any{"id": "1", "type": 2, "data": map[string]any{"name": name, "type": 1, "options": opts,
		"resolved": map[string]any{"users": map[string]any{bob.id: map[string]any{"id": bob.id, "username": "bob"}}}}})
	if err != nil {
		t.Fatal(err)
	}
	var i discordgo.Interaction
	if err := json.Unmarshal(b, &i); err != nil {
		t.Fatal(err)
	}
	return i.ApplicationCommandData()
}

func TestNoThreadPlaysInTheChannel(t *testing.T) {
	f := newFakeDiscord(t)
	f.failThread = true // the bot may not open threads here
	e := start(t, f, sessionstest.NewMemoryStore(), "")
	from := f.mark()
	play := f.slash(t, fakeChan, alice, "play", str("game", "dame"), usr("opponent", bob))
	f.waitFor(t, from, "the challenge", onOriginal("PATCH", play))
	msg := f.original(play["token"].(string))
	key := sessions.Key{Platform: Platform, Channel: fakeChan, Thread: msg}

	from = f.mark()
	p := f.press(t, msg, bob, customIDs(f.message(msg))["Accept"])
	board := f.waitFor(t, from, "the board in the channel", followup(p))
	if len(board.files) != 1 || !strings.Contains(content(board), "played here") || !strings.Contains(content(board), "<@"+alice.id+">") {
		t.Errorf("board without a thread: %q, %d files", content(board), len(board.files))
	}
	if ids := customIDs(f.message(msg)); len(ids) != 0 {
		t.Errorf("the challenge keeps its buttons after the game started: %v", ids)
	}

	// /move typed in the channel goes to the game.
	snap := look(t, e.svc, key)
	from = f.mark()
	i := f.slash(t, fakeChan, alice, "move", str("move", greedy(snap.State)))
	q := f.waitFor(t, from, "the board", onOriginal("PATCH", i))
	if len(q.files) != 1 || !strings.Contains(content(q), "played") {
		t.Errorf("/move in the channel answered %q", content(q))
	}
	if n := len(look(t, e.svc, key).Record.Actions); n != 1 {
		t.Errorf("%d moves after /move in the channel, want 1", n)
	}
}

func TestDrawByButtons(t *testing.T) {
	f := newFakeDiscord(t)
	e := start(t, f, sessionstest.NewMemoryStore(), "")
	thread := challenge(t, e)
	key := sessions.Key{Platform: Platform, Channel: fakeChan, Thread: thread}
	board := f.message(f.since(0, posted(thread))[0].msgID)

	from := f.mark()
	i := f.press(t, board.id, alice, customIDs(board)["Draw"])
	offer := f.waitFor(t, from, "the draw offer", followup(i))
	if flags(offer)&ephemeral != 0 || !strings.Contains(content(offer), "offers a draw") || !strings.Contains(content(offer), "<@"+bob.id+">") {
		t.Fatalf("draw offer: %q (flags %d)", content(offer), flags(offer))
	}
	msg := f.message(offer.msgID)
	ids := customIDs(msg)
	if ids["Accept draw"] == "" || ids["Decline draw"] == "" {
		t.Fatalf("draw offer buttons %v", ids)
	}
	// alice cannot accept her own offer.
	from = f.mark()
	i = f.press(t, msg.id, alice, ids["Accept draw"])
	if fu := f.waitFor(t, from, "the refusal", followup(i)); flags(fu)&ephemeral == 0 {
		t.Errorf("alice accepting her own draw offer: %q, not ephemeral", content(fu))
	}
	look(t, e.svc, key)

	from = f.mark()
	i = f.press(t, msg.id, bob, ids["Accept draw"])
	res := f.waitFor(t, from, "the result", followup(i))
	if !strings.Contains(content(res), "draw") || !strings.Contains(content(res), "Game over") || len(res.files) != 1 {
		t.Errorf("after the draw was accepted: %q, %d files", content(res), len(res.files))
	}
	f.waitFor(t, from, "the offer's buttons removed", onOriginal("PATCH", i))
	if ids := customIDs(f.message(msg.id)); len(ids) != 0 {
		t.Errorf("the draw offer keeps its buttons: %v", ids)
	}
	if _, err := e.svc.Look(context.Background(), key); !errors.Is(err, sessions.ErrNoGame) {
		t.Errorf("after the draw, Look: %v, want ErrNoGame", err)
	}

	// bob asks for a rematch; alice accepts it; the game goes on in the same thread.
	from = f.mark()
	i = f.press(t, res.msgID, bob, customIDs(f.message(res.msgID))["Rematch"])
	re := f.waitFor(t, from, "the rematch challenge", followup(i))
	if !strings.Contains(content(re), "<@"+alice.id+">") || customIDs(f.message(re.msgID))["Accept"] == "" {
		t.Fatalf("rematch: %q, buttons %v", content(re), customIDs(f.message(re.msgID)))
	}
	from = f.mark()
	i = f.press(t, re.msgID, alice, customIDs(f.message(re.msgID))["Accept"])
	start := f.waitFor(t, from, "the rematch's board", followup(i))
	if len(start.files) != 1 || !strings.Contains(content(start), "<@"+bob.id+">: your move") {
		t.Errorf("rematch start: %q, %d files (colours swapped: bob is White)", content(start), len(start.files))
	}
	if n := len(f.since(from, func(q *fakeReq) bool { return strings.HasSuffix(q.path, "/threads") })); n != 0 {
		t.Errorf("a rematch in a thread opened %d more threads", n)
	}
	if s := look(t, e.svc, key); s.Player(0).ID != bob.id {
		t.Errorf("rematch: White is %v, want bob", s.Player(0))
	}
}

func TestComputerRepliesInTheThread(t *testing.T) {
	f := newFakeDiscord(t)
	e := start(t, f, sessionstest.NewMemoryStore(), "")
	// alice plays the computer: choosing the bot as the opponent.
	from := f.mark()
	play := f.slash(t, fakeChan, alice, "play", str("game", "spanish"), usr("opponent", person{fakeApp, "boardgamebot"}),
		str("color", "white"), opt{"level", 4, 1.0}, str("time", "1h"))
	f.waitFor(t, from, "the /play callback", callback(play))
	thread := f.original(play["token"].(string))
	f.waitFor(t, from, "the thread", func(q *fakeReq) bool { return q.method == "POST" && strings.HasSuffix(q.path, "/threads") })
	first := f.waitFor(t, from, "the first board", posted(thread))
	if c := content(first); !strings.Contains(c, "Computer (Black)") || !strings.Contains(c, "<@"+alice.id+">: your move") || len(first.files) != 1 {
		t.Errorf("first board against the computer: %q", c)
	}
	edit := f.waitFor(t, from, "the /play answer", onOriginal("PATCH", play))
	if !strings.Contains(content(edit), "<#"+thread+">") {
		t.Errorf("/play answered %q, want a link to the thread", content(edit))
	}
	if users := first.body["allowed_mentions"].(map[string]any)["users"].([]any); len(users) != 1 || users[0] != alice.id {
		t.Errorf("allowed mentions %v, want alice only", users)
	}
	key := sessions.Key{Platform: Platform, Channel: fakeChan, Thread: thread}
	for ply := range 3 {
		snap := look(t, e.svc, key)
		from := f.mark()
		i := f.slash(t, thread, alice, "move", str("move", greedy(snap.State)))
		mine := f.waitFor(t, from, "alice's board", onOriginal("PATCH", i))
		reply := f.waitFor(t, from, "the computer's move", posted(thread))
		if !mine.at.Before(reply.at) {
			t.Errorf("move %d: the computer's move was posted before the answer to alice's", ply)
		}
		if c := content(reply); !strings.Contains(c, "Computer (Black) played") || !strings.Contains(c, "<@"+alice.id+">: your move") ||
			!strings.Contains(c, "Deadline <t:") || len(reply.files) != 1 {
			t.Errorf("computer's move %d: %q, %d files", ply, c, len(reply.files))
		}
		if ids := customIDs(f.message(reply.msgID)); ids["Moves"] == "" {
			t.Errorf("computer's move %d: buttons %v", ply, ids)
		}
		if strings.Contains(content(mine), "<@"+alice.id+">") {
			t.Errorf("the answer to alice's move pings her: %q", content(mine))
		}
		if n := len(f.since(from, posted(thread))); n != 1 {
			t.Errorf("move %d: %d posts in the thread, want 1", ply, n)
		}
	}
}

func TestClockRemindsAndMoves(t *testing.T) {
	f := newFakeDiscord(t)
	c := sessionstest.NewClock(time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC))
	e := startWith(t, f, sessions.Config{Store: sessionstest.NewMemoryStore(), Now: c.Now}, "")
	from := f.mark()
	play := f.slash(t, fakeChan, alice, "play", str("game", "spanish"), usr("opponent", bob), str("time", "1h"))
	f.waitFor(t, from, "the challenge", onOriginal("PATCH", play))
	msg := f.original(play["token"].(string))
	from = f.mark()
	f.press(t, msg, bob, customIDs(f.message(msg))["Accept"])
	board := f.waitFor(t, from, "the board in the thread", posted(msg))
	deadline := c.Now().Add(time.Hour).Unix()
	if want := "Deadline <t:" + strconv.FormatInt(deadline, 10) + ":f>"; !strings.Contains(content(board), want) {
		t.Errorf("first board %q: want %q", content(board), want)
	}

	// Near the deadline: a reminder for alice in the thread.
	c.Add(55 * time.Minute)
	from = f.mark()
	e.svc.Tick(context.Background())
	r := f.waitFor(t, from, "the reminder", posted(msg))
	if !strings.HasPrefix(content(r), "<@"+alice.id+">") || !strings.Contains(content(r), "left") {
		t.Errorf("reminder %q", content(r))
	}

	// Past it: the clock plays for alice, and bob is to move.
	c.Add(10 * time.Minute)
	from = f.mark()
	e.svc.Tick(context.Background())
	m := f.waitFor(t, from, "the clock's move", posted(msg))
	if !strings.Contains(content(m), "ran out of time") || !strings.Contains(content(m), "<@"+bob.id+">: your move") || len(m.files) != 1 {
		t.Errorf("clock's move: %q, %d files", content(m), len(m.files))
	}
	time.Sleep(50 * time.Millisecond)
	if n := len(f.since(from, posted(msg))); n != 1 {
		t.Errorf("%d posts for the clock's move, want 1", n)
	}
}

func TestChallengeExpires(t *testing.T) {
	f := newFakeDiscord(t)
	c := sessionstest.NewClock(time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC))
	e := startWith(t, f, sessions.Config{Store: sessionstest.NewMemoryStore(), Now: c.Now, ChallengeTTL: time.Hour}, "")
	from := f.mark()
	play := f.slash(t, fakeChan, carol, "play", str("game", "halma"))
	f.waitFor(t, from, "the challenge", onOriginal("PATCH", play))
	msg := f.original(play["token"].(string))
	c.Add(2 * time.Hour)
	from = f.mark()
	e.svc.Tick(context.Background())
	q := f.waitFor(t, from, "the challenge's update", func(q *fakeReq) bool {
		return q.method == "PATCH" && q.path == "/channels/"+fakeChan+"/messages/"+msg
	})
	if !strings.Contains(content(q), "lapsed") || len(customIDs(f.message(msg))) != 0 {
		t.Errorf("expired challenge: %q, buttons %v", content(q), customIDs(f.message(msg)))
	}
}

func TestNoThreadPermission(t *testing.T) {
	f := newFakeDiscord(t)
	f.perms = allPerms &^ (1 << 35) // no Create Public Threads
	e := start(t, f, sessionstest.NewMemoryStore(), "")
	key := sessions.Key{Platform: Platform, Channel: fakeChan}
	from := f.mark()
	play := f.slash(t, fakeChan, alice, "play", str("game", "ultradamas"), usr("opponent", bob))
	f.waitFor(t, from, "the challenge", onOriginal("PATCH", play))
	if s := look(t, e.svc, key); s.Phase() != sessions.PhaseChallenge {
		t.Fatalf("the challenge is not the channel's session: %v", s.Phase())
	}
	msg := f.original(play["token"].(string))
	from = f.mark()
	p := f.press(t, msg, bob, customIDs(f.message(msg))["Accept"])
	board := f.waitFor(t, from, "the board in the channel", followup(p))
	if len(board.files) != 1 || !strings.Contains(content(board), "formation") {
		t.Errorf("start without threads: %q, %d files", content(board), len(board.files))
	}
	if n := len(f.since(0, func(q *fakeReq) bool { return strings.HasSuffix(q.path, "/threads") })); n != 0 {
		t.Errorf("%d threads opened without the permission", n)
	}
	from = f.mark()
	i := f.slash(t, fakeChan, alice, "setup", str("squares", "default"))
	if q := f.waitFor(t, from, "the answer to /setup", onOriginal("PATCH", i)); !strings.Contains(content(q), "formation") {
		t.Errorf("/setup default in the channel answered %q", content(q))
	}
}

// TestGatewayRefusedAtFirst: while the gateway refuses the connection, Run
// returns why (one "discord:" prefix), and a later Run on the same bot
// gets through and plays.
func TestGatewayRefusedAtFirst(t *testing.T) {
	f := newFakeDiscord(t)
	f.refuse = 2
	b, svc := build(t, f, sessions.Config{Store: sessionstest.NewMemoryStore()}, Config{})
	for attempt := 1; attempt <= 2; attempt++ {
		err := b.Run(context.Background())
		if err == nil || !strings.HasPrefix(err.Error(), "discord: connecting to the gateway: ") || strings.Contains(err.Error(), "discord: discord:") {
			t.Fatalf("attempt %d: Run returned %v, want the refused connection", attempt, err)
		}
	}
	e := run(t, f, b, svc)
	f.mu.Lock()
	refused := f.refused
	f.mu.Unlock()
	if refused != 2 {
		t.Errorf("%d connections refused, want 2", refused)
	}
	from := f.mark()
	play := f.slash(t, fakeChan, alice, "play", str("game", "spanish"), usr("opponent", bob))
	if q := f.waitFor(t, from, "the challenge", onOriginal("PATCH", play)); !strings.Contains(content(q), "Accept") {
		t.Errorf("/play after the gateway came back answered %q", content(q))
	}
	msg := f.original(play["token"].(string))
	if s := look(t, e.svc, sessions.Key{Platform: Platform, Channel: fakeChan, Thread: msg}); s.Phase() != sessions.PhaseChallenge {
		t.Errorf("no challenge after /play: %v", s.Phase())
	}
}

// TestNoThreadSecondPlayRefused: where no thread can be opened, a game is
// played in the channel; a second /play there is refused with the reason
// (it would have taken the channel's commands from the game), and the
// game goes on.
func TestNoThreadSecondPlayRefused(t *testing.T) {
	f := newFakeDiscord(t)
	f.failThread = true
	e := start(t, f, sessionstest.NewMemoryStore(), "")
	key := gameInTheChannel(t, e)

	from := f.mark()
	again := f.slash(t, fakeChan, carol, "play", str("game", "spanish"), usr("opponent", bob))
	q := f.waitFor(t, from, "the refusal", followup(again))
	if flags(q)&ephemeral == 0 || !strings.Contains(content(q), "A game is running here") {
		t.Errorf("a second /play in the channel answered %q (flags %d)", content(q), flags(q))
	}
	if r, _ := e.bot.where.routed(fakeChan); r != key {
		t.Errorf("the channel's commands go to %v, want the game %v", r, key)
	}
	moveInTheChannel(t, e, key, 1)
}

// TestNoThreadGameSurvivesRestart: the channel of a game played there
// (no thread) still sends its commands to the game after a restart.
func TestNoThreadGameSurvivesRestart(t *testing.T) {
	f := newFakeDiscord(t)
	f.failThread = true
	path := filepath.Join(t.TempDir(), "bot.db")
	store, err := bolt.Open(path, bolt.Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, svc := build(t, f, sessions.Config{Store: store}, Config{Routes: store})
	e := run(t, f, b, svc)
	key := gameInTheChannel(t, e)
	e.stop()
	store.Close()

	store, err = bolt.Open(path, bolt.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	b, svc = build(t, f, sessions.Config{Store: store}, Config{Routes: store})
	if _, err := svc.Resume(context.Background()); err != nil {
		t.Fatal(err)
	}
	e = run(t, f, b, svc)
	moveInTheChannel(t, e, key, 1)
	from := f.mark()
	again := f.slash(t, fakeChan, carol, "play", str("game", "spanish"), usr("opponent", bob))
	if q := f.waitFor(t, from, "the refusal", followup(again)); !strings.Contains(content(q), "A game is running here") {
		t.Errorf("a second /play after the restart answered %q", content(q))
	}
}

// gameInTheChannel starts a game between alice and bob in the test
// channel, where no thread opens; it returns the game's key.
func gameInTheChannel(t *testing.T, e *env) sessions.Key {
	t.Helper()
	f := e.f
	from := f.mark()
	play := f.slash(t, fakeChan, alice, "play", str("game", "dame"), usr("opponent", bob))
	f.waitFor(t, from, "the challenge", onOriginal("PATCH", play))
	msg := f.original(play["token"].(string))
	from = f.mark()
	p := f.press(t, msg, bob, customIDs(f.message(msg))["Accept"])
	if q := f.waitFor(t, from, "the board in the channel", followup(p)); !strings.Contains(content(q), "played here") {
		t.Fatalf("the game did not start in the channel: %q", content(q))
	}
	return sessions.Key{Platform: Platform, Channel: fakeChan, Thread: msg}
}

// moveInTheChannel plays the mover's move typed in the channel and checks
// it reached the game of key, which then has want moves.
func moveInTheChannel(t *testing.T, e *env, key sessions.Key, want int) {
	t.Helper()
	snap := look(t, e.svc, key)
	mover := alice
	if snap.Player(snap.Turn()).ID == bob.id {
		mover = bob
	}
	from := e.f.mark()
	i := e.f.slash(t, fakeChan, mover, "move", str("move", greedy(snap.State)))
	q := e.f.waitFor(t, from, "the board", onOriginal("PATCH", i))
	if !strings.Contains(content(q), "played") {
		t.Errorf("/move in the channel answered %q", content(q))
	}
	if n := len(look(t, e.svc, key).Record.Actions); n != want {
		t.Errorf("%d moves after /move in the channel, want %d", n, want)
	}
}
