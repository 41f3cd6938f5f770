package console_test

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boardgamebot/bot/adapters/console"
	"github.com/boardgamebot/bot/chat"
	"github.com/boardgamebot/bot/render"
	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/storage/bolt"
)

// TestStoryPictures: after a rated game in the console, /rating,
// /profile and /vs print their lines and write their pictures beside the
// boards', as PNG files the console names.
func TestStoryPictures(t *testing.T) {
	dir := t.TempDir()
	store, err := bolt.Open(filepath.Join(dir, "bot.db"), bolt.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	svc := sessions.New(sessions.Config{Store: store, Rand: func(int) int { return 0 }})
	defer svc.Close()
	// alice (White) and bob play 24 plies, then bob resigns: rated.
	key := sessions.Key{Platform: console.Platform, Channel: "terminal"}
	alice, bob := sessions.User{ID: "alice", Name: "alice"}, sessions.User{ID: "bob", Name: "bob"}
	p := sessions.DefaultPlayOptions()
	p.Color = sessions.ColorWhite
	if _, err := svc.Challenge(ctx, sessions.Request{Key: key, User: alice}, sessions.ChallengeSpec{Game: "spanish", Invited: []sessions.User{bob}, Play: p}); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Accept(ctx, sessions.Request{Key: key, User: bob}); err != nil {
		t.Fatal(err)
	}
	for range 24 {
		s, _ := svc.Look(ctx, key)
		for _, m := range s.State.Moves() {
			if next, _, err := s.State.Play(m.Text); err == nil && !next.Outcome().Over {
				if _, err := svc.Move(ctx, sessions.Request{Key: key, User: s.Player(s.Turn())}, m.Text); err != nil {
					t.Fatal(err)
				}
				break
			}
		}
	}
	if _, err := svc.Resign(ctx, sessions.Request{Key: key, User: bob}); err != nil {
		t.Fatal(err)
	}
	r := render.New()
	var out bytes.Buffer
	cc := console.Config{Handler: chat.New(chat.Config{Sessions: svc}), In: strings.NewReader("/rating\n/profile @bob\n/vs @bob\n/top spanish\n"),
		Out: &out, As: "alice", PictureDir: filepath.Join(dir, "files"),
		DrawFigure: func(f *chat.Figure) ([]byte, error) { return f.PNG(r, render.Options{}) }}
	if err := console.Run(ctx, cc); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	for _, c := range []struct {
		file, line string
		width      int
	}{
		{"rating-alice-spanish.png", "Ratings of alice", render.ChartWidth},
		{"profile-bob.png", "Spanish draughts: 985, place 2 of 2 on Console.", render.CardWidth},
		{"vs-alice-bob-spanish.png", "alice against bob: 1 won, 0 drawn, 0 lost (1 game).", render.ChartWidth},
	} {
		path := filepath.Join(dir, "files", c.file)
		if !strings.Contains(text, "Picture: "+path) || !strings.Contains(text, c.line) {
			t.Errorf("no %q and no picture %s in:\n%s", c.line, path, text)
			continue
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(bytes.NewReader(data))
		if err != nil || img.Bounds().Dx() != c.width {
			t.Errorf("%s: %v, %v", c.file, err, img.Bounds())
		}
	}
	if !strings.Contains(text, "Ladder of spanish, all time, global (2 players):") {
		t.Errorf("/top in the console: the platform's ladder, in:\n%s", text)
	}
}
