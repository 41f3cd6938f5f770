package render

import (
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"math"
	"strconv"
	"sync"

	"github.com/fogleman/gg"
	"github.com/golang/freetype/truetype"
	"golang.org/x/image/font"
)

// sheetKey identifies a sheet: a theme, a picture size and a board size.
type sheetKey struct {
	theme Theme
	size  int // picture width and height in pixels
	n     int // files and ranks
}

// A sheet holds what gg drew once for one theme, picture size and board
// size: the frames (margin and coordinates, one per orientation), the
// sprites, and the cells composed from them, already in palette indices.
// Pictures are composed by copying cells into a copy of a frame.
type sheet struct {
	th      *theme
	n       int // files and ranks
	size    int // picture width and height
	cell    int // square size in pixels
	off     int // x and y of the board's top-left corner
	font    *truetype.Font
	mu      sync.RWMutex
	frames  [4]*image.Paletted
	cells   map[cellKey][]uint8 // cell*cell palette indices
	pieces  map[pieceKey]*image.RGBA
	nearest map[color.RGBA]uint8
	faces   map[float64]font.Face
	images  sync.Pool // *image.Paletted pictures of this size, for PNG
}

// cellKey is everything that decides how one square looks.
type cellKey struct {
	dark     bool  // a dark (playing) square
	mark     uint8 // markNone, markFrom, markTo
	camp     uint8 // 0, or 1 + the color set of the camp's owner
	edges    uint8 // camp border on the cell's edges: edgeTop|edgeRight|...
	number   uint16
	numbered bool
	dot      bool // a square the last series passed through
	captured bool
	movable  bool
	piece    pieceKey
}

const (
	markNone uint8 = iota
	markFrom
	markTo
)

const (
	edgeTop uint8 = 1 << iota
	edgeRight
	edgeBottom
	edgeLeft
)

// pieceKey is how a piece looks: its color set, its opponent's (the
// middle of an ultra king), its level (0: no piece) and what it carries.
type pieceKey struct {
	color, other, level, carries uint8
}

// newSheet computes the geometry of a size x size picture of an n x n board.
func newSheet(th *theme, f *truetype.Font, size, n int) (*sheet, error) {
	margin := max(14, size/22)
	cell := (size - 2*margin) / n
	if cell < 12 {
		return nil, fmt.Errorf("%w: %d px is too small for a %dx%d board (at least %d)", ErrBadOptions, size, n, n, 12*n+28)
	}
	return &sheet{
		th: th, n: n, size: size, cell: cell, off: (size - cell*n) / 2, font: f,
		cells:   map[cellKey][]uint8{},
		pieces:  map[pieceKey]*image.RGBA{},
		nearest: map[color.RGBA]uint8{},
		faces:   map[float64]font.Face{},
	}, nil
}

// face returns the bold font at px pixels. Callers hold s.mu.
func (s *sheet) face(px float64) font.Face {
	px = math.Round(px)
	if f, ok := s.faces[px]; ok {
		return f
	}
	f := truetype.NewFace(s.font, &truetype.Options{Size: px, DPI: 72, Hinting: font.HintingFull})
	s.faces[px] = f
	return f
}

// text draws str with its ink centred on (x, y).
func (s *sheet) text(dc *gg.Context, str string, px, x, y float64) {
	f := s.face(px)
	dc.SetFontFace(f)
	b, _ := font.BoundString(f, str)
	w, h := float64(b.Max.X-b.Min.X)/64, float64(b.Max.Y-b.Min.Y)/64
	dc.DrawString(str, x-w/2-float64(b.Min.X)/64, y-h/2-float64(b.Min.Y)/64)
}

// quantise converts an RGBA picture to palette indices (nearest color).
// Callers hold s.mu.
func (s *sheet) quantise(src *image.RGBA, dst []uint8) {
	b := src.Bounds()
	i := 0
	last, lastIdx := color.RGBA{}, s.th.nearest(color.RGBA{A: 0xff})
	for y := b.Min.Y; y < b.Max.Y; y++ {
		row := src.Pix[src.PixOffset(b.Min.X, y):]
		for x := 0; x < b.Dx(); x++ {
			c := color.RGBA{row[4*x], row[4*x+1], row[4*x+2], 0xff}
			if c != last { // most pixels repeat the one before
				idx, ok := s.nearest[c]
				if !ok {
					idx = s.th.nearest(c)
					s.nearest[c] = idx
				}
				last, lastIdx = c, idx
			}
			dst[i] = lastIdx
			i++
		}
	}
}

