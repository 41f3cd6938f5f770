package main

import (
	"bytes"
	"context"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boardgamebot/bot/rules/games"
)

func runRender(t *testing.T, args ...string) (string, error) {
	t.Helper()
	var out, errOut bytes.Buffer
	err := cmdRender(context.Background(), args, &out, &errOut)
	return out.String(), err
}

// TestRenderEveryGame draws every registered game's start, and a position
// after one move, and checks that a PNG of the right size comes out.
func TestRenderEveryGame(t *testing.T) {
	list := games.List()
	for _, id := range []string{"spanish", "damas", "dame", "ultradamas", "halma"} {
		if _, ok := games.Lookup(id); !ok {
			t.Errorf("%s is not registered", id)
		}
	}
	dir := t.TempDir()
	for _, info := range list {
		for _, c := range []struct {
			name string
			args []string
			size int
		}{
			{"start", nil, 0},
			{"dark", []string{"--theme", "dark", "--size", "300", "--viewer", "1", "--numbers"}, 300},
		} {
			t.Run(info.ID+"/"+c.name, func(t *testing.T) {
				file := filepath.Join(dir, info.ID+"-"+c.name+".png")
				args := append([]string{"--game", info.ID, "--out", file}, c.args...)
				msg, err := runRender(t, args...)
				if err != nil {
					t.Fatal(err)
				}
				if !strings.Contains(msg, file) {
					t.Errorf("output %q does not name the file", msg)
				}
				data, err := os.ReadFile(file)
				if err != nil {
					t.Fatal(err)
				}
				cfg, err := png.DecodeConfig(bytes.NewReader(data))
				if err != nil {
					t.Fatal(err)
				}
				if c.size != 0 && (cfg.Width != c.size || cfg.Height != c.size) {
					t.Errorf("picture is %dx%d, want %dx%d", cfg.Width, cfg.Height, c.size, c.size)
				}
			})
		}
	}
}

func TestRenderPlaysMoves(t *testing.T) {
	g, err := games.New("spanish", nil)
	if err != nil {
		t.Fatalf("spanish: %v", err)
	}
	first := g.Start(0).Moves()[0].Text
	file := filepath.Join(t.TempDir(), "after.png")
	if _, err := runRender(t, "--game", "spanish", "--play", first, "--out", file); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(file); err != nil {
		t.Fatal(err)
	}
	_, err = runRender(t, "--game", "spanish", "--play", "a1-a2", "--out", file)
	if err == nil || !strings.Contains(err.Error(), "legal moves: ") || !strings.Contains(err.Error(), first) {
		t.Errorf("an illegal --play gives %v, want the error with some legal moves such as %s", err, first)
	}
}

func TestRenderErrors(t *testing.T) {
	file := filepath.Join(t.TempDir(), "x.png")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--game", "spanish"}, "--out"},
		{[]string{"--out", file}, "--game"},
		{[]string{"--game", "chess", "--out", file}, "unknown game"},
		{[]string{"--game", "spanish", "--theme", "pink", "--out", file}, "theme"},
		{[]string{"--game", "spanish", "--viewer", "2", "--out", file}, "viewer"},
		{[]string{"--game", "spanish", "--size", "20", "--out", file}, "too small"},
		{[]string{"--game", "spanish", "--out", file, "extra"}, "unexpected argument"},
	} {
		_, err := runRender(t, c.args...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("bot render %s: error %v, want one saying %q", strings.Join(c.args, " "), err, c.want)
		}
	}
	if _, err := os.Stat(file); err == nil {
		t.Error("a failed render wrote its file")
	}
}
