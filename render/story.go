package render

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"math"

	"github.com/fogleman/gg"
	"github.com/golang/freetype/truetype"
	"golang.org/x/image/font"
	"golang.org/x/image/math/fixed"
)

// The pictures of a player's story (rating charts, player cards) share a
// small palette per theme: the theme's background and ink, and the
// colors of the lines and result marks, with the blends their
// antialiased edges need.

// storyColors are a theme's colors for charts and cards.
type storyColors struct {
	bg, ink, grid, band  color.RGBA
	lines                [MaxChartLines]color.RGBA
	win, draw, loss      color.RGBA
	head, headInk, strip color.RGBA // a table's heading bar, its writing, every other row
}

// storyPalette is the palette of a theme's charts and cards, built once.
type storyPalette struct {
	c    storyColors
	pal  color.Palette
	rgba []color.RGBA
}

func newStoryPalette(th *theme) *storyPalette {
	c := storyColors{bg: th.margin, ink: th.label, grid: blend(th.margin, th.label, 0.15), band: blend(th.margin, th.to, 0.18),
		lines: [MaxChartLines]color.RGBA{th.seats[cBlue].face, th.seats[cRed].face},
		win:   th.seats[cGreen].face, draw: blend(th.label, th.margin, 0.45), loss: th.cross,
		head: th.dark, headInk: th.numLight, strip: blend(th.margin, th.light, 0.5)}
	p := &storyPalette{c: c}
	seen := map[color.RGBA]bool{}
	add := func(x color.RGBA) {
		if !seen[x] && len(p.rgba) < 256 {
			seen[x] = true
			p.rgba = append(p.rgba, x)
		}
	}
	grounds := []color.RGBA{c.bg, c.band, c.head, c.strip}
	inks := []color.RGBA{c.ink, c.grid, c.lines[0], c.lines[1], c.win, c.draw, c.loss, c.headInk, c.bg}
	for _, x := range append(grounds, inks...) {
		add(x)
	}
	for _, g := range append(grounds, c.win, c.draw, c.loss) {
		for _, x := range inks {
			for _, t := range []float64{0.5, 0.25, 0.75, 0.125, 0.875} {
				add(blend(g, x, t))
			}
		}
	}
	for _, t := range []float64{0.5, 0.25, 0.75} {
		add(blend(c.lines[0], c.lines[1], t))
	}
	for _, x := range p.rgba {
		p.pal = append(p.pal, x)
	}
	return p
}

// nearest returns the index of the palette color closest to x.
func (p *storyPalette) nearest(x color.RGBA) uint8 {
	best, bestD := 0, int(^uint(0)>>1)
	for i, q := range p.rgba {
		dr, dg, db := int(q.R)-int(x.R), int(q.G)-int(x.G), int(q.B)-int(x.B)
		if d := 3*dr*dr + 4*dg*dg + 2*db*db; d < bestD {
			best, bestD = i, d
		}
	}
	return uint8(best)
}

// story returns the story palette of theme name.
func (r *Renderer) story(name Theme) (*storyPalette, error) {
	th, err := r.theme(name)
	if err != nil {
		return nil, err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.stories == nil {
		r.stories = map[Theme]*storyPalette{}
	}
	p, ok := r.stories[th.name]
	if !ok {
		p = newStoryPalette(th)
		r.stories[th.name] = p
	}
	return p, nil
}

// faces are font faces by size in pixels. A face caches the glyphs it
// drew and is not safe for concurrent use: a picture takes a set from the
// Renderer's pool and gives it back when done, so that the glyphs are
// drawn once per set, not once per picture.
type faces struct {
	f  *truetype.Font
	by map[float64]font.Face
}

// faces takes a set of faces from the pool.
func (r *Renderer) faces() *faces {
	if fs, ok := r.facePool.Get().(*faces); ok {
		return fs
	}
	return &faces{f: r.font, by: map[float64]font.Face{}}
}

// at returns the face of px pixels.
func (fs *faces) at(px float64) font.Face {
	if f, ok := fs.by[px]; ok {
		return f
	}
	f := truetype.NewFace(fs.f, &truetype.Options{Size: px, DPI: 72, Hinting: font.HintingNone})
	fs.by[px] = f
	return f
}

// canvas is a story picture being drawn: gg draws its shapes, and its
// text goes through font.Drawer straight onto the pixels (gg's
// DrawString passes every glyph through a bilinear transform, several
// times slower).
type canvas struct {
	*gg.Context
	img  *image.RGBA
	fs   *faces
	face font.Face
	ink  *image.Uniform
}

// canvas returns a w x h canvas filled with bg, on a buffer of the pool
// (give it back with done).
func (r *Renderer) canvas(w, h int, bg color.RGBA) *canvas {
	buf, _ := r.pix.Get().(*[]byte)
	if buf == nil || cap(*buf) < 4*w*h {
		b := make([]byte, 4*w*h)
		buf = &b
	}
	img := &image.RGBA{Pix: (*buf)[:4*w*h], Stride: 4 * w, Rect: image.Rect(0, 0, w, h)}
	c := &canvas{Context: gg.NewContextForRGBA(img), img: img, fs: r.faces(), ink: image.NewUniform(bg)}
	c.color(bg)
	c.Clear()
	return c
}

// done gives the canvas's buffer and faces back to their pools.
func (r *Renderer) done(c *canvas) {
	r.facePool.Put(c.fs)
	pix := c.img.Pix
	r.pix.Put(&pix)
}

// font chooses the face of px pixels for the text that follows.
func (c *canvas) font(px float64) { c.face = c.fs.at(px) }

// color chooses the color of the shapes and text that follow.
func (c *canvas) color(x color.RGBA) {
	c.SetColor(x)
	c.ink = image.NewUniform(x)
}

// measure is the width of s in the current face.
func (c *canvas) measure(s string) float64 { return float64(font.MeasureString(c.face, s)) / 64 }

// text writes s with its anchor (ax, ay) at (x, y), as gg's
// DrawStringAnchored does: ax 0 puts its left at x, 1 its right, 0.5 its
// middle; ay likewise in the face's height from the baseline.
func (c *canvas) text(s string, x, y, ax, ay float64) {
	h := float64(c.face.Metrics().Height) / 64
	d := font.Drawer{Dst: c.img, Src: c.ink, Face: c.face,
		Dot: fixed.Point26_6{X: fixed.Int26_6(math.Round((x - ax*c.measure(s)) * 64)), Y: fixed.Int26_6(math.Round((y + ay*h) * 64))}}
	d.DrawString(s)
}

// encodeStory turns what c drew into a paletted PNG of p's colors.
func (r *Renderer) encodeStory(p *storyPalette, c *canvas) ([]byte, error) {
	img := image.NewPaletted(c.img.Rect, p.pal)
	quantiseTo(p.nearest, c.img, img.Pix)
	var buf bytes.Buffer
	if err := r.enc.encode(&buf, img); err != nil {
		return nil, fmt.Errorf("render: encoding PNG: %v", err)
	}
	return buf.Bytes(), nil
}
