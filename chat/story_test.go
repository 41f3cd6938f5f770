package chat_test

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/boardgamebot/bot/chat"
	"github.com/boardgamebot/bot/render"
	"github.com/boardgamebot/bot/sessions"
)

// in sends text as name in the channel ch of community (a Discord
// server's id; "" for a private chat).
func (f *recFixture) in(community, ch, name, text string) chat.Reply {
	return f.h.Handle(ctx, chat.Message{Key: sessions.Key{Platform: "discord", Channel: ch}, Community: community, User: user(name), Text: text})
}

// win plays a rated count game to 44 in channel ch of community: loser
// challenges with White, and winner's 11th move wins.
func (f *recFixture) win(t *testing.T, community, ch, winner, loser string) {
	t.Helper()
	steps := []struct{ who, text string }{{loser, "/play count @" + winner + " color=white target=44"}, {winner, "/accept"}}
	for i := range 22 {
		steps = append(steps, struct{ who, text string }{[]string{loser, winner}[i%2], "/move 2"})
	}
	for _, s := range steps {
		if r := f.in(community, ch, s.who, s.text); r.Error {
			t.Fatalf("%s in %s: %s: %s", s.who, ch, s.text, r.Text())
		}
	}
}

// names are the players of a /top reply, in the order it lists them.
func names(r chat.Reply) []string {
	var out []string
	re := regexp.MustCompile(`^\d+\. (\S+) \d+ \(`)
	for _, l := range r.Lines {
		if m := re.FindStringSubmatch(l); m != nil {
			out = append(out, m[1])
		}
	}
	return out
}

func sorted(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}

