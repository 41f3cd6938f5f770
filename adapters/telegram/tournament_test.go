package telegram_test

import (
	"context"
	"fmt"
	"html"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/boardgamebot/bot/adapters/telegram"
	"github.com/boardgamebot/bot/chat"
	"github.com/boardgamebot/bot/render"
	"github.com/boardgamebot/bot/sessions"
)

// More players, for the tournaments (alice, bob and carol are in
// telegram_test.go).
var (
	erin  = tgUser{5, "erin", "Erin"}
	frank = tgUser{6, "frank", "Frank"}
	gina  = tgUser{7, "gina", "Gina"}
)

// inTopic is a text message update in a forum's topic (thread 0: the
// General topic, which has no thread id). As Telegram sends it, a message
// in a topic answers the topic's first message (forum_topic_created,
// whose id is the topic's), the bot's for the topics the bot opened.
func inTopic(chatID int64, thread int, u tgUser, s string) map[string]any {
	up := text(chatID, u, s)
	msg := up["message"].(map[string]any)
	msg["chat"].(map[string]any)["is_forum"] = true
	if thread != 0 {
		msg["message_thread_id"], msg["is_topic_message"] = thread, true
		msg["reply_to_message"] = map[string]any{"message_id": thread, "message_thread_id": thread, "is_topic_message": true, "date": 1,
			"chat": chatJSON(chatID), "from": map[string]any{"id": botID, "is_bot": true, "first_name": "Board", "username": "BoardBot"},
			"forum_topic_created": map[string]any{"name": "a game", "icon_color": 7322096}}
	}
	return up
}

// sentIn matches a successful send of one of the methods into a chat's
// topic (thread 0: the General topic).
func sentIn(chatID int64, thread int, methods ...string) func(c *call) bool {
	in := sent(chatID, methods...)
	want := ""
	if thread != 0 {
		want = strconv.Itoa(thread)
	}
	return func(c *call) bool { return in(c) && c.Params["message_thread_id"] == want }
}

// sayIn sends a text in a topic and waits for the bot's next send there.
func (h *harness) sayIn(chatID int64, thread int, u tgUser, s string) (*call, int) {
	h.t.Helper()
	m := h.f.mark()
	h.f.push(inTopic(chatID, thread, u, s))
	c, _ := h.f.waitCall(m, sentIn(chatID, thread, "sendMessage", "sendPhoto"))
	return c, m
}

// isRefusal reports whether a send is the answer to a refused command:
// a reply to the command's message.
func isRefusal(c *call) bool { return c.Params["reply_to_message_id"] != "" }

// tournamentAt returns the tournament of a chat, nil for none.
func (h *harness) tournamentAt(chatID int64) *sessions.Tournament {
	h.t.Helper()
	ev, err := h.svc.TournamentHere(context.Background(), keyOf(chatID))
	if err != nil {
		return nil
	}
	return ev.Tournament
}

// TestTournamentRefused: /tournament new is refused with the reason in a
// plain group, and in a forum where the bot may not manage topics; no
// tournament opens and no topic is made.
func TestTournamentRefused(t *testing.T) {
	f := newFake(t)
	h := startMemoryBot(t, f)
	const forum int64 = -1006002
	f.setForum(forum, true)
	f.setMember(forum, botID, "administrator", "can_manage_chat", "can_delete_messages")
	f.setMember(group, botID, "administrator", "can_manage_chat", "can_manage_topics")
	words, err := chat.NewCatalogues("en")
	if err != nil {
		t.Fatal(err)
	}
	en := words.In("en")
	for _, tc := range []struct {
		name   string
		chatID int64
		up     map[string]any
		reason string
	}{
		{"plain group", group, text(group, alice, "/tournament new spanish"), en.T("RefusedVenuesNotForum")},
		{"forum without topic rights", forum, inTopic(forum, 0, alice, "/tournament new spanish"), en.T("RefusedVenuesMissing", "Right", en.T("VenueRightManageTopics"))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := f.mark()
			f.push(tc.up)
			c, _ := f.waitCall(m, sent(tc.chatID, "sendMessage"))
			if !isRefusal(c) || c.Params["text"] != html.EscapeString(tc.reason) {
				t.Errorf("/tournament new answered %q, want the refusal %q", c.Params["text"], tc.reason)
			}
			if tour := h.tournamentAt(tc.chatID); tour != nil {
				t.Errorf("a tournament opened: %+v", tour)
			}
			for _, c := range f.callsSince(m, 0) {
				if c.Method == "createForumTopic" {
					t.Errorf("a topic was created: %v", c.Params)
				}
			}
		})
	}
}

