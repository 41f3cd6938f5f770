package render

import (
	"bytes"
	"errors"
	"image"
	"image/draw"
	"image/gif"
	"image/png"
	"testing"

	"github.com/boardgamebot/bot/rules"
)

// after returns v with m played: the piece on m.From moves to m.To and
// the captured pieces leave; the other seat moves next. Movable is
// dropped (replays do not show it).
func after(v rules.View, m rules.Move) rules.View {
	var pieces []rules.Piece
	gone := map[rules.Square]bool{}
	for _, s := range m.Captured {
		gone[s] = true
	}
	for _, p := range v.Pieces {
		switch {
		case p.Square == m.From:
			p.Square = m.To
		case gone[p.Square]:
			continue
		}
		pieces = append(pieces, p)
	}
	v.Pieces = pieces
	v.Turn = 1 - v.Turn
	v.Movable = nil
	return v
}

func move(text string, path []string, captured ...string) rules.Move {
	p := squares(path...)
	return rules.Move{Text: text, From: p[0], To: p[len(p)-1], Path: p, Captured: squares(captured...)}
}

// shortGame: four moves of draughts from the start, the last a capture.
func shortGame() ([]rules.View, []rules.Move) {
	play, nums := draughtsBoard()
	v := rules.View{Size: 8, Playable: play, Numbers: nums}
	for _, p := range play {
		switch {
		case p.Rank <= 2:
			v.Pieces = append(v.Pieces, rules.Piece{Square: p, Seat: 0, Level: 1})
		case p.Rank >= 5:
			v.Pieces = append(v.Pieces, rules.Piece{Square: p, Seat: 1, Level: 1})
		}
	}
	moves := []rules.Move{
		move("c3-d4", []string{"c3", "d4"}),
		move("f6-e5", []string{"f6", "e5"}),
		move("g3-h4", []string{"g3", "h4"}),
		move("e5xc3", []string{"e5", "c3"}, "d4"),
	}
	frames := []rules.View{v}
	for _, m := range moves {
		v = after(v, m)
		frames = append(frames, v)
	}
	return frames, moves
}

func TestReplay(t *testing.T) {
	r := New()
	frames, moves := shortGame()
	for _, th := range []Theme{Light, Dark} {
		o := Options{Theme: th}
		data, err := r.Replay(frames, moves, o)
		if err != nil {
			t.Fatal(err)
		}
		g, err := gif.DecodeAll(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("decoding GIF: %v", err)
		}
		if len(g.Image) != len(moves)+1 {
			t.Fatalf("%d frames, want %d (the start and one per move)", len(g.Image), len(moves)+1)
		}
		if g.Config.Width != 512 || g.Config.Height != 512 {
			t.Errorf("GIF is %dx%d, want 512x512", g.Config.Width, g.Config.Height)
		}
		last := len(g.Delay) - 1
		for i, d := range g.Delay[:last] {
			if d >= g.Delay[last] {
				t.Errorf("frame %d shows for %d/100 s, not less than the last frame's %d", i, d, g.Delay[last])
			}
		}
		// Playing the frames one over the other gives, at every step,
		// the picture of that position with its last move marked, its
		// coordinates and, as the game's pictures have them, its square
		// numbers (Options.Numbers or not: the moves are in numbers).
		canvas := image.NewRGBA(image.Rect(0, 0, g.Config.Width, g.Config.Height))
		for i, fr := range g.Image {
			if i > 0 && fr.Bounds().Dx()*fr.Bounds().Dy() >= 512*512/2 {
				t.Errorf("frame %d is %v: more than half the picture for one move", i, fr.Bounds())
			}
			draw.Draw(canvas, fr.Bounds(), fr, fr.Bounds().Min, draw.Over)
			var lastMove *rules.Move
			if i > 0 {
				lastMove = &moves[i-1]
			}
			numbered := o
			numbered.Numbers = frames[i].Numbers != nil
			want, err := r.PNG(frames[i], lastMove, 0, numbered)
			if err != nil {
				t.Fatal(err)
			}
			if msg := differ(canvas, decodePNG(t, want)); msg != "" {
				t.Errorf("%s: after frame %d: %s", th, i, msg)
			}
		}
	}
}

func decodePNG(t *testing.T, data []byte) image.Image {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	return img
}

func TestReplayPalette(t *testing.T) {
	r := New()
	frames, moves := shortGame()
	data, err := r.Replay(frames, moves, Options{})
	if err != nil {
		t.Fatal(err)
	}
	global, local := colorTables(t, data)
	if !global {
		t.Error("the GIF has no global color table")
	}
	if local != 0 {
		t.Errorf("%d frames have a color table of their own", local)
	}
}

// colorTables walks a GIF's blocks and reports whether it has a global
// color table and how many frames have a local one.
func colorTables(t *testing.T, b []byte) (global bool, local int) {
	t.Helper()
	tableSize := func(flags byte) int { return 3 << (flags&7 + 1) }
	if len(b) < 13 {
		t.Fatal("GIF too short")
	}
	i := 13
	if b[10]&0x80 != 0 {
		global = true
		i += tableSize(b[10])
	}
	skipBlocks := func() {
		for i < len(b) && b[i] != 0 {
			i += int(b[i]) + 1
		}
		i++
	}
	for i < len(b) {
		switch b[i] {
		case 0x21: // extension: introducer, label, sub-blocks
			i += 2
			skipBlocks()
		case 0x2c: // image: descriptor, local table?, code size, sub-blocks
			flags := b[i+9]
			i += 10
			if flags&0x80 != 0 {
				local++
				i += tableSize(flags)
			}
			i++
			skipBlocks()
		case 0x3b:
			return global, local
		default:
			t.Fatalf("unexpected GIF block 0x%02x at %d", b[i], i)
		}
	}
	t.Fatal("GIF without its trailer")
	return
}

func TestReplayErrors(t *testing.T) {
	r := New()
	frames, moves := shortGame()
	odd := append([]rules.View(nil), frames...)
	odd[2].Size = 10
	for _, c := range []struct {
		name   string
		frames []rules.View
		moves  []rules.Move
	}{
		{"no frames", nil, nil},
		{"a move too many", frames, append(moves, moves[0])},
		{"a move short", frames, moves[:2]},
		{"boards differ", odd, moves},
	} {
		if _, err := r.Replay(c.frames, c.moves, Options{}); !errors.Is(err, ErrBadView) {
			t.Errorf("%s: error %v, want a %v", c.name, err, ErrBadView)
		}
	}
}
