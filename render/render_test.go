package render

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/boardgamebot/bot/rules"
)

var update = flag.Bool("update", false, "rewrite the golden pictures in testdata/")

// pic is a decoded picture with the geometry of its sheet.
type pic struct {
	img  image.Image
	s    *sheet
	th   *theme
	turn int // quarter turns anticlockwise the test expects
}

func decode(t *testing.T, r *Renderer, data []byte, o Options, n, turns int) pic {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("decoding PNG: %v", err)
	}
	s, err := r.sheet(o, n)
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != s.size || b.Dy() != s.size {
		t.Fatalf("picture is %v, want %dx%d", b, s.size, s.size)
	}
	return pic{img: img, s: s, th: s.th, turn: turns}
}

// cellAt returns the screen column and row of a board square, worked out
// here independently of screenOf: 0 turns a1 bottom left, 2 turns a1 top
// right, 1 turn (anticlockwise) a1 bottom right, 3 turns a1 top left.
func (p pic) cellAt(sq rules.Square) (col, row int) {
	n, f, r := p.s.n, int(sq.File), int(sq.Rank)
	switch p.turn {
	case 0:
		return f, n - 1 - r
	case 1:
		return n - 1 - r, n - 1 - f
	case 2:
		return n - 1 - f, r
	default:
		return r, f
	}
}

// at returns the color at the fractions (fx, fy) of the square's cell.
func (p pic) at(sq rules.Square, fx, fy float64) color.RGBA {
	col, row := p.cellAt(sq)
	x := p.s.off + col*p.s.cell + int(fx*float64(p.s.cell))
	y := p.s.off + row*p.s.cell + int(fy*float64(p.s.cell))
	r, g, b, _ := p.img.At(x, y).RGBA()
	return color.RGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), 0xff}
}

// seatAt says whose piece the middle of a square shows: the color set
// whose face color covers most of the central window (at least a
// fifth of it), or -1 when none does.
func (p pic) seatAt(sq rules.Square) int {
	count := map[color.RGBA]int{}
	const steps = 13
	for i := 0; i < steps; i++ {
		for j := 0; j < steps; j++ {
			count[p.at(sq, 0.35+0.3*float64(i)/steps, 0.35+0.3*float64(j)/steps)]++
		}
	}
	best, bestN := -1, steps*steps/5
	for c, pc := range p.th.seats {
		if count[pc.face] > bestN {
			best, bestN = c, count[pc.face]
		}
	}
	return best
}

// wantColors maps a view's seats to color sets, as the README tells.
func wantColors(v rules.View) []int {
	switch {
	case v.Camps != nil:
		return []int{cRed, cBlue, cGreen, cYellow}
	case v.Playable != nil:
		return []int{cWhite, cBlack}
	}
	return []int{cRed, cBlack}
}

// checkPieces checks the middle of every square: the color of the piece
// on it, or no piece color at all.
func checkPieces(t *testing.T, p pic, v rules.View) {
	t.Helper()
	want := map[rules.Square]int{}
	for _, pc := range v.Pieces {
		want[pc.Square] = wantColors(v)[pc.Seat]
	}
	for f := 0; f < v.Size; f++ {
		for r := 0; r < v.Size; r++ {
			s := rules.Square{File: int8(f), Rank: int8(r)}
			w, ok := want[s]
			if !ok {
				w = -1
			}
			if got := p.seatAt(s); got != w {
				t.Errorf("%v shows %s, want %s", s, colorName(got), colorName(w))
			}
		}
	}
}

var colorNames = [nColors]string{"white", "black", "red", "blue", "green", "yellow"}

func colorName(c int) string {
	if c < 0 {
		return "no piece"
	}
	return colorNames[c] + " piece"
}

type fixture struct {
	name string
	v    rules.View
	last *rules.Move
}

func fixtures() []fixture {
	return []fixture{
		{"draughts", draughtsView(), draughtsLast()},
		{"ultradamas", ultraView(), ultraLast()},
		{"halma4", halmaView(4), halmaLast()},
		{"halma2", halmaView(2), halmaLast()},
	}
}