// topicOf returns the forum topic of a session key (its thread).
func topicOf(t *testing.T, k sessions.Key) int {
	t.Helper()
	id, err := strconv.Atoi(k.Thread)
	if err != nil || id == 0 {
		t.Fatalf("game key %v has no topic", k)
	}
	return id
}

// tgOf returns the test user of a sessions user.
func tgOf(t *testing.T, u sessions.User) tgUser {
	t.Helper()
	for _, p := range []tgUser{alice, bob, carol, erin, frank, gina} {
		if p.sessionUser().ID == u.ID {
			return p
		}
	}
	t.Fatalf("unknown player %v", u)
	return tgUser{}
}

// checkTable checks the standings table of a post (in a <pre> block):
// each player's points are those of the games played, best first.
func checkTable(t *testing.T, what, post string, points map[string]float64) {
	t.Helper()
	_, table, ok := strings.Cut(post, "<pre>")
	table, _, ok2 := strings.Cut(table, "</pre>")
	if !ok || !ok2 {
		t.Errorf("%s: no table in %q", what, post)
		return
	}
	rows := strings.Split(table, "\n")[1:] // the headings first
	if len(rows) != len(points) {
		t.Errorf("%s: %d rows in the table, want %d:\n%s", what, len(rows), len(points), table)
	}
	last := 99.0
	for _, row := range rows {
		cells := strings.Fields(row)
		if len(cells) != 6 {
			t.Errorf("%s: row %q has %d cells", what, row, len(cells))
			continue
		}
		var pts float64
		for _, p := range []tgUser{alice, bob, carol, erin, frank, gina} {
			if p.user == cells[1] {
				pts = points[strconv.FormatInt(p.id, 10)]
			}
		}
		if cells[2] != render.Points(pts) || pts > last {
			t.Errorf("%s: row %q: want %s points, in order:\n%s", what, row, render.Points(pts), table)
		}
		last = pts
	}
}