// TestCommunityLadders: two Discord servers with players in common: each
// server's /top lists exactly the players who played a rated game there,
// ranked by their rating on the platform (one rating each), with the
// asker's place when they are below the first ten; /top global lists
// them all, as a private chat does; the monthly ladders hold those who
// played there that month.
func TestCommunityLadders(t *testing.T) {
	f := newRecFixture(t)
	p := func(i int) string { return fmt.Sprintf("p%02d", i) }
	for i := 1; i <= 11; i += 2 { // server A: p01..p12, winners odd
		f.win(t, "A", fmt.Sprint("a", i), p(i), p(i+1))
	}
	f.win(t, "A", "a99", p(11), p(12)) // p12 last: outside the first ten
	f.win(t, "B", "b1", p(15), p(1))   // server B: p01 and p02 too
	f.win(t, "B", "b2", p(2), p(16))
	f.clk.Add(20 * 24 * time.Hour) // December
	f.win(t, "B", "b3", p(3), p(15))

	a := f.in("A", "a1", p(12), "/top count")
	if len(names(a)) != 10 || !strings.HasPrefix(a.Lines[0], "Ladder of count, all time, this server (12 players):") {
		t.Fatalf("server A's /top:\n%s", a.Text())
	}
	for _, n := range names(a) {
		if n == "p15" || n == "p16" || n == "p12" {
			t.Fatalf("server A's first ten list %s:\n%s", n, a.Text())
		}
	}
	if !slices.Contains(a.Lines, "Your place: 12 of 12, rated 971.") || !slices.Contains(a.Lines, "/top global count: the ladder of every Discord player.") {
		t.Fatalf("server A's /top asked by p12:\n%s", a.Text())
	}
	b := f.in("B", "b1", p(12), "/top count")
	if got := sorted(names(b)); !slices.Equal(got, []string{"p01", "p02", "p03", "p15", "p16"}) || !slices.Contains(b.Lines, "You are not on this ladder yet: a rated game here puts you on it.") {
		t.Fatalf("server B's /top asked by p12 (who never played there): %v\n%s", got, b.Text())
	}
	// Ranked by the platform's ratings: p01 won in A and lost in B.
	checkOrder := func(r chat.Reply) {
		t.Helper()
		re := regexp.MustCompile(`^\d+\. \S+ (\d+) \(`)
		last := 1 << 30
		for _, l := range r.Lines {
			if m := re.FindStringSubmatch(l); m != nil {
				var n int
				fmt.Sscan(m[1], &n)
				if n > last {
					t.Fatalf("not in rating order:\n%s", r.Text())
				}
				last = n
			}
		}
	}
	checkOrder(a)
	checkOrder(b)
	g := f.in("A", "a1", p(12), "/top global count")
	if !strings.HasPrefix(g.Lines[0], "Ladder of count, all time, global (14 players):") || len(names(g)) != 10 {
		t.Fatalf("/top global in server A:\n%s", g.Text())
	}
	if private := f.in("", "dm", p(12), "/top count"); private.Lines[0] != g.Lines[0] || slices.Contains(private.Lines, g.Lines[len(g.Lines)-1]) && strings.HasPrefix(g.Lines[len(g.Lines)-1], "/top global") {
		t.Fatalf("/top in a private chat:\n%s\nwant the platform's:\n%s", private.Text(), g.Text())
	}
	// Monthly: B in December holds p03 and p15; in November p01, p02,
	// p15, p16; A had nobody in December.
	if got := sorted(names(f.in("B", "b1", p(3), "/top count month"))); !slices.Equal(got, []string{"p03", "p15"}) {
		t.Fatalf("server B this month: %v", got)
	}
	if got := sorted(names(f.in("B", "b1", p(3), "/top count 2026-11"))); !slices.Equal(got, []string{"p01", "p02", "p15", "p16"}) {
		t.Fatalf("server B in November: %v", got)
	}
	if r := f.in("A", "a1", p(3), "/top count month"); r.Lines[0] != "No rated count games yet (2026-12, this server): /play count @user starts one." {
		t.Fatalf("server A this month:\n%s", r.Text())
	}
	if r := f.in("A", "a1", p(3), "/top count 2026-11"); !strings.Contains(r.Lines[0], "(12 players)") {
		t.Fatalf("server A in November:\n%s", r.Text())
	}
	// Without a game: the leaders of every game, of this server.
	if r := f.in("B", "elsewhere", p(3), "/top"); !strings.HasPrefix(r.Text(), "Leaders of every game, all time, this server (/top <game> for a whole ladder):\ncount (5 players): ") {
		t.Fatalf("/top without a game in server B:\n%s", r.Text())
	}
	f.expect("alice", "/top everywhere count", `is neither a game nor a month: /top \[global\] \[game\]`, true)
}

// TestRatingChart: /rating answers with a chart of the rating after each
// rated game of the game asked for (else the one played most), in the
// reader's language.
func TestRatingChart(t *testing.T) {
	f := newRecFixture(t)
	f.win(t, "A", "a1", "alice", "bob")
	f.win(t, "A", "a2", "bob", "alice")
	f.win(t, "A", "a3", "alice", "bob")
	r := f.in("A", "a1", "carol", "/rating @alice")
	c := r.Figure
	if c == nil || c.Chart == nil || len(c.Chart.Lines) != 1 || !strings.HasSuffix(c.Name, ".png") {
		t.Fatalf("/rating @alice: %+v\n%s", r.Figure, r.Text())
	}
	var ratings []int
	for _, pt := range c.Chart.Lines[0].Points {
		ratings = append(ratings, pt.Rating)
	}
	if !slices.Equal(ratings, []int{1015, 999, 1014}) || c.Chart.Lines[0].Start != 1000 || c.Chart.Title != "alice · Counting game" ||
		c.Chart.Stats[0] != "Now 1014 · peak 1015" || c.Chart.Stats[1] != "3 games: 2 won, 1 lost, 0 drawn" ||
		!c.Chart.Month.Equal(time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)) {
		t.Fatalf("alice's chart: %v, %+v", ratings, c.Chart)
	}
	if r := f.in("A", "a1", "carol", "/rating"); r.Figure != nil {
		t.Fatalf("/rating of a player without games has a chart: %+v", r.Figure)
	}
	// In German: the words of the chart and its dates.
	f.in("A", "a1", "bob", "/lang de")
	r = f.in("A", "a1", "bob", "/rating")
	if c := r.Figure.Chart; c.MonthLabel != "dieser Monat" || c.Date(time.Date(2026, 3, 5, 0, 0, 0, 0, time.UTC), true) != "5. März" || c.PeakLabel != "Höchstwert" {
		t.Fatalf("bob's chart in German: %+v", c)
	}
	png, err := r.Figure.PNG(render.New(), render.Options{})
	if err != nil || len(png) == 0 {
		t.Fatalf("drawing the chart: %v", err)
	}
}

