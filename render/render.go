package render

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"sync"

	"github.com/boardgamebot/bot/rules"
	"github.com/golang/freetype/truetype"
	"golang.org/x/image/font/gofont/gobold"
)

// Error kinds: every error of this package wraps one of them.
var (
	// ErrBadView: the view cannot be drawn (board size, a square off the
	// board, an unknown seat or level, frames of different boards).
	ErrBadView = errors.New("render: bad view")
	// ErrBadOptions: an unknown theme, a picture size out of range, or a
	// viewer that is not a seat.
	ErrBadOptions = errors.New("render: bad options")
)

// Options choose how a picture looks. The zero value is the light theme
// at the default size without square numbers.
type Options struct {
	// Theme is Light (the default when empty) or Dark, in any case.
	Theme Theme
	// Size is the width and height of the picture in pixels; 0 means 512
	// for boards up to 10x10 and 800 for 16x16.
	Size int
	// Numbers draws the draughts square numbers (View.Numbers) small in
	// a corner of each playing square.
	Numbers bool
}

// maxSheets bounds the cache: a bot uses a few (theme, size, board) sheets.
const maxSheets = 32

// MaxSize is the largest picture size accepted, in pixels.
const MaxSize = 4096

// Renderer draws board pictures. It is safe for concurrent use: it keeps,
// per theme, picture size and board size, the frame, sprites and squares
// that gg drew once, and composes each picture from them.
type Renderer struct {
	font     *truetype.Font
	fontErr  error
	mu       sync.Mutex
	themes   map[Theme]*theme
	stories  map[Theme]*storyPalette
	pix      sync.Pool // *[]byte: the RGBA pixels of story pictures being drawn
	facePool sync.Pool // *faces of story pictures
	sheets   map[sheetKey]*sheet
	enc      encoder
}

// New returns a Renderer with empty caches.
func New() *Renderer {
	f, err := truetype.Parse(gobold.TTF)
	return &Renderer{font: f, fontErr: err, themes: map[Theme]*theme{}, sheets: map[sheetKey]*sheet{}}
}