// TestTournamentSwiss plays a 6-player Swiss of 3 rounds in a forum, as
// its players would: /tournament new in the General topic, the joins, the
// start (refused to a player who is not the organiser, taken from a chat
// administrator), each game in its own topic opened by the bot with its
// board mentioning both players, finished by a resignation or a draw; the
// standings after each round and the final standings in the General
// topic, as a table and a picture; then /tournament show.
func TestTournamentSwiss(t *testing.T) {
	f := newFake(t)
	h := startMemoryBot(t, f)
	ctx := context.Background()
	const forum int64 = -1006001
	f.setForum(forum, true)
	f.setMember(forum, botID, "administrator", "can_manage_chat", "can_manage_topics")
	f.setMember(forum, gina.id, "administrator", "can_manage_chat")
	players := []tgUser{alice, bob, carol, erin, frank, gina}
	words, err := chat.NewCatalogues("en")
	if err != nil {
		t.Fatal(err)
	}
	en := words.In("en")
	// alice asks for private pings: her games' openings come there too.
	h.say(alice.id, alice, "/start")
	h.say(alice.id, alice, "/notify on")

	c, _ := h.sayIn(forum, 0, alice, "/tournament new spanish rounds=3")
	if isRefusal(c) {
		t.Fatalf("/tournament new refused: %s", c.Params["text"])
	}
	tour := h.tournamentAt(forum)
	if tour == nil || tour.Status != sessions.StatusSignup || tour.Key != keyOf(forum) {
		t.Fatalf("after /tournament new: %+v", tour)
	}
	for i, p := range players {
		c, _ := h.sayIn(forum, 0, p, "/tournament join")
		if isRefusal(c) {
			t.Fatalf("%s's join refused: %s", p.user, c.Params["text"])
		}
		if tour := h.tournamentAt(forum); len(tour.Players) != i+1 {
			t.Fatalf("after %d joins: %d players", i+1, len(tour.Players))
		}
	}
	// carol may not start it; gina, an administrator of the chat, may.
	if c, _ := h.sayIn(forum, 0, carol, "/tournament start"); !isRefusal(c) {
		t.Errorf("carol's start answered %q, want a refusal", c.Params["text"])
	}
	if tour := h.tournamentAt(forum); tour.Status != sessions.StatusSignup {
		t.Fatalf("carol's start changed the status to %s", tour.Status)
	}
	c, m := h.sayIn(forum, 0, gina, "/tournament start")
	if isRefusal(c) {
		t.Fatalf("the administrator's start refused: %s", c.Params["text"])
	}

	// from is where the round's first boards are looked for; seen the
	// highest topic of the rounds before (topics are numbered upwards).
	from, seen := m, 0
	points := map[string]float64{}
	for _, p := range players {
		points[strconv.FormatInt(p.id, 10)] = 0
	}
	for round := 1; round <= 3; round++ {
		// The round's three games, each in a new topic, its board
		// posted there.
		boards := map[int]*call{}
		for idx := from; len(boards) < 3; {
			c, next := f.waitCall(idx, func(c *call) bool {
				n, _ := strconv.Atoi(c.Params["message_thread_id"])
				return sent(forum, "sendPhoto")(c) && n > seen
			})
			n, _ := strconv.Atoi(c.Params["message_thread_id"])
			if boards[n] == nil {
				boards[n] = c
			}
			idx = next
		}
		tour = h.tournamentAt(forum)
		if len(tour.Played) != round || len(tour.Played[round-1].Games) != 3 {
			t.Fatalf("round %d: the tournament's rounds: %+v", round, tour.Played)
		}
		games := tour.Played[round-1].Games
		// The pairings come to the General topic (round 1's in the
		// answer to the start).
		header := html.EscapeString(en.T("TourPairedHeader", "ID", tour.ID, "Round", round, "Rounds", 3))
		pairings, _ := f.waitCall(from, func(c *call) bool {
			return sentIn(forum, 0, "sendMessage")(c) && strings.Contains(c.Params["text"], header)
		})
		// alice's ping, by private message, with a link to the forum (the
		// ping of her last game's end goes to the same chat, in no
		// particular order with the forum's posts).
		want, _, _ := strings.Cut(en.T("TourGamePingAt", "Name", "alice", "ID", tour.ID, "Round", round, "Players", "", "Where", "\x00"), "\x00")
		ping, _ := f.waitCall(from, func(c *call) bool {
			return sent(alice.id, "sendMessage")(c) && strings.HasPrefix(c.Params["text"], html.EscapeString(want))
		})
		var mm int
		for board, g := range games {
			thread := topicOf(t, g.Key)
			seen = max(seen, thread)
			photo := boards[thread]
			if photo == nil {
				t.Fatalf("round %d board %d: no board posted in its topic %d", round, board, thread)
			}
			for _, id := range []string{g.White, g.Black} {
				if !strings.Contains(photo.Params["caption"], `tg://user?id=`+id+`"`) {
					t.Errorf("round %d board %d: the first board does not mention %s: %q", round, board, id, photo.Params["caption"])
				}
			}
			s, err := h.svc.Look(ctx, g.Key)
			if err != nil || s.Phase() != sessions.PhasePlaying || s.Player(0).ID != g.White || s.Player(1).ID != g.Black {
				t.Fatalf("round %d board %d: the game at %v: %v %v", round, board, g.Key, s, err)
			}
			white, black := tgOf(t, s.Player(0)), tgOf(t, s.Player(1))
			// The pairings and alice's ping link the game's topic.
			topicLink := fmt.Sprintf("https://t.me/c/%s/%d", strings.TrimPrefix(strconv.FormatInt(forum, 10), "-100"), thread)
			if !strings.Contains(pairings.Params["text"], topicLink+".") {
				t.Errorf("round %d board %d: the pairings do not link its topic %s: %q", round, board, topicLink, pairings.Params["text"])
			}
			if (white == alice || black == alice) && !strings.Contains(ping.Params["text"], topicLink+":") {
				t.Errorf("round %d: alice's ping does not link her game's topic %s: %q", round, topicLink, ping.Params["text"])
			}
			if white == alice || black == alice {
				// The ping's button goes to the board in the topic.
				link := fmt.Sprintf("https://t.me/c/%s/%d/%d", strings.TrimPrefix(strconv.FormatInt(forum, 10), "-100"), thread, photo.MsgID)
				if kb := keyboard(t, ping); len(kb) != 1 || kb[0][0].URL == nil || *kb[0][0].URL != link {
					t.Errorf("round %d: alice's ping has the buttons %s, want a link to %s", round, ping.Params["reply_markup"], link)
				}
			}
			name := en.T("TelegramTourTopic", "ID", tour.ID, "Round", round, "White", white.user, "Black", black.user)
			if !slices.Contains(f.topicsOf(forum), topic{id: thread, name: name}) {
				t.Errorf("round %d board %d: topic %d is not named %q: %+v", round, board, thread, name, f.topicsOf(forum))
			}
			mm = f.mark()
			switch board {
			case 0: // Black resigns.
				f.push(inTopic(forum, thread, black, "/resign"))
				points[g.White]++
			case 1: // White resigns.
				f.push(inTopic(forum, thread, white, "/resign"))
				points[g.Black]++
			default: // A draw, offered and accepted.
				h.sayIn(forum, thread, white, "/draw")
				mm = f.mark()
				f.push(inTopic(forum, thread, black, "/draw"))
				points[g.White] += 0.5
				points[g.Black] += 0.5
			}
			f.waitCall(mm, sentIn(forum, thread, "sendMessage", "sendPhoto"))
		}
		// The standings come to the General topic, as a picture and a
		// table; the next round's boards may come before or after them.
		pic, _ := f.waitCall(mm, sentIn(forum, 0, "sendPhoto"))
		if pic.Image == nil {
			t.Errorf("round %d: the standings were not uploaded as a picture", round)
		}
		title := en.T("TourStandingsAfter", "ID", tour.ID, "Round", round, "Rounds", 3)
		if round == 3 {
			title = en.T("TourFinalTitle", "ID", tour.ID)
		}
		if !strings.Contains(pic.Params["caption"], html.EscapeString(title)) {
			t.Errorf("round %d: the standings' caption %q lacks %q", round, pic.Params["caption"], title)
		}
		checkTable(t, "round "+strconv.Itoa(round), pic.Params["caption"], points)
		from = mm
	}
	tour = h.tournamentAt(forum)
	if tour.Status != sessions.StatusFinished {
		t.Fatalf("after 3 rounds the tournament is %s", tour.Status)
	}

	// Every game's topic is closed now; /tournament standings in the
	// General topic gives the final standings.
	for _, r := range tour.Played {
		for _, g := range r.Games {
			if !f.isClosed(forum, topicOf(t, g.Key)) {
				t.Errorf("round %d: the topic of game #%s is open", r.Number, g.GameID)
			}
		}
	}
	c, _ = h.sayIn(forum, 0, bob, "/tournament standings")
	if !strings.Contains(c.Params["text"]+c.Params["caption"], html.EscapeString(en.T("TourFinalTitle", "ID", tour.ID))) {
		t.Errorf("/tournament standings answered %q", c.Params["text"]+c.Params["caption"])
	}

	// /tournament show, anywhere: the final standings with every game's id.
	c, _ = h.say(alice.id, alice, "/tournament show "+tour.ID)
	shown := c.Params["text"] + c.Params["caption"]
	if !strings.Contains(shown, html.EscapeString(en.T("TourFinalTitle", "ID", tour.ID))) {
		t.Errorf("/tournament show %s does not give the final standings: %q", tour.ID, shown)
	}
	for _, r := range tour.Played {
		for _, g := range r.Games {
			// The game's id and its topic, closed but there to read.
			link := fmt.Sprintf("#%s, in https://t.me/c/%s/%s)", g.GameID, strings.TrimPrefix(strconv.FormatInt(forum, 10), "-100"), g.Key.Thread)
			if g.GameID == "" || !strings.Contains(shown, link) {
				t.Errorf("/tournament show does not list game %q of round %d with its topic: %q", g.GameID, r.Number, link)
			}
		}
	}
	checkTable(t, "/tournament show", shown, points)
}

