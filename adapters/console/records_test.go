package console_test

import (
	"bytes"
	"image/gif"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/boardgamebot/bot/adapters/console"
	"github.com/boardgamebot/bot/chat"
	"github.com/boardgamebot/bot/render"
	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/storage/bolt"
)

// TestComputerReplayExport plays the computer in the console (its replies
// are printed after each move, with their boards), then writes the
// finished game's animation and its PDN.
func TestComputerReplayExport(t *testing.T) {
	dir := t.TempDir()
	store, err := bolt.Open(filepath.Join(dir, "bot.db"), bolt.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	n := console.NewNotifier()
	svc := sessions.New(sessions.Config{Store: store, Rand: func(int) int { return 0 }, Notifier: n})
	defer svc.Close()
	r := render.New()
	in := "/play spanish bot level=1 color=white\n/move b3-a4\n/resign\n/replay 1\n/export 1\n"
	var out bytes.Buffer
	cc := console.Config{Handler: chat.New(chat.Config{Sessions: svc}), In: strings.NewReader(in), Out: &out, As: "alice",
		Notices: n, PictureDir: filepath.Join(dir, "files"),
		Draw: func(p *chat.Picture) ([]byte, error) { return r.PNG(p.View, p.Last, p.Viewer, render.Options{}) },
		Animate: func(rp *chat.Replay) ([]byte, error) {
			return r.Replay(rp.Frames, rp.Moves, render.Options{})
		}}
	if err := console.Run(ctx, cc); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	re := regexp.MustCompile(`(?s)alice> /move b3-a4\nalice \(White\) played b3-a4\..*Computer \(Black\) played \S+\.\nalice \(White\) to move.*alice> /resign`)
	if !re.MatchString(text) {
		t.Fatalf("the computer's reply does not follow the move:\n%s", text)
	}
	gifPath := filepath.Join(dir, "files", "game-1.gif")
	if !strings.Contains(text, "Replay: "+gifPath) || !strings.Contains(text, "File: "+filepath.Join(dir, "files", "game-1.pdn")) {
		t.Fatalf("no replay or file path in:\n%s", text)
	}
	f, err := os.Open(gifPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	g, err := gif.DecodeAll(f)
	if err != nil || len(g.Image) != 3 {
		t.Fatalf("the replay: %v, want 3 frames (start and two moves)", err)
	}
	pdn, _ := os.ReadFile(filepath.Join(dir, "files", "game-1.pdn"))
	if !strings.Contains(string(pdn), `[Result "0-1"]`) {
		t.Fatalf("the PDN:\n%s", pdn)
	}
}