func TestPiecesInTheirColors(t *testing.T) {
	r := New()
	for _, f := range fixtures() {
		for _, th := range []Theme{Light, Dark} {
			t.Run(f.name+"/"+string(th), func(t *testing.T) {
				o := Options{Theme: th, Numbers: true}
				data, err := r.PNG(f.v, f.last, 0, o)
				if err != nil {
					t.Fatal(err)
				}
				checkPieces(t, decode(t, r, data, o, f.v.Size, 0), f.v)
			})
		}
	}
}

// fillAt is the color of a square's empty corner (bottom left, inside
// any frame or camp border).
func (p pic) fillAt(sq rules.Square) color.RGBA { return p.at(sq, 0.1, 0.9) }

func TestLastMoveAndMovable(t *testing.T) {
	r := New()
	for _, f := range fixtures() {
		for _, th := range []Theme{Light, Dark} {
			t.Run(f.name+"/"+string(th), func(t *testing.T) {
				o := Options{Theme: th}
				data, err := r.PNG(f.v, f.last, 0, o)
				if err != nil {
					t.Fatal(err)
				}
				p := decode(t, r, data, o, f.v.Size, 0)
				if c := p.fillAt(f.last.From); c != p.th.from {
					t.Errorf("start square %v is %v, want the start color %v", f.last.From, c, p.th.from)
				}
				if c := p.fillAt(f.last.To); c != p.th.to {
					t.Errorf("end square %v is %v, want the end color %v", f.last.To, c, p.th.to)
				}
				for _, s := range f.last.Captured {
					if c := p.at(s, 0.35, 0.35); c != p.th.cross {
						t.Errorf("captured square %v is %v at its cross, want %v", s, c, p.th.cross)
					}
				}
				occupied := map[rules.Square]bool{}
				for _, pc := range f.v.Pieces {
					occupied[pc.Square] = true
				}
				for _, s := range f.last.Path[1 : len(f.last.Path)-1] {
					if occupied[s] {
						continue
					}
					if c := p.at(s, 0.5, 0.5); c != p.th.dot {
						t.Errorf("passed square %v is %v in its middle, want the dot %v", s, c, p.th.dot)
					}
				}
				movable := map[rules.Square]bool{}
				for _, s := range f.v.Movable {
					movable[s] = true
				}
				marked := map[rules.Square]bool{f.last.From: true, f.last.To: true}
				for _, s := range f.last.Captured {
					marked[s] = true
				}
				for _, s := range f.last.Path {
					marked[s] = true
				}
				for fl := 0; fl < f.v.Size; fl++ {
					for rk := 0; rk < f.v.Size; rk++ {
						s := rules.Square{File: int8(fl), Rank: int8(rk)}
						framed := false // the frame's left side, inside any camp border
						for x := 0.0; x < 0.15; x += 0.02 {
							framed = framed || p.at(s, x, 0.5) == p.th.frame
						}
						if movable[s] != framed {
							t.Errorf("%v: movable %v, but framed %v", s, movable[s], framed)
						}
						if c := p.fillAt(s); !marked[s] && (c == p.th.from || c == p.th.to) {
							t.Errorf("%v is not part of the last move, but is filled %v", s, c)
						}
					}
				}
			})
		}
	}
}

func TestNoLastMove(t *testing.T) {
	r := New()
	v := draughtsView()
	data, err := r.PNG(v, nil, 0, Options{})
	if err != nil {
		t.Fatal(err)
	}
	p := decode(t, r, data, Options{}, 8, 0)
	for _, s := range v.Playable {
		if c := p.fillAt(s); c != p.th.dark {
			t.Errorf("playing square %v is %v, want %v", s, c, p.th.dark)
		}
	}
	if c := p.fillAt(sq("a2")); c != p.th.light {
		t.Errorf("a2 is %v, want %v", c, p.th.light)
	}
}

