package render

import (
	"image/color"
)

// Theme names a color scheme: Light or Dark.
type Theme string

// The themes.
const (
	Light Theme = "light"
	Dark  Theme = "dark"
)

// The piece color sets. A game's seats take colors from these in seat
// order (see seatColors).
const (
	cWhite = iota
	cBlack
	cRed
	cBlue
	cGreen
	cYellow
	nColors
)

// pieceColors are the colors of one color set: the top face of a disc,
// its side, its outline and the crown or level digit on its face.
type pieceColors struct {
	face, side, rim, mark color.RGBA
}

// theme is a color scheme with its fixed palette.
type theme struct {
	name             Theme
	margin, label    color.RGBA // the frame around the board and its coordinates
	light, dark      color.RGBA // the two square colors (dark = playing squares)
	from, to         color.RGBA // last move: start and end squares
	dot              color.RGBA // last move: the squares a series passed through
	cross            color.RGBA // last move: captured pieces
	frame            color.RGBA // outline of the pieces that can move
	numLight, numDrk color.RGBA // square numbers on dark and on light fills
	campTint         float64    // how much of the owner's color tints a camp square
	seats            [nColors]pieceColors
	// palette holds 255 opaque colors and, last, a transparent one
	// (used by the GIF frames for unchanged pixels).
	palette color.Palette
}

func rgb(hex uint32) color.RGBA {
	return color.RGBA{uint8(hex >> 16), uint8(hex >> 8), uint8(hex), 0xff}
}

// blend mixes a and b: t = 0 gives a, t = 1 gives b.
func blend(a, b color.RGBA, t float64) color.RGBA {
	m := func(x, y uint8) uint8 { return uint8(float64(x)*(1-t) + float64(y)*t + 0.5) }
	return color.RGBA{m(a.R, b.R), m(a.G, b.G), m(a.B, b.B), 0xff}
}

// newTheme returns the theme's colors with its palette built, or false
// for an unknown name.
func newTheme(name Theme) (*theme, bool) {
	var t theme
	switch name {
	case Light:
		t = theme{
			margin: rgb(0xf6f1e7), label: rgb(0x5b4636),
			light: rgb(0xeedbb4), dark: rgb(0xad7f5b),
			from: rgb(0xe4dc8e), to: rgb(0xd9c23a),
			dot: rgb(0x9c7f10), cross: rgb(0xd3302f), frame: rgb(0x0fb0c8),
			numLight: rgb(0xf7ead2), numDrk: rgb(0x5b4636),
			campTint: 0.3,
			seats: [nColors]pieceColors{
				cWhite:  {face: rgb(0xfaf7f0), side: rgb(0xcfc8b8), rim: rgb(0x4a4038), mark: rgb(0xb07d10)},
				cBlack:  {face: rgb(0x2e2e2e), side: rgb(0x1a1a1a), rim: rgb(0x8a8a8a), mark: rgb(0xf0c040)},
				cRed:    {face: rgb(0xd23a2c), side: rgb(0x8e2119), rim: rgb(0x3d0d09), mark: rgb(0xffe27a)},
				cBlue:   {face: rgb(0x2f6fd6), side: rgb(0x1c4790), rim: rgb(0x0c1f40), mark: rgb(0xffffff)},
				cGreen:  {face: rgb(0x2e9e4e), side: rgb(0x1c6432), rim: rgb(0x0b2a14), mark: rgb(0xffffff)},
				cYellow: {face: rgb(0xf2c230), side: rgb(0xae8510), rim: rgb(0x4a3805), mark: rgb(0x3a2a00)},
			},
		}
	case Dark:
		t = theme{
			margin: rgb(0x1d1f24), label: rgb(0xb9bec8),
			light: rgb(0x8d96a3), dark: rgb(0x4c5666),
			from: rgb(0x8a8450), to: rgb(0xb0a232),
			dot: rgb(0xf0e060), cross: rgb(0xff5a52), frame: rgb(0x40d8f0),
			numLight: rgb(0xd4d9e0), numDrk: rgb(0x1d1f24),
			campTint: 0.35,
			seats: [nColors]pieceColors{
				cWhite:  {face: rgb(0xf2f2ee), side: rgb(0xb8b8b0), rim: rgb(0x25252a), mark: rgb(0xa87408)},
				cBlack:  {face: rgb(0x181a1e), side: rgb(0x08090a), rim: rgb(0xa6adb8), mark: rgb(0xf0c040)},
				cRed:    {face: rgb(0xe0483a), side: rgb(0x9a2a20), rim: rgb(0x2a0806), mark: rgb(0xffe27a)},
				cBlue:   {face: rgb(0x4a86ea), side: rgb(0x2656a6), rim: rgb(0x0a1a38), mark: rgb(0xffffff)},
				cGreen:  {face: rgb(0x3cb862), side: rgb(0x23763c), rim: rgb(0x0a2812), mark: rgb(0xffffff)},
				cYellow: {face: rgb(0xf4cc40), side: rgb(0xb08a18), rim: rgb(0x3a2c04), mark: rgb(0x3a2a00)},
			},
		}
	default:
		return nil, false
	}
	t.name = name
	t.palette = t.buildPalette()
	return &t, true
}

