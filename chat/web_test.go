package chat_test

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/boardgamebot/bot/adapters/web"
	"github.com/boardgamebot/bot/chat"
	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/sessions/sessionstest"
)

// TestWebCommand: /web says so where the bot serves no board; where it
// does, it gives a player their own link (Reply.Web carries the links as
// values, for the platforms' buttons), and anyone else the watch link;
// where nothing is played it refuses with the reason.
func TestWebCommand(t *testing.T) {
	f := newFixture(t)
	f.expect("alice", "/web", `^This bot does not serve the web board`, true)

	store := sessionstest.NewMemoryStore()
	svc := sessions.New(sessions.Config{Store: store, Games: sessionstest.Games, Rand: func(int) int { return 0 }})
	signer, _ := web.NewSigner([]byte("the chat tests' web secret......"))
	links := web.NewLinks(web.LinksConfig{Base: "https://board.example.org", Signer: signer})
	f = &fixture{t: t, h: chat.New(chat.Config{Sessions: svc, Web: links}), store: store}
	f.expect("alice", "/web", `^No game is being played here`, true)
	f.expect("alice", "/play count @bob color=white", `challenges bob`, false)
	f.expect("bob", "/accept", `Game on`, false)
	r := f.expect("alice", "/web", `^Your own link to this game's board \(it plays as you: keep it to yourself; it works for 24 h\): https://board\.example\.org/g/`, false)
	if r.Web == nil || r.Web.Play == "" || !strings.HasSuffix(r.Text(), r.Web.Play) || r.Web.Watch == "" || r.Web.PlayFor != 24*time.Hour {
		t.Fatalf("alice's /web: %+v", r.Web)
	}
	tok, err := signer.Parse(r.Web.Play[strings.Index(r.Web.Play, "#t=")+3:], time.Now())
	if err != nil || tok.Scope != web.ScopePlay || tok.User != user("alice") {
		t.Fatalf("alice's token %+v, %v", tok, err)
	}
	r = f.expect("carol", "/web", `^Watch this game on the web board: https://board\.example\.org/g/`, false)
	if r.Web == nil || r.Web.Play != "" {
		t.Fatalf("carol's /web: %+v", r.Web)
	}
	// After the game: /web gives the finished game's page (a watch
	// link), and /show N carries it.
	f.expect("alice", "/resign", `resign`, false)
	r = f.expect("carol", "/web", `^No game is being played here; the last one, #\d+, on the web board: https://board\.example\.org/g/[^ ]+#t=`, false)
	link := r.Text()[strings.Index(r.Text(), "https://"):]
	tok, err = signer.Parse(link[strings.Index(link, "#t=")+3:], time.Now())
	if err != nil || tok.Scope != web.ScopeWatch || !tok.User.IsZero() {
		t.Fatalf("the finished game's link %q: %+v, %v", link, tok, err)
	}
	id := regexp.MustCompile(`#(\d+), on the web`).FindStringSubmatch(r.Text())[1]
	ref := link[len("https://board.example.org/g/"):strings.IndexAny(link, "?#")]
	f.expect("carol", "/show "+id, `(?s)On the web board: https://board\.example\.org/g/`+regexp.QuoteMeta(ref)+`[^ ]*#t=`, false)
	// /web revoke: alice's links end; the line says so.
	f.expect("alice", "/web revoke", `^Every link to the web board you were given has ended`, false)
	f.expect("alice", "/web now", `^/web takes less`, true)
}

// TestNoticeEventWording: a change made on the web board reads in the
// channel as the command's reply: the move, whose turn, the board.
func TestNoticeEventWording(t *testing.T) {
	f := newFixture(t)
	f.expect("alice", "/play count @bob color=white", `challenges bob`, false)
	ev := f.expect("bob", "/accept", `Game on`, false).Event
	move := f.h.Handle(ctx, chat.Message{Key: key, User: user("alice"), Text: "/move 2", Elsewhere: true})
	if move.Error {
		t.Fatal(move.Text())
	}
	r := f.h.NoticeReply(sessions.Notice{Kind: sessions.NoticeEvent, Key: key, Session: move.Event.Session, Event: move.Event})
	if r.Text() != "alice (White) played 2.\nbob (Black) to move: /move <move> (/moves lists them)." || r.Picture == nil || r.Session == nil || ev == nil {
		t.Fatalf("the channel reads %q (picture %v)", r.Text(), r.Picture != nil)
	}
}