// TestLongStandings: standings too long for a caption come as text, the
// table cut into messages that each hold a whole monospace block, then
// the picture without a caption.
func TestLongStandings(t *testing.T) {
	f := newFake(t)
	h := startMemoryBot(t, f)
	const forum int64 = -1006003
	r := chat.Reply{Lines: []string{"Standings of tournament #5 after round 9 of 11:"}, Lang: "en"}
	table := render.StandingsTable{Title: r.Lines[0], Headings: [6]string{"#", "Player", "Pts", "Bh", "SB", "Wins"}}
	r.Table.From = len(r.Lines)
	r.Lines = append(r.Lines, "#  Player  Pts  Bh  SB  Wins")
	for i := range 200 {
		name := fmt.Sprintf("player<%03d>", i)
		r.Lines = append(r.Lines, fmt.Sprintf("%3d  %s  %d  0  0  0", i+1, name, 200-i))
		table.Rows = append(table.Rows, render.StandingsRow{Place: i + 1, Name: name, Points: float64(200 - i)})
	}
	r.Table.To = len(r.Lines)
	r.Lines = append(r.Lines, "Pts: points")
	r.Standings = &chat.StandingsPicture{Table: table, Name: "tournament-5-round-9.png"}
	m := f.mark()
	telegram.Deliver(h.bot, forum, 0, r)
	pic, _ := f.waitCall(m, sent(forum, "sendPhoto"))
	if pic.Image == nil || pic.Params["caption"] != "" {
		t.Errorf("the standings picture: image %v, caption %q; want an upload without caption", pic.Image != nil, pic.Params["caption"])
	}
	var texts []string
	for _, c := range f.callsSince(m, 0) {
		if c.Method != "sendMessage" {
			continue
		}
		s := c.Params["text"]
		if c.Status != http.StatusOK || utf8.RuneCountInString(s) > 4096 || strings.Count(s, "<pre>") != 1 || strings.Count(s, "</pre>") != 1 {
			t.Errorf("a message of the standings (status %d, %d characters) does not hold one whole <pre> block", c.Status, utf8.RuneCountInString(s))
		}
		texts = append(texts, s)
	}
	all := strings.ReplaceAll(strings.Join(texts, "\n"), "</pre>\n<pre>", "\n")
	if len(texts) < 2 || !strings.Contains(all, "player&lt;199&gt;") || !strings.HasSuffix(all, "Pts: points") {
		t.Errorf("the standings came in %d messages:\n%s", len(texts), all)
	}
}