func TestViewerTurnsTheBoard(t *testing.T) {
	r := New()
	d := draughtsView() // White to move
	h := halmaView(4)   // seat 1 to move
	for _, c := range []struct {
		name          string
		v             rules.View
		viewer, turns int
	}{
		{"draughts/to move", d, -1, 0},
		{"draughts/white", d, 0, 0},
		{"draughts/black", d, 1, 2},
		{"halma4/to move", h, -1, 1},
		{"halma4/seat0", h, 0, 0},
		{"halma4/seat1", h, 1, 1},
		{"halma4/seat2", h, 2, 2},
		{"halma4/seat3", h, 3, 3},
	} {
		t.Run(c.name, func(t *testing.T) {
			data, err := r.PNG(c.v, nil, c.viewer, Options{})
			if err != nil {
				t.Fatal(err)
			}
			checkPieces(t, decode(t, r, data, Options{}, c.v.Size, c.turns), c.v)
		})
	}
	// The turns put the viewer's home at the bottom left: the square in
	// the bottom-left corner of the picture holds its own piece.
	for seat := 0; seat < 4; seat++ {
		data, err := r.PNG(h, nil, seat, Options{})
		if err != nil {
			t.Fatal(err)
		}
		p := decode(t, r, data, Options{}, 16, seat)
		corner := []rules.Square{sq("b1"), sq("a16"), sq("p16"), sq("p1")}[seat]
		if col, row := p.cellAt(corner); col > 1 || row != 15 {
			t.Fatalf("test: %v is at (%d, %d)", corner, col, row)
		}
		if got := p.seatAt(corner); got != wantColors(h)[seat] {
			t.Errorf("seat %d's corner %v shows %s", seat, corner, colorName(got))
		}
	}
}

// TestCoordinates checks that every edge has a label in the margin next
// to each file and rank, and that the labels follow the turn: the label
// under the bottom-left square is "a" for White and "h" for Black.
func TestCoordinates(t *testing.T) {
	r := New()
	v := draughtsView()
	imgs := map[int]pic{}
	for viewer, turns := range []int{0, 2} {
		data, err := r.PNG(v, nil, viewer, Options{})
		if err != nil {
			t.Fatal(err)
		}
		imgs[viewer] = decode(t, r, data, Options{}, 8, turns)
	}
	p := imgs[0]
	ink := func(p pic, x0, y0 int) int {
		n := 0
		for y := y0; y < y0+p.s.off; y++ {
			for x := x0; x < x0+p.s.cell; x++ {
				if c := color.RGBAModel.Convert(p.img.At(x, y)); c == color.Color(p.th.label) {
					n++
				}
			}
		}
		return n
	}
	end := p.s.off + 8*p.s.cell
	for i := 0; i < 8; i++ {
		x := p.s.off + i*p.s.cell
		for name, n := range map[string]int{
			"bottom": ink(p, x, end), "top": ink(p, x, 0),
		} {
			if n == 0 {
				t.Errorf("no label on the %s edge at column %d", name, i)
			}
		}
	}
	// The bottom-left labels differ between the two viewers ("a" and "h").
	a, h := ink(imgs[0], p.s.off, end), ink(imgs[1], p.s.off, end)
	if a == h {
		t.Errorf("the label under the bottom-left square looks the same for both viewers (%d label pixels)", a)
	}
}

func TestSquareNumbers(t *testing.T) {
	r := New()
	v := draughtsView()
	count := func(numbers bool) int {
		data, err := r.PNG(v, nil, 0, Options{Numbers: numbers})
		if err != nil {
			t.Fatal(err)
		}
		p := decode(t, r, data, Options{}, 8, 0)
		n := 0
		for _, s := range v.Playable {
			for i := 0; i < 10; i++ {
				for j := 0; j < 10; j++ {
					if p.at(s, 0.02+0.02*float64(i), 0.02+0.02*float64(j)) == p.th.numLight {
						n++
						goto next
					}
				}
			}
		next:
		}
		return n
	}
	if n := count(true); n != len(v.Playable) {
		t.Errorf("with numbers, %d of %d playing squares show a number", n, len(v.Playable))
	}
	if n := count(false); n != 0 {
		t.Errorf("without numbers, %d playing squares show one", n)
	}
}

func TestCampsOutlined(t *testing.T) {
	r := New()
	v := halmaView(4)
	v.Pieces = nil
	data, err := r.PNG(v, nil, 0, Options{})
	if err != nil {
		t.Fatal(err)
	}
	p := decode(t, r, data, Options{}, 16, 0)
	// Seat 1's camp is a16-d16, a15-d15, a14-c14, a13-b13: its outline
	// runs along the bottom of b13 and the right of d16, in blue.
	blue := p.th.seats[cBlue].face
	for _, c := range []struct {
		sq     string
		fx, fy float64
		want   bool
	}{
		{"b13", 0.5, 0.99, true}, {"d16", 0.99, 0.5, true}, {"a13", 0.01, 0.5, true},
		{"b14", 0.5, 0.99, false}, {"c13", 0.5, 0.5, false}, {"e16", 0.01, 0.5, false},
	} {
		if got := p.at(sq(c.sq), c.fx, c.fy) == blue; got != c.want {
			t.Errorf("%s at (%.2f, %.2f): blue outline %v, want %v", c.sq, c.fx, c.fy, got, c.want)
		}
	}
	// Camp squares are tinted with their owner's color.
	if c := p.fillAt(sq("o16")); c != p.th.campFill(p.th.dark, cGreen) && c != p.th.campFill(p.th.light, cGreen) {
		t.Errorf("o16 in the green camp is %v", c)
	}
}

