package chat_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/boardgamebot/bot/chat"
	"github.com/boardgamebot/bot/rules/ai"
	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/sessions/sessionstest"
)

// TestComputerHuffAnnounced: the computer's huff is told in the game's
// chat, also when it takes the last piece and ends the game by itself.
//
//	  a b c d e f g h
//	8 . . . . . . . b      White's only man stood on c3 and could take d4;
//	4 . w . b . . . .      it played c3-b4 instead (damas huff=yes).
func TestComputerHuffAnnounced(t *testing.T) {
	ctx := context.Background()
	store := sessionstest.NewMemoryStore()
	key := sessions.Key{Platform: "test", Channel: "huff"}
	alice := sessions.User{ID: "1", Name: "alice"}
	now := time.Now().UTC()
	p := sessions.DefaultPlayOptions()
	p.Level = 2
	rec := &sessions.Record{V: sessions.RecordVersion, Key: key, Game: "damas", Options: map[string]string{"huff": "yes"},
		Play: p, Challenger: alice, Seats: []sessions.User{alice, sessions.ComputerUser()},
		Start:   "W:Wc3:Bd4,h8",
		Actions: []sessions.Action{{Kind: sessions.ActMove, Seat: 0, Text: "c3-b4", At: now}},
		Created: now, Started: now, Updated: now}
	if err := store.Commit(ctx, &sessions.Change{Key: key, Live: rec}); err != nil {
		t.Fatal(err)
	}
	n := &notices{}
	svc := sessions.New(sessions.Config{Store: store, Notifier: n, Computer: ai.New(ai.Config{})})
	defer svc.Close()
	if _, err := svc.Resume(ctx); err != nil {
		t.Fatal(err)
	}
	if err := svc.Settle(ctx, key); err != nil {
		t.Fatal(err)
	}
	h := chat.New(chat.Config{Sessions: svc})
	var text []string
	for _, no := range n.take() {
		if no.Kind == sessions.NoticeMoved {
			text = append(text, h.NoticeReply(no).Text())
		}
	}
	got := strings.Join(text, "\n")
	for _, want := range []string{"Computer (Black) huffed the piece on b4", "Game over: Computer (Black) wins"} {
		if !strings.Contains(got, want) {
			t.Errorf("the computer's notice lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "formation") {
		t.Errorf("a huff announced as a formation:\n%s", got)
	}
}