// TestProfile: /profile's card and lines: ratings with the places here
// and on the platform, totals, the streak, the best win, the most played
// opponent and the last results.
func TestProfile(t *testing.T) {
	f := newRecFixture(t)
	f.win(t, "A", "a1", "alice", "bob")   // alice 1015, bob 985
	f.win(t, "A", "a2", "carol", "alice") // alice loses to carol (1015)
	f.win(t, "B", "b1", "alice", "bob")
	f.win(t, "B", "b2", "alice", "dave")
	r := f.in("A", "a1", "bob", "/profile @alice")
	want := []string{
		"Card of alice:",
		"Counting game: 1027, place 1 of 3 here and 1 of 4 on Discord.",
		"4 games: 3 won, 1 lost, 0 drawn",
		"Streak: 2 wins in a row",
		"Best win: dave (1000), Counting game #4", // of two wins over a 1000, the later
		"Most played: bob (2 games)",
		"Last games, oldest first: W L W W",
	}
	if !slices.Equal(r.Lines, want) {
		t.Fatalf("/profile @alice in server A:\n%s\nwant\n%s", r.Text(), strings.Join(want, "\n"))
	}
	c := r.Figure.Card
	if c == nil || c.Name != "alice" || c.Subtitle != "Discord · this server" || len(c.Rows) != 1 || c.Rows[0].Here != "1 of 3" ||
		c.Rows[0].All != "1 of 4" || len(c.Last) != 4 || c.Last[1].Score != 0 || c.Last[1].Letter != "L" || c.Headings[3] != "Discord" {
		t.Fatalf("alice's card: %+v", c)
	}
	if r := f.in("", "dm", "alice", "/profile"); r.Lines[1] != "Counting game: 1027, place 1 of 4 on Discord." || r.Figure.Card.Subtitle != "Discord" {
		t.Fatalf("/profile in a private chat:\n%s", r.Text())
	}
	for _, c := range []struct {
		text, want string
		isErr      bool
	}{
		{"/profile", "erin has no rating yet", false},
		{"/profile alice", `"alice" is not @someone: /profile \[@user\]`, true},
		{"/profile @nobody", "I know no player called @nobody", true},
		{"/profile @alice @bob", "takes less", true},
	} {
		if r := f.in("A", "a1", "erin", c.text); !regexp.MustCompile(c.want).MatchString(r.Text()) || r.Error != c.isErr || r.Figure != nil {
			t.Errorf("erin: %s:\n%s\nwant %q (error %v)", c.text, r.Text(), c.want, c.isErr)
		}
	}
}