func TestErrors(t *testing.T) {
	r := New()
	d := draughtsView()
	bad := func(mod func(v *rules.View)) rules.View {
		v := draughtsView()
		v.Pieces = append([]rules.Piece(nil), v.Pieces...)
		mod(&v)
		return v
	}
	for _, c := range []struct {
		name   string
		v      rules.View
		last   *rules.Move
		viewer int
		o      Options
		kind   error
	}{
		{"no board", rules.View{}, nil, 0, Options{}, ErrBadView},
		{"board 17", rules.View{Size: 17}, nil, 0, Options{}, ErrBadView},
		{"piece off the board", bad(func(v *rules.View) { v.Pieces[0].Square = rules.Square{File: 8, Rank: 0} }), nil, 0, Options{}, ErrBadView},
		{"negative square", bad(func(v *rules.View) { v.Pieces[0].Square = rules.Square{File: -1, Rank: 0} }), nil, 0, Options{}, ErrBadView},
		{"third seat", bad(func(v *rules.View) { v.Pieces[0].Seat = 2 }), nil, 0, Options{}, ErrBadView},
		{"level 7", bad(func(v *rules.View) { v.Pieces[0].Level = 7 }), nil, 0, Options{}, ErrBadView},
		{"level 0", bad(func(v *rules.View) { v.Pieces[0].Level = 0 }), nil, 0, Options{}, ErrBadView},
		{"move off the board", d, &rules.Move{From: sq("a1"), To: rules.Square{File: 9, Rank: 9}}, 0, Options{}, ErrBadView},
		{"movable off the board", bad(func(v *rules.View) { v.Movable = []rules.Square{{File: 20}} }), nil, 0, Options{}, ErrBadView},
		{"viewer 2 of 2", d, nil, 2, Options{}, ErrBadOptions},
		{"viewer -2", d, nil, -2, Options{}, ErrBadOptions},
		{"theme", d, nil, 0, Options{Theme: "pink"}, ErrBadOptions},
		{"size negative", d, nil, 0, Options{Size: -1}, ErrBadOptions},
		{"size huge", d, nil, 0, Options{Size: MaxSize + 1}, ErrBadOptions},
		{"size tiny", d, nil, 0, Options{Size: 60}, ErrBadOptions},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := r.PNG(c.v, c.last, c.viewer, c.o)
			if !errors.Is(err, c.kind) {
				t.Fatalf("error %v, want a %v", err, c.kind)
			}
		})
	}
}