// TestTournamentCancelByOwner: the chat's creator may cancel a tournament
// someone else opened; a member may not.
func TestTournamentCancelByOwner(t *testing.T) {
	f := newFake(t)
	h := startMemoryBot(t, f)
	const forum int64 = -1006004
	f.setForum(forum, true)
	f.setMember(forum, botID, "administrator", "can_manage_chat", "can_manage_topics")
	f.setMember(forum, bob.id, "creator")
	if c, _ := h.sayIn(forum, 0, alice, "/tournament new spanish"); isRefusal(c) {
		t.Fatalf("/tournament new refused: %s", c.Params["text"])
	}
	if c, _ := h.sayIn(forum, 0, carol, "/tournament cancel"); !isRefusal(c) {
		t.Errorf("a member's cancel answered %q, want a refusal", c.Params["text"])
	}
	if tour := h.tournamentAt(forum); tour == nil || tour.Status != sessions.StatusSignup {
		t.Fatalf("after a member's cancel: %+v", tour)
	}
	if c, _ := h.sayIn(forum, 0, bob, "/tournament cancel"); isRefusal(c) {
		t.Errorf("the creator's cancel refused: %s", c.Params["text"])
	}
	if tour := h.tournamentAt(forum); tour == nil || tour.Status != sessions.StatusCancelled {
		t.Errorf("after the creator's cancel: %+v", tour)
	}
}