// sheet returns the sheet for o and an n x n board, creating it on first use.
func (r *Renderer) sheet(o Options, n int) (*sheet, error) {
	if r.fontErr != nil {
		return nil, fmt.Errorf("render: font: %v", r.fontErr)
	}
	if n < 2 || n > 16 {
		return nil, fmt.Errorf("%w: board size %d (2 to 16)", ErrBadView, n)
	}
	th, err := r.theme(o.Theme)
	if err != nil {
		return nil, err
	}
	size := o.Size
	if size == 0 {
		size = 512
		if n > 10 {
			size = 800
		}
	}
	if size < 0 || size > MaxSize {
		return nil, fmt.Errorf("%w: size %d px (up to %d)", ErrBadOptions, size, MaxSize)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	key := sheetKey{th.name, size, n}
	if s, ok := r.sheets[key]; ok {
		return s, nil
	}
	s, err := newSheet(th, r.font, size, n)
	if err != nil {
		return nil, err
	}
	if len(r.sheets) >= maxSheets { // many sizes: start again rather than grow
		clear(r.sheets)
	}
	r.sheets[key] = s
	return s, nil
}

// PNG draws v as a PNG picture, with last (when not nil) marked as the
// last move and the pieces of v.Movable outlined. viewer is the seat whose
// side is at the bottom; -1 means the seat to move (seat 0 when v.Turn is
// -1). Two players: seat 1 sees the board turned 180°. Four players: the
// board is turned so that the viewer's home corner is at the bottom left,
// as seat 0's (a1) is.
func (r *Renderer) PNG(v rules.View, last *rules.Move, viewer int, o Options) ([]byte, error) {
	s, err := r.sheet(o, v.Size)
	if err != nil {
		return nil, err
	}
	k, err := turns(v, viewer)
	if err != nil {
		return nil, err
	}
	keys, err := cellKeys(v, last, k, o.Numbers, true)
	if err != nil {
		return nil, err
	}
	img, _ := s.images.Get().(*image.Paletted)
	img = s.compose(img, keys, k)
	var buf bytes.Buffer
	buf.Grow(32 << 10)
	err = r.enc.encode(&buf, img)
	s.images.Put(img)
	if err != nil {
		return nil, fmt.Errorf("render: encoding PNG: %v", err)
	}
	return buf.Bytes(), nil
}

// turns returns the quarter turns anticlockwise of the pictures of v seen
// by viewer (a seat, or -1 for the seat to move, seat 0 when v.Turn is -1):
// 2 for seat 1 of two players, one per seat of four.
func turns(v rules.View, viewer int) (int, error) {
	if viewer == -1 {
		viewer = max(v.Turn, 0)
	}
	players := 2
	if len(v.Camps) > 2 {
		players = len(v.Camps)
	}
	if viewer < 0 || viewer >= players {
		return 0, fmt.Errorf("%w: viewer %d is not a seat (0 to %d, or -1)", ErrBadOptions, viewer, players-1)
	}
	return viewer * 4 / players, nil
}

// Layout returns the squares of v's board as its pictures seen by viewer
// show them (see PNG): rows from the top, each from the left. A text board
// drawn in this order matches the pictures.
func Layout(v rules.View, viewer int) ([][]rules.Square, error) {
	n := v.Size
	if n < 2 || n > 16 {
		return nil, fmt.Errorf("%w: board size %d (2 to 16)", ErrBadView, n)
	}
	k, err := turns(v, viewer)
	if err != nil {
		return nil, err
	}
	grid := screenGrid(n, k)
	rows := make([][]rules.Square, n)
	for row := range rows {
		rows[row] = make([]rules.Square, n)
		for col := range rows[row] {
			rows[row][col] = rules.Square{File: int8(grid[row][col].f), Rank: int8(grid[row][col].r)}
		}
	}
	return rows, nil
}

// compose copies the frame for orientation k and the cells into img, or
// into a new picture when img is nil, and returns it.
func (s *sheet) compose(img *image.Paletted, keys *[16][16]cellKey, k int) *image.Paletted {
	frame := s.frame(k)
	if img == nil {
		img = image.NewPaletted(frame.Rect, frame.Palette)
	}
	copy(img.Pix, frame.Pix)
	for row := 0; row < s.n; row++ {
		for col := 0; col < s.n; col++ {
			s.put(img, row, col, s.tile(keys[row][col]))
		}
	}
	return img
}

// put copies a cell's indices to the square at (row, col) of the screen.
func (s *sheet) put(img *image.Paletted, row, col int, t []uint8) {
	x, y := s.off+col*s.cell-img.Rect.Min.X, s.off+row*s.cell-img.Rect.Min.Y
	for i := 0; i < s.cell; i++ {
		o := (y+i)*img.Stride + x
		copy(img.Pix[o:o+s.cell], t[i*s.cell:(i+1)*s.cell])
	}
}

// squareXY is a board square as ints.
type squareXY struct{ f, r int }

// screenGrid returns, for each screen row (top first) and column, the
// board square shown there after k quarter turns anticlockwise.
func screenGrid(n, k int) [16][16]squareXY {
	var g [16][16]squareXY
	for f := 0; f < n; f++ {
		for r := 0; r < n; r++ {
			col, row := screenOf(n, k, f, r)
			g[row][col] = squareXY{f, r}
		}
	}
	return g
}

// screenOf returns the screen column and row (from the top) of square
// (f, r) on an n x n board turned k quarter turns anticlockwise.
func screenOf(n, k, f, r int) (col, row int) {
	col, row = f, n-1-r
	for i := 0; i < k; i++ {
		col, row = row, n-1-col
	}
	return col, row
}

// seatColors returns the color sets of the seats: Halma (camps) red,
// blue, green, yellow; the games played on one color of squares
// (draughts: Playable or Numbers set) white and black; the others
// (Ultradamas) red and black.
func seatColors(v rules.View) []uint8 {
	switch {
	case v.Camps != nil:
		return []uint8{cRed, cBlue, cGreen, cYellow}[:max(2, min(4, len(v.Camps)))]
	case v.Playable != nil || v.Numbers != nil:
		return []uint8{cWhite, cBlack}
	}
	return []uint8{cRed, cBlack}
}

// seatColorNames name the piece color sets for people.
var seatColorNames = [nColors]string{cWhite: "white", cBlack: "black", cRed: "red", cBlue: "blue", cGreen: "green", cYellow: "yellow"}

// SeatColor returns the color of a seat's pieces in the pictures of
// view v, in words ("red"), so that a chat can tell players which pieces
// are theirs; "" for a seat the view has no color for.
func SeatColor(v rules.View, seat int) string {
	colors := seatColors(v)
	if seat < 0 || seat >= len(colors) {
		return ""
	}
	return seatColorNames[colors[seat]]
}

// cellKeys works out how every square of the screen looks for view v
// turned k quarter turns. Squares off the board are ErrBadView errors.
func cellKeys(v rules.View, last *rules.Move, k int, numbers, movable bool) (*[16][16]cellKey, error) {
	n := v.Size
	if n < 2 || n > 16 {
		return nil, fmt.Errorf("%w: board size %d (2 to 16)", ErrBadView, n)
	}
	s := &screenKeys{n: n, k: k}
	// the squares' colors: a1 dark, as on every real board; Spanish
	// draughts is played on the light squares, the other games on the dark
	for f := 0; f < n; f++ {
		for r := 0; r < n; r++ {
			c, _ := s.at(rules.Square{File: int8(f), Rank: int8(r)}, "")
			c.dark = (f+r)%2 == 0
		}
	}
	for _, sq := range v.Playable {
		if _, err := s.at(sq, "playable"); err != nil {
			return nil, err
		}
	}
	if numbers {
		for sq, num := range v.Numbers {
			c, err := s.at(sq, "numbered")
			if err != nil {
				return nil, err
			}
			if num > 0 && num < 1000 {
				c.number, c.numbered = uint16(num), true
			}
		}
	}
	colors := seatColors(v)
	if err := s.camps(v, colors); err != nil {
		return nil, err
	}
	if last != nil && !last.Pass {
		if err := s.lastMove(last); err != nil {
			return nil, err
		}
	}
	if err := s.pieces(v, colors); err != nil {
		return nil, err
	}
	if movable {
		for _, sq := range v.Movable {
			c, err := s.at(sq, "movable")
			if err != nil {
				return nil, err
			}
			c.movable = true
		}
	}
	return &s.keys, nil
}

// screenKeys are the cells of a screen of an n x n board turned k quarter
// turns, being worked out by cellKeys.
type screenKeys struct {
	keys [16][16]cellKey
	n, k int
}

// at returns the cell where square sq is on the screen; what names the
// square in the error when it is off the board.
func (s *screenKeys) at(sq rules.Square, what string) (*cellKey, error) {
	f, r := int(sq.File), int(sq.Rank)
	if f < 0 || f >= s.n || r < 0 || r >= s.n {
		return nil, fmt.Errorf("%w: %s square (file %d, rank %d) is off the %dx%d board", ErrBadView, what, f, r, s.n, s.n)
	}
	col, row := screenOf(s.n, s.k, f, r)
	return &s.keys[row][col], nil
}

// camps tints each camp in its owner's color set and outlines it where it
// borders another camp or the board's edge.
func (s *screenKeys) camps(v rules.View, colors []uint8) error {
	n, k := s.n, s.k
	if len(v.Camps) > len(colors) {
		return fmt.Errorf("%w: %d camps (at most 4)", ErrBadView, len(v.Camps))
	}
	var owner [16][16]uint8 // 1 + color set of the camp's owner, on the screen
	for seat, camp := range v.Camps {
		for _, sq := range camp {
			c, err := s.at(sq, "camp")
			if err != nil {
				return err
			}
			c.camp = 1 + colors[seat]
			col, row := screenOf(n, k, int(sq.File), int(sq.Rank))
			owner[row][col] = c.camp
		}
	}
	if v.Camps == nil {
		return nil
	}
	for row := 0; row < n; row++ {
		for col := 0; col < n; col++ {
			o := owner[row][col]
			if o == 0 {
				continue
			}
			other := func(r, c int) bool { return r < 0 || c < 0 || r >= n || c >= n || owner[r][c] != o }
			c := &s.keys[row][col]
			if other(row-1, col) {
				c.edges |= edgeTop
			}
			if other(row+1, col) {
				c.edges |= edgeBottom
			}
			if other(row, col-1) {
				c.edges |= edgeLeft
			}
			if other(row, col+1) {
				c.edges |= edgeRight
			}
		}
	}
	return nil
}

// lastMove marks the last move: a dot on each square its series passed
// through, a cross on each captured square, its start and end filled.
func (s *screenKeys) lastMove(last *rules.Move) error {
	for i, sq := range last.Path {
		if i == 0 || i == len(last.Path)-1 {
			continue
		}
		c, err := s.at(sq, "move path")
		if err != nil {
			return err
		}
		c.dot = true
	}
	for _, sq := range last.Captured {
		c, err := s.at(sq, "captured")
		if err != nil {
			return err
		}
		c.captured = true
	}
	c, err := s.at(last.From, "move's start")
	if err != nil {
		return err
	}
	c.mark = markFrom
	if c, err = s.at(last.To, "move's end"); err != nil {
		return err
	}
	c.mark = markTo
	c.dot = false
	return nil
}

// pieces puts v's pieces on their cells, each in its seat's color set.
func (s *screenKeys) pieces(v rules.View, colors []uint8) error {
	for _, p := range v.Pieces {
		c, err := s.at(p.Square, "piece's")
		if err != nil {
			return err
		}
		if p.Seat < 0 || p.Seat >= len(colors) {
			return fmt.Errorf("%w: piece on %v of seat %d (0 to %d)", ErrBadView, p.Square, p.Seat, len(colors)-1)
		}
		if p.Level < 1 || p.Level > 6 || p.Carries < 0 || p.Carries > 6 {
			return fmt.Errorf("%w: piece on %v of level %d carrying %d (levels 1 to 6)", ErrBadView, p.Square, p.Level, p.Carries)
		}
		c.piece = pieceKey{
			color:   colors[p.Seat],
			other:   colors[(p.Seat+1)%len(colors)],
			level:   uint8(p.Level),
			carries: uint8(p.Carries),
		}
		c.dot = false
	}
	return nil
}