// fills returns every color a square can be filled with.
func (t *theme) fills() []color.RGBA {
	f := []color.RGBA{t.light, t.dark, t.from, t.to}
	for c := cRed; c <= cYellow; c++ {
		f = append(f, t.campFill(t.light, c), t.campFill(t.dark, c))
	}
	return f
}

func (t *theme) campFill(base color.RGBA, c int) color.RGBA {
	return blend(base, t.seats[c].face, t.campTint)
}

// buildPalette returns the theme's fixed palette: every color the theme
// draws with, then the half-way blends of the color pairs whose edges are
// antialiased, then quarter blends of the most common pairs while there is
// room. Index 255 is transparent.
func (t *theme) buildPalette() color.Palette {
	const room = 255
	var pal color.Palette
	seen := map[color.RGBA]bool{}
	add := func(c color.RGBA) {
		if len(pal) < room && !seen[c] {
			seen[c] = true
			pal = append(pal, c)
		}
	}
	fills := t.fills()
	add(t.margin)
	add(t.label)
	for _, c := range fills {
		add(c)
	}
	for _, s := range t.seats {
		add(s.face)
		add(s.side)
		add(s.rim)
		add(s.mark)
	}
	for _, c := range []color.RGBA{t.dot, t.cross, t.frame, t.numLight, t.numDrk} {
		add(c)
	}
	type pair struct{ a, b color.RGBA }
	var pairs []pair
	pairs = append(pairs, pair{t.label, t.margin})
	for _, s := range t.seats { // the most common edges first
		pairs = append(pairs, pair{s.rim, t.light}, pair{s.rim, t.dark}, pair{s.rim, s.face}, pair{s.rim, s.side}, pair{s.mark, s.face})
	}
	for _, s := range t.seats {
		for _, f := range fills[2:] {
			pairs = append(pairs, pair{s.rim, f})
		}
	}
	for _, f := range fills {
		pairs = append(pairs, pair{t.numLight, f}, pair{t.numDrk, f}, pair{t.cross, f}, pair{t.frame, f}, pair{t.dot, f})
	}
	for c := cRed; c <= cYellow; c++ {
		for _, f := range fills {
			pairs = append(pairs, pair{t.seats[c].face, f})
		}
	}
	for _, p := range pairs {
		add(blend(p.a, p.b, 0.5))
	}
	for _, p := range pairs {
		add(blend(p.a, p.b, 0.25))
		add(blend(p.a, p.b, 0.75))
	}
	for len(pal) < room { // unused entries: repeat the margin color
		pal = append(pal, t.margin)
	}
	return append(pal, color.RGBA{})
}

// transparent is the palette index of the transparent color.
const transparent = 255

// nearest returns the index of the opaque palette color closest to c.
func (t *theme) nearest(c color.RGBA) uint8 {
	best, bestD := 0, int(^uint(0)>>1)
	for i, pc := range t.palette[:transparent] {
		p := pc.(color.RGBA)
		dr, dg, db := int(p.R)-int(c.R), int(p.G)-int(c.G), int(p.B)-int(c.B)
		d := 3*dr*dr + 4*dg*dg + 2*db*db
		if d < bestD {
			best, bestD = i, d
		}
	}
	return uint8(best)
}
