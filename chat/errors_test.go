package chat

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/boardgamebot/bot/rules"
	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/sessions/sessionstest"
)

// TestEveryErrorKindHasItsText: each kind of the closed set, in a challenge
// and in a game, becomes one line of its own that names a command; only
// ErrStorage gets the apology that nothing could be saved, and only
// ErrUnknownOutcome says that it may or may not have been, /board showing
// which.
func TestEveryErrorKindHasItsText(t *testing.T) {
	ctx := context.Background()
	svc := sessions.New(sessions.Config{Store: sessionstest.NewMemoryStore(), Games: sessionstest.Games, Rand: func(int) int { return 0 }})
	key := sessions.Key{Platform: "test", Channel: "c"}
	alice := sessions.User{ID: "a", Name: "alice"}
	bob := sessions.User{ID: "b", Name: "bob"}
	if _, err := svc.Challenge(ctx, sessions.Request{Key: key, User: alice}, sessions.ChallengeSpec{Game: "count", Invited: []sessions.User{bob}, Play: sessions.DefaultPlayOptions()}); err != nil {
		t.Fatal(err)
	}
	challenge, _ := svc.Look(ctx, key)
	if _, err := svc.Accept(ctx, sessions.Request{Key: key, User: bob}); err != nil {
		t.Fatal(err)
	}
	game, _ := svc.Look(ctx, key)
	h := New(Config{Sessions: svc})
	generic := h.errorReply("x", Message{}, errors.New("x")).Text()
	for _, kind := range sessions.Kinds {
		for _, snap := range []*sessions.Snapshot{challenge, game} {
			for _, cmd := range []string{"move", "huff", "setup", "accept", "decline", "cancel", "play"} {
				err := &sessions.Error{Kind: kind, Session: snap, Err: rules.Errorf(rules.ErrIllegal, "no such move")}
				r := h.errorReply(cmd, Message{Key: key, User: bob}, err)
				if !r.Error || len(r.Lines) != 1 || !strings.Contains(r.Lines[0], "/") {
					t.Errorf("%v, %s, /%s: %q", kind, snap.Phase(), cmd, r.Text())
				}
				if r.Text() == generic || strings.Contains(r.Text(), "could not save") != (kind == sessions.ErrStorage) ||
					strings.Contains(r.Text(), "may or may not have been saved") != (kind == sessions.ErrUnknownOutcome) {
					t.Errorf("%v, /%s: %q", kind, cmd, r.Text())
				}
			}
		}
	}
}