// frame returns the picture's frame for orientation k: the margin with
// the coordinates. The board area is left in the margin color.
func (s *sheet) frame(k int) *image.Paletted {
	s.mu.RLock()
	f := s.frames[k]
	s.mu.RUnlock()
	if f != nil {
		return f
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.frames[k] != nil {
		return s.frames[k]
	}
	dc := gg.NewContext(s.size, s.size)
	dc.SetColor(s.th.margin)
	dc.Clear()
	dc.SetColor(s.th.label)
	px := math.Min(float64(s.off)*0.55, float64(s.cell)*0.45)
	grid := screenGrid(s.n, k)
	end := float64(s.off + s.n*s.cell)
	mid := float64(s.off) / 2
	for i := 0; i < s.n; i++ {
		c := float64(s.off) + (float64(i)+0.5)*float64(s.cell)
		col := axisLabel(grid[0][i], grid[s.n-1][i]) // a column: along the bottom edge
		row := axisLabel(grid[i][0], grid[i][s.n-1]) // a row: along the left edge
		s.text(dc, col, px, c, end+mid)
		s.text(dc, col, px, c, mid)
		s.text(dc, row, px, mid, c)
		s.text(dc, row, px, end+mid, c)
	}
	img := image.NewPaletted(image.Rect(0, 0, s.size, s.size), s.th.palette[:transparent])
	s.quantise(dc.Image().(*image.RGBA), img.Pix)
	s.frames[k] = img
	return img
}

// axisLabel names the line of squares from a to b: its file when they
// share one, else its rank.
func axisLabel(a, b squareXY) string {
	if a.f == b.f {
		return string(rune('a' + a.f))
	}
	return strconv.Itoa(a.r + 1)
}

// maxCells bounds a sheet's cache of cells; a game uses a few hundred.
const maxCells = 4096

// tile returns the cell for k, drawing and caching it on first use.
func (s *sheet) tile(k cellKey) []uint8 {
	s.mu.RLock()
	t, ok := s.cells[k]
	s.mu.RUnlock()
	if ok {
		return t
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if t, ok := s.cells[k]; ok {
		return t
	}
	t = make([]uint8, s.cell*s.cell)
	s.quantise(s.drawCell(k), t)
	if len(s.cells) >= maxCells { // not in a real game: start again rather than grow
		clear(s.cells)
	}
	s.cells[k] = t
	return t
}

// drawCell draws one square in RGBA. Callers hold s.mu.
func (s *sheet) drawCell(k cellKey) *image.RGBA {
	th, n := s.th, float64(s.cell)
	dc := gg.NewContext(s.cell, s.cell)
	fill := th.light
	if k.dark {
		fill = th.dark
	}
	if k.camp > 0 {
		fill = th.campFill(fill, int(k.camp-1))
	}
	switch k.mark {
	case markFrom:
		fill = th.from
	case markTo:
		fill = th.to
	}
	dc.SetColor(fill)
	dc.Clear()
	if k.edges != 0 {
		w := s.edgeWidth()
		dc.SetColor(th.seats[k.camp-1].face)
		if k.edges&edgeTop != 0 {
			dc.DrawRectangle(0, 0, n, w)
		}
		if k.edges&edgeBottom != 0 {
			dc.DrawRectangle(0, n-w, n, w)
		}
		if k.edges&edgeLeft != 0 {
			dc.DrawRectangle(0, 0, w, n)
		}
		if k.edges&edgeRight != 0 {
			dc.DrawRectangle(n-w, 0, w, n)
		}
		dc.Fill()
	}
	if k.captured {
		dc.SetColor(th.cross)
		dc.SetLineWidth(math.Max(2, n*0.09))
		dc.SetLineCapRound()
		a, b := n*0.28, n*0.72
		dc.DrawLine(a, a, b, b)
		dc.DrawLine(a, b, b, a)
		dc.Stroke()
	}
	if k.dot {
		dc.SetColor(th.dot)
		dc.DrawCircle(n/2, n/2, n*0.12)
		dc.Fill()
	}
	img := dc.Image().(*image.RGBA)
	if k.piece.level > 0 {
		draw.Draw(img, img.Bounds(), s.piece(k.piece), image.Point{}, draw.Over)
	}
	if k.numbered { // over the piece, ringed with the square's color
		ink := th.numDrk
		if luminance(fill) < 0.6 {
			ink = th.numLight
		}
		str := strconv.Itoa(int(k.number))
		f := s.face(math.Max(8, n*0.2))
		dc.SetFontFace(f)
		b, _ := font.BoundString(f, str)
		at := s.frameWidth() + 1 // clear of the movable frame
		x, y := at-float64(b.Min.X)/64, at-float64(b.Min.Y)/64
		if k.piece.level > 0 {
			dc.SetColor(fill)
			for _, d := range [][2]float64{{-1, -1}, {0, -1}, {1, -1}, {-1, 0}, {1, 0}, {-1, 1}, {0, 1}, {1, 1}} {
				dc.DrawString(str, x+d[0], y+d[1])
			}
		}
		dc.SetColor(ink)
		dc.DrawString(str, x, y)
	}
	if k.movable { // inside the camp border, if any, which stays visible
		w := s.frameWidth()
		in := w / 2
		if k.camp > 0 {
			in += s.edgeWidth()
		}
		dc.SetColor(th.frame)
		dc.SetLineWidth(w)
		dc.DrawRectangle(in, in, n-2*in, n-2*in)
		dc.Stroke()
	}
	return img
}

// frameWidth is the width of the frame around a movable piece.
func (s *sheet) frameWidth() float64 { return math.Max(2, math.Round(float64(s.cell)/15)) }

// edgeWidth is the width of a camp's border.
func (s *sheet) edgeWidth() float64 { return math.Max(2, math.Round(float64(s.cell)/14)) }

func luminance(c color.RGBA) float64 {
	return (0.299*float64(c.R) + 0.587*float64(c.G) + 0.114*float64(c.B)) / 255
}

// discs returns the color sets of a piece's discs, bottom first.
func discs(p pieceKey) []uint8 {
	o, x := p.color, p.other
	switch {
	case p.level == 5:
		return []uint8{o, x, o}
	case p.level >= 6:
		return []uint8{o, x, o, o, x, o}
	}
	d := make([]uint8, p.level)
	for i := range d {
		d[i] = o
	}
	return d
}

// piece returns the sprite of a piece (transparent around it), drawing it
// on first use: a stack of discs seen slightly from the side, the top one
// carrying a crown (level 2) or the level's digit (3 and up), and the
// carried piece as a small disc with its level at the top right.
// Callers hold s.mu.
func (s *sheet) piece(p pieceKey) *image.RGBA {
	if img, ok := s.pieces[p]; ok {
		return img
	}
	n := float64(s.cell)
	dc := gg.NewContext(s.cell, s.cell)
	d := discs(p)
	rx, ry := n*0.37, n*0.25
	t := math.Min(n*0.12, (n*0.90-2*ry)/float64(len(d)))
	lw := math.Max(1, n/36)
	h := 2*ry + float64(len(d))*t
	top := n*0.53 - h/2 + ry // centre of the top face; the stack a little low, clear of the numbers
	dc.SetLineWidth(lw)
	for i, c := range d {
		pc := s.th.seats[c]
		y := top + float64(len(d)-1-i)*t
		// the side: the face's lower half pushed down by t
		dc.MoveTo(n/2-rx, y)
		dc.LineTo(n/2-rx, y+t)
		dc.DrawEllipticalArc(n/2, y+t, rx, ry, math.Pi, 0)
		dc.LineTo(n/2+rx, y)
		dc.ClosePath()
		dc.SetColor(pc.side)
		dc.FillPreserve()
		dc.SetColor(pc.rim)
		dc.Stroke()
		dc.DrawEllipse(n/2, y, rx, ry)
		dc.SetColor(pc.face)
		dc.FillPreserve()
		dc.SetColor(pc.rim)
		dc.Stroke()
	}
	pc := s.th.seats[p.color]
	dc.SetColor(pc.mark)
	switch {
	case p.level == 2:
		crown(dc, n/2, top, n*0.36, n*0.2)
	case p.level >= 3:
		s.text(dc, strconv.Itoa(int(p.level)), n*0.34, n/2, top)
	}
	if p.carries > 0 {
		x, y, r := n*0.80, n*0.20, n*0.18
		dc.DrawCircle(x, y, r)
		dc.SetColor(pc.face)
		dc.FillPreserve()
		dc.SetColor(pc.rim)
		dc.SetLineWidth(math.Max(1.5, n/24))
		dc.Stroke()
		dc.SetColor(pc.mark)
		s.text(dc, strconv.Itoa(int(p.carries)), n*0.24, x, y)
	}
	img := dc.Image().(*image.RGBA)
	s.pieces[p] = img
	return img
}

// crown draws a three-pointed crown w wide and h high centred on (x, y).
func crown(dc *gg.Context, x, y, w, h float64) {
	l, r, t, b := x-w/2, x+w/2, y-h/2, y+h/2
	dc.MoveTo(l, b)
	dc.LineTo(l, t)
	dc.LineTo(l+w/4, y)
	dc.LineTo(x, t)
	dc.LineTo(r-w/4, y)
	dc.LineTo(r, t)
	dc.LineTo(r, b)
	dc.ClosePath()
	dc.Fill()
}