func TestSizes(t *testing.T) {
	r := New()
	for _, c := range []struct {
		v    rules.View
		size int
		want int
	}{
		{draughtsView(), 0, 512},
		{halmaView(4), 0, 800},
		{rules.View{Size: 10}, 0, 512},
		{draughtsView(), 300, 300},
		{ultraView(), 0, 512},
		{halmaView(2), 1000, 1000},
	} {
		data, err := r.PNG(c.v, nil, 0, Options{Size: c.size})
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := png.DecodeConfig(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		if cfg.Width != c.want || cfg.Height != c.want {
			t.Errorf("%dx%d board at size %d: picture %dx%d, want %dx%d", c.v.Size, c.v.Size, c.size, cfg.Width, cfg.Height, c.want, c.want)
		}
	}
}

// TestConcurrent draws from many goroutines with one Renderer (run with
// -race) and checks every picture is the one drawn alone.
func TestConcurrent(t *testing.T) {
	r := New()
	var want [][]byte
	fs := fixtures()
	for _, f := range fs {
		b, err := New().PNG(f.v, f.last, 0, Options{Theme: Dark})
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, b)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range fs {
				f := fs[(i+g)%len(fs)]
				b, err := r.PNG(f.v, f.last, 0, Options{Theme: Dark})
				if err == nil && !bytes.Equal(b, want[(i+g)%len(fs)]) {
					err = fmt.Errorf("%s: picture differs from the one drawn alone", f.name)
				}
				if err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// TestGolden compares pictures with testdata/*.png by decoded pixels: at
// most 0.05% of the pixels may differ by more than 48 in a channel.
func TestGolden(t *testing.T) {
	r := New()
	h4 := halmaView(4)
	for _, c := range []struct {
		name   string
		v      rules.View
		last   *rules.Move
		viewer int
		o      Options
	}{
		{"draughts-light", draughtsView(), draughtsLast(), 0, Options{Numbers: true}},
		{"draughts-dark-black", draughtsView(), draughtsLast(), 1, Options{Theme: Dark, Numbers: true}},
		{"ultradamas-light", ultraView(), ultraLast(), -1, Options{}},
		{"ultradamas-dark", ultraView(), ultraLast(), 0, Options{Theme: Dark}},
		{"halma4-light-seat1", h4, halmaLast(), -1, Options{}},
		{"halma2-dark", halmaView(2), nil, 0, Options{Theme: Dark, Size: 640}},
	} {
		t.Run(c.name, func(t *testing.T) {
			data, err := r.PNG(c.v, c.last, c.viewer, c.o)
			if err != nil {
				t.Fatal(err)
			}
			golden(t, c.name, data)
		})
	}
}

func golden(t *testing.T, name string, data []byte) {
	t.Helper()
	path := filepath.Join("testdata", name+".png")
	if *update {
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("%v (run go test ./render -run Golden -update)", err)
	}
	defer f.Close()
	want, err := png.Decode(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if msg := differ(got, want); msg != "" {
		// Not t.TempDir(): it is removed when the test ends, and the
		// point is to look at the picture.
		dir, err := os.MkdirTemp("", "render-golden-")
		if err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(dir, name+".png")
		if err := os.WriteFile(out, data, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Errorf("%s: %s; the picture drawn now is %s (go test ./render -run Golden -update accepts it)", path, msg, out)
	}
}

// differ compares two pictures by pixels with a tolerance.
func differ(got, want image.Image) string {
	if got.Bounds() != want.Bounds() {
		return fmt.Sprintf("size %v, want %v", got.Bounds(), want.Bounds())
	}
	b := got.Bounds()
	bad := 0
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r1, g1, b1, _ := got.At(x, y).RGBA()
			r2, g2, b2, _ := want.At(x, y).RGBA()
			if diff(r1, r2) > 48 || diff(g1, g2) > 48 || diff(b1, b2) > 48 {
				bad++
			}
		}
	}
	if bad*2000 > b.Dx()*b.Dy() {
		return fmt.Sprintf("%d of %d pixels differ", bad, b.Dx()*b.Dy())
	}
	return ""
}

func diff(a, b uint32) int {
	d := int(a>>8) - int(b>>8)
	if d < 0 {
		return -d
	}
	return d
}

// TestManySizes draws at more sizes than the cache keeps and checks the
// pictures still come out right.
func TestManySizes(t *testing.T) {
	r := New()
	v := draughtsView()
	for size := 200; size < 200+2*maxSheets+5; size += 2 {
		data, err := r.PNG(v, nil, 0, Options{Size: size})
		if err != nil {
			t.Fatal(err)
		}
		if size%16 == 0 {
			checkPieces(t, decode(t, r, data, Options{Size: size}, 8, 0), v)
		}
	}
	if len(r.sheets) > maxSheets {
		t.Errorf("%d sheets cached, at most %d wanted", len(r.sheets), maxSheets)
	}
}

// TestPalette checks the fixed palettes: 255 opaque colors, among them
// exactly every color the theme paints with, then a transparent one.
func TestPalette(t *testing.T) {
	for _, name := range []Theme{Light, Dark} {
		th, ok := newTheme(name)
		if !ok {
			t.Fatalf("no theme %q", name)
		}
		if len(th.palette) != 256 {
			t.Fatalf("%s: %d colors, want 256", name, len(th.palette))
		}
		has := map[color.Color]bool{}
		for i, c := range th.palette {
			_, _, _, a := c.RGBA()
			if (i == transparent) != (a == 0) {
				t.Errorf("%s: color %d is %v", name, i, c)
			}
			has[c] = true
		}
		keys := []color.RGBA{th.margin, th.label, th.dot, th.cross, th.frame, th.numLight, th.numDrk}
		keys = append(keys, th.fills()...)
		for _, s := range th.seats {
			keys = append(keys, s.face, s.side, s.rim, s.mark)
		}
		for _, c := range keys {
			if !has[c] {
				t.Errorf("%s: %v is not in the palette", name, c)
			}
		}
	}
	if _, ok := newTheme("pink"); ok {
		t.Error("theme pink exists")
	}
}

// TestLevelsAtAGlance checks what tells the Ultradamas levels apart in
// the middle column of a square: the stack grows with the level up to 4;
// an ultra king (5) shows one band of the opponent's color, a double
// ultra king (6) two; kings and up carry a crown or digit in the mark
// color; a carried piece shows as a disc at the top right.
func TestLevelsAtAGlance(t *testing.T) {
	r := New()
	for i := 0; i < 4; i++ {
		seat, colorSet, o := i%2, []int{cRed, cBlack}[i%2], Options{Theme: []Theme{Light, Dark}[i/2]}
		v := rules.View{Size: 8, Turn: -1}
		for level := 1; level <= 6; level++ {
			v.Pieces = append(v.Pieces, rules.Piece{Square: rules.Square{File: int8(level - 1), Rank: 3}, Seat: seat, Level: level})
		}
		v.Pieces = append(v.Pieces, rules.Piece{Square: sq("h4"), Seat: seat, Level: 5, Carries: 3})
		data, err := r.PNG(v, nil, 0, o)
		if err != nil {
			t.Fatal(err)
		}
		p := decode(t, r, data, o, 8, 0)
		own, other := p.th.seats[colorSet], p.th.seats[[]int{cBlack, cRed}[seat]]
		prevHeight := 0
		for level := 1; level <= 6; level++ {
			s := rules.Square{File: int8(level - 1), Rank: 3}
			first, last, bands, marks := -1, -1, 0, 0
			inBand := false
			for y := 0; y < p.s.cell; y++ {
				c := p.at(s, 0.5, float64(y)/float64(p.s.cell))
				fill := c == p.th.light || c == p.th.dark
				if !fill {
					if first < 0 {
						first = y
					}
					last = y
				}
				band := c == other.side || c == other.face
				if band && !inBand {
					bands++
				}
				inBand = band
				if c == own.mark {
					marks++
				}
			}
			height := last - first
			if level <= 4 && height <= prevHeight {
				t.Errorf("seat %d: level %d stands %d px high, level %d %d px", seat, level, height, level-1, prevHeight)
			}
			prevHeight = height
			wantBands := map[int]int{5: 1, 6: 2}[level]
			if bands != wantBands {
				t.Errorf("seat %d: level %d shows %d bands of the opponent's color, want %d", seat, level, bands, wantBands)
			}
			if (marks > 0) != (level >= 2) {
				t.Errorf("seat %d: level %d has %d pixels of crown or digit", seat, level, marks)
			}
		}
		for _, c := range []struct {
			sq      string
			carries bool
		}{{"e4", false}, {"h4", true}} {
			n := 0 // the top of the small disc, above its digit and the stack
			for x := 0.7; x < 0.9; x += 0.02 {
				for y := 0.04; y < 0.12; y += 0.02 {
					if p.at(sq(c.sq), x, y) == own.face {
						n++
					}
				}
			}
			if got := n > 5; got != c.carries {
				t.Errorf("seat %d: %s shows a carried piece: %v (%d pixels), want %v", seat, c.sq, got, n, c.carries)
			}
		}
	}
}

func TestThemeNames(t *testing.T) {
	r := New()
	want, err := r.PNG(draughtsView(), nil, 0, Options{Theme: Dark})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []Theme{"DARK", " Dark "} {
		got, err := r.PNG(draughtsView(), nil, 0, Options{Theme: name})
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("theme %q: %v, or not the dark picture", name, err)
		}
	}
	light, err := r.PNG(draughtsView(), nil, 0, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(light, want) {
		t.Error("the default theme is dark, want light")
	}
}

// TestRandomViews draws random, often malformed, views: each gives a
// picture or an error of one of the two kinds, never a panic.
func TestRandomViews(t *testing.T) {
	r := New()
	rng := rand.New(rand.NewPCG(6, 6))
	square := func(n int) rules.Square {
		if rng.IntN(200) == 0 {
			return rules.Square{File: int8(rng.IntN(n+2) - 1), Rank: int8(rng.IntN(n+2) - 1)}
		}
		return rules.Square{File: int8(rng.IntN(max(n, 1))), Rank: int8(rng.IntN(max(n, 1)))}
	}
	drawn := 0
	for i := 0; i < 300; i++ {
		n := []int{8, 10, 16, 8, 8, 1, 17}[rng.IntN(7)]
		v := rules.View{Size: n, Turn: rng.IntN(6) - 1}
		if rng.IntN(2) == 0 {
			v.Playable, v.Numbers = draughtsBoard()
		}
		if rng.IntN(3) == 0 {
			for c := rng.IntN(6); c > 0; c-- {
				v.Camps = append(v.Camps, []rules.Square{square(n), square(n)})
			}
		}
		for p := rng.IntN(30); p > 0; p-- {
			p := rules.Piece{Square: square(n), Seat: rng.IntN(2), Level: 1 + rng.IntN(6), Carries: rng.IntN(5)}
			if rng.IntN(50) == 0 {
				p.Seat, p.Level, p.Carries = rng.IntN(6)-1, rng.IntN(8), rng.IntN(8)-1
			}
			v.Pieces = append(v.Pieces, p)
		}
		for m := rng.IntN(4); m > 0; m-- {
			v.Movable = append(v.Movable, square(n))
		}
		var last *rules.Move
		if rng.IntN(2) == 0 {
			last = &rules.Move{From: square(n), To: square(n), Path: []rules.Square{square(n), square(n), square(n)}, Captured: []rules.Square{square(n)}}
		}
		o := Options{Theme: []Theme{Light, Dark, Light, "x"}[rng.IntN(4)], Size: []int{0, 0, 100, 333, -5}[rng.IntN(5)], Numbers: rng.IntN(2) == 0}
		data, err := r.PNG(v, last, rng.IntN(4)-2, o)
		switch {
		case err == nil:
			drawn++
			if _, err := png.Decode(bytes.NewReader(data)); err != nil {
				t.Fatalf("view %d: %v", i, err)
			}
		case !errors.Is(err, ErrBadView) && !errors.Is(err, ErrBadOptions):
			t.Fatalf("view %d: error %v of no known kind", i, err)
		}
		if _, err := r.Replay([]rules.View{v, v}, []rules.Move{{}}, o); err != nil && !errors.Is(err, ErrBadView) && !errors.Is(err, ErrBadOptions) {
			t.Fatalf("view %d: replay error %v of no known kind", i, err)
		}
	}
	if drawn < 30 {
		t.Errorf("only %d of the random views were drawn", drawn)
	}
}

// TestLayout: the squares in the order the pictures show them, for the
// text boards: the viewer's home corner at the bottom left.
func TestLayout(t *testing.T) {
	d := draughtsView() // White to move
	h := halmaView(4)   // seat 1 to move
	for _, c := range []struct {
		name                      string
		v                         rules.View
		viewer                    int
		topLeft, bottomLeft, last string
	}{
		{"draughts/to move", d, -1, "a8", "a1", "h1"},
		{"draughts/white", d, 0, "a8", "a1", "h1"},
		{"draughts/black", d, 1, "h1", "h8", "a8"},
		{"halma4/to move", h, -1, "p16", "a16", "a1"},
		{"halma4/seat0", h, 0, "a16", "a1", "p1"},
		{"halma4/seat1", h, 1, "p16", "a16", "a1"},
		{"halma4/seat2", h, 2, "p1", "p16", "a16"},
		{"halma4/seat3", h, 3, "a1", "p1", "p16"},
	} {
		rows, err := Layout(c.v, c.viewer)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		n := len(rows)
		got := []rules.Square{rows[0][0], rows[n-1][0], rows[n-1][n-1]}
		want := []rules.Square{sq(c.topLeft), sq(c.bottomLeft), sq(c.last)}
		if !slices.Equal(got, want) {
			t.Errorf("%s: top left, bottom left, bottom right %v, want %v", c.name, got, want)
		}
	}
	if _, err := Layout(d, 2); !errors.Is(err, ErrBadOptions) {
		t.Errorf("viewer 2 of two players: %v, want %v", err, ErrBadOptions)
	}
}