// TestVersus: /vs gives the exact record of the games two players
// finished together, rated or not, per game, their last games with ids,
// and a chart of both ratings when both are rated.
func TestVersus(t *testing.T) {
	f := newRecFixture(t)
	f.win(t, "A", "a1", "alice", "bob")
	f.win(t, "A", "a2", "bob", "alice")
	f.win(t, "A", "a3", "alice", "bob")
	f.win(t, "A", "a4", "alice", "carol")
	// Unrated: bob resigns before making more than ten moves.
	for _, s := range []struct{ who, text string }{{"alice", "/play count @bob color=white"}, {"bob", "/accept"}, {"alice", "/move 2"}, {"bob", "/resign"}} {
		f.in("A", "a5", s.who, s.text)
	}
	r := f.in("A", "a1", "alice", "/vs @bob")
	want := []string{
		"alice against bob: 3 won, 0 drawn, 1 lost (4 games).",
		"Counting game: 3 won, 0 drawn, 1 lost (4 games).",
		"Last games (/show <id> for one):",
		"#5 2026-11-20 Counting game: alice won, unrated.",
		"#3 2026-11-20 Counting game: alice won, rated.",
		"#2 2026-11-20 Counting game: bob won, rated.",
		"#1 2026-11-20 Counting game: alice won, rated.",
	}
	if !slices.Equal(r.Lines, want) {
		t.Fatalf("/vs @bob:\n%s\nwant\n%s", r.Text(), strings.Join(want, "\n"))
	}
	c := r.Figure.Chart
	if c == nil || len(c.Lines) != 2 || c.Lines[0].Name != "alice" || len(c.Lines[0].Points) != 4 || len(c.Lines[1].Points) != 3 || // alice's every game
		c.Stats[0] != "alice against bob: 3 won, 0 drawn, 1 lost (4 games)" {
		t.Fatalf("/vs chart: %+v", c)
	}
	for _, c := range []struct {
		who, text, want string
		isErr           bool
	}{
		{"bob", "/vs @alice count", `^bob against alice: 1 won, 0 drawn, 3 lost \(4 games\)`, false},
		{"carol", "/vs @bob", "carol and bob have not finished a game together yet", false},
		{"carol", "/vs @bob spanish", "carol and bob have not finished a game of Spanish draughts together yet", false},
		{"alice", "/vs @alice", "That is you", true},
		{"alice", "/vs count", "Against whom", true},
		{"alice", "/vs @bob chess", `"chess" is neither @someone nor a game: /vs`, true},
		{"alice", "/vs @nobody", "I know no player called @nobody", true},
	} {
		if r := f.in("A", "a1", c.who, c.text); !regexp.MustCompile(c.want).MatchString(r.Text()) || r.Error != c.isErr {
			t.Errorf("%s: %s:\n%s\nwant %q (error %v)", c.who, c.text, r.Text(), c.want, c.isErr)
		}
	}
	if r := f.in("A", "a1", "carol", "/vs @alice"); r.Figure == nil || !strings.HasPrefix(r.Text(), "carol against alice: 0 won, 0 drawn, 1 lost (1 game).") {
		t.Fatalf("/vs of carol:\n%s", r.Text())
	}
}

// TestPseudoLanguageStory: /top in a server, /rating, /profile and /vs
// word every line, and every word of their pictures, from the catalogue.
func TestPseudoLanguageStory(t *testing.T) {
	f := newRecFixtureWords(t, chat.PseudoCatalogues("en"))
	f.win(t, "A", "a1", "alice", "bob")
	f.win(t, "A", "a2", "bob", "alice")
	check := func(what string, texts ...string) {
		t.Helper()
		for _, s := range texts {
			if !chat.FromCatalogue(s) {
				t.Errorf("%s: %q is not from the catalogue", what, s)
			}
		}
	}
	for _, text := range []string{"/top count", "/top global count", "/top", "/top month", "/rating", "/rating @bob count", "/profile", "/profile @bob",
		"/vs @bob", "/vs @bob count", "/vs", "/vs @alice", "/profile bob", "/top nonsense"} {
		r := f.in("A", "a3", "alice", text)
		if len(r.Lines) == 0 {
			t.Errorf("%s: no reply", text)
		}
		check(text, r.Lines...)
		if fg := r.Figure; fg != nil && fg.Chart != nil {
			c := fg.Chart
			check(text+" chart", append([]string{c.Title, c.MonthLabel, c.PeakLabel, c.Date(c.Month, true), c.Date(c.Month, false)}, c.Stats...)...)
		}
		if fg := r.Figure; fg != nil && fg.Card != nil {
			c := fg.Card
			check(text+" card", append([]string{c.Subtitle, c.Headings[0], c.Headings[1], c.Headings[2], c.LastLabel, c.Rows[0].Here, c.Rows[0].All, c.Last[0].Letter}, c.Lines...)...)
		}
	}
}
