package render

import (
	"bytes"
	"fmt"
	"image"
	"image/gif"

	"github.com/boardgamebot/bot/rules"
)

// Replay frame delays, in hundredths of a second.
const (
	startDelay = 150
	moveDelay  = 100
	lastDelay  = 400
)

// Replay draws a game as an animated GIF: frames[0] is the start and
// frames[i] the position after moves[i-1], which it marks as the last
// move. The board is seen from seat 0 and the movable pieces are not
// outlined. Views with square numbers (the draughts games, whose move
// lists are in numbers) show them whatever o.Numbers says, as a game's
// pictures do. The first frame shows for 1.5 s, each move for 1 s and the
// last for 4 s; the animation loops. All frames share the theme's
// palette; each frame after the first holds only the rectangle of
// squares that changed, the unchanged squares in it transparent.
func (r *Renderer) Replay(frames []rules.View, moves []rules.Move, o Options) ([]byte, error) {
	if len(frames) == 0 || len(moves) != len(frames)-1 {
		return nil, fmt.Errorf("%w: %d frames for %d moves (want one more frame than moves)", ErrBadView, len(frames), len(moves))
	}
	n := frames[0].Size
	s, err := r.sheet(o, n)
	if err != nil {
		return nil, err
	}
	g := &gif.GIF{
		Config: image.Config{ColorModel: s.th.palette, Width: s.size, Height: s.size},
	}
	numbers := o.Numbers || frames[0].Numbers != nil
	var prev *[16][16]cellKey
	for i, v := range frames {
		if v.Size != n {
			return nil, fmt.Errorf("%w: frame %d is %dx%d, frame 0 %dx%d", ErrBadView, i, v.Size, v.Size, n, n)
		}
		var last *rules.Move
		if i > 0 {
			last = &moves[i-1]
		}
		keys, err := cellKeys(v, last, 0, numbers, false)
		if err != nil {
			return nil, fmt.Errorf("frame %d: %w", i, err)
		}
		var img *image.Paletted
		if prev == nil {
			img = s.compose(nil, keys, 0)
			img.Palette = s.th.palette
		} else {
			img = s.delta(prev, keys)
		}
		prev = keys
		delay := moveDelay
		switch {
		case i == len(frames)-1:
			delay = lastDelay
		case i == 0:
			delay = startDelay
		}
		g.Image = append(g.Image, img)
		g.Delay = append(g.Delay, delay)
		g.Disposal = append(g.Disposal, gif.DisposalNone)
	}
	var buf bytes.Buffer
	if err := gif.EncodeAll(&buf, g); err != nil {
		return nil, fmt.Errorf("render: encoding GIF: %v", err)
	}
	return buf.Bytes(), nil
}

// delta returns a frame holding the smallest rectangle of cells that
// differ between prev and keys, with the unchanged cells in it
// transparent; a single transparent pixel when nothing changed.
func (s *sheet) delta(prev, keys *[16][16]cellKey) *image.Paletted {
	minR, minC, maxR, maxC := s.n, s.n, -1, -1
	for row := 0; row < s.n; row++ {
		for col := 0; col < s.n; col++ {
			if prev[row][col] != keys[row][col] {
				minR, minC = min(minR, row), min(minC, col)
				maxR, maxC = max(maxR, row), max(maxC, col)
			}
		}
	}
	if maxR < 0 {
		img := image.NewPaletted(image.Rect(0, 0, 1, 1), s.th.palette)
		img.Pix[0] = transparent
		return img
	}
	rect := image.Rect(s.off+minC*s.cell, s.off+minR*s.cell, s.off+(maxC+1)*s.cell, s.off+(maxR+1)*s.cell)
	img := image.NewPaletted(rect, s.th.palette)
	for i := range img.Pix {
		img.Pix[i] = transparent
	}
	for row := minR; row <= maxR; row++ {
		for col := minC; col <= maxC; col++ {
			if prev[row][col] != keys[row][col] {
				s.put(img, row, col, s.tile(keys[row][col]))
			}
		}
	}
	return img
}
