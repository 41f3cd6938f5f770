package render

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"math"
	"strconv"

	"github.com/boardgamebot/bot/rules"
)

// ReviewGraph is the evaluation graph of a game's review (/review): the
// winning chances after every ply on a scale of 0 to 1, the marked moves
// on the curve in their player's colour, and the result at the end. The
// words are the chat's, in the reader's language.
type ReviewGraph struct {
	Title string
	// Scale labels the vertical scale ("alice's winning chances").
	Scale string
	// Plies labels the horizontal axis ("moves").
	Plies string
	// Result is the game's result, written at the end of the curve.
	Result string
	// View is the game's last position: the seats' colours are those of
	// its pieces in the board pictures.
	View rules.View
	// Lines are the curves: one for a two-player game (the first seat's
	// chances), one per seat with more (MaxReviewLines).
	Lines []ReviewLine
	// Marks are the marked moves.
	Marks []ReviewMark
}

// ReviewLine is one seat's winning chances: Points[0] before the first
// ply, Points[i] after ply i-1, each from 0 to 1.
type ReviewLine struct {
	Seat   int
	Points []float64
}

// ReviewMark is a marked move: ply Ply (drawn on Lines[Line] at
// Points[Ply+1]) of seat Seat, with its mark (1 inaccuracy ?!, 2 mistake
// ?, 3 blunder ??).
type ReviewMark struct {
	Ply, Seat, Line int
	Mark            int
}

// The review graph's limits and geometry, in pixels.
const (
	// MaxReviewLines is the most lines a review graph draws.
	MaxReviewLines = 4
	// MaxReviewPlies is the most plies a line may have.
	MaxReviewPlies = 10000
	ReviewWidth    = 720
	ReviewHeight   = 360
	reviewLeft     = 44 // room for the scale's numbers
	reviewRight    = 16
	reviewBottom   = 40 // room for the ply numbers and the axis' label
)

var reviewSigns = [...]string{1: "?!", 2: "?", 3: "??"}

// ReviewChart draws g as a PNG picture of ReviewWidth x ReviewHeight
// pixels in o's theme (o.Size and o.Numbers are ignored).
func (r *Renderer) ReviewChart(g ReviewGraph, o Options) ([]byte, error) {
	if r.fontErr != nil {
		return nil, fmt.Errorf("render: font: %v", r.fontErr)
	}
	if len(g.Lines) == 0 || len(g.Lines) > MaxReviewLines {
		return nil, fmt.Errorf("%w: %d lines in a review graph (1 to %d)", ErrBadView, len(g.Lines), MaxReviewLines)
	}
	plies := 0
	for _, l := range g.Lines {
		if len(l.Points) > MaxReviewPlies+1 {
			return nil, fmt.Errorf("%w: %d points in a review graph's line (at most %d)", ErrBadView, len(l.Points), MaxReviewPlies+1)
		}
		plies = max(plies, len(l.Points)-1)
	}
	th, err := r.theme(o.Theme)
	if err != nil {
		return nil, err
	}
	p, err := r.story(o.Theme)
	if err != nil {
		return nil, err
	}
	seats := seatColors(g.View)
	seat := func(i int) pieceColors {
		if i < 0 || i >= len(seats) {
			return th.seats[cBlue]
		}
		return th.seats[seats[i]]
	}
	dc := r.canvas(ReviewWidth, ReviewHeight, p.c.bg)
	defer r.done(dc)

	y := float64(chartMargin)
	dc.font(20)
	dc.color(p.c.ink)
	dc.text(clipRunes(g.Title, 56), chartMargin, y+10, 0, 0.35)
	dc.font(14)
	dc.text(clipRunes(g.Result, 40), ReviewWidth-reviewRight, y+10, 1, 0.35)
	y += 28
	dc.text(clipRunes(g.Scale, 80), chartMargin, y+8, 0, 0.35)
	y += 22
	plot := rect{x0: reviewLeft, y0: y, x1: ReviewWidth - reviewRight, y1: ReviewHeight - reviewBottom}
	px := func(i int) float64 { return plot.x0 + (plot.x1-plot.x0)*float64(i)/float64(max(plies, 1)) }
	py := func(v float64) float64 { return plot.y1 - (plot.y1-plot.y0)*math.Min(1, math.Max(0, v)) }

	// Two players: the first seat's side of the curve in its colour, the
	// second's above it, as a board's two sides.
	if len(g.Lines) == 1 && len(seats) == 2 && len(g.Lines[0].Points) > 0 {
		pts := g.Lines[0].Points
		dc.color(blend(p.c.bg, seat(1).face, 0.35))
		dc.DrawRectangle(plot.x0, plot.y0, plot.x1-plot.x0, plot.y1-plot.y0)
		dc.Fill()
		dc.color(blend(p.c.bg, seat(0).face, 0.6))
		dc.MoveTo(px(0), plot.y1)
		for i, v := range pts {
			dc.LineTo(px(i), py(v))
		}
		dc.LineTo(px(len(pts)-1), plot.y1)
		dc.ClosePath()
		dc.Fill()
	}
	// The scale: 0, 0.25, 0.5, 0.75, 1; the middle stronger.
	dc.font(12)
	dc.SetLineWidth(1)
	for k := 0; k <= 4; k++ {
		v := float64(k) / 4
		yy := math.Round(py(v)) + 0.5
		dc.color(p.c.grid)
		if k == 2 {
			dc.color(blend(p.c.bg, p.c.ink, 0.45))
		}
		dc.DrawLine(plot.x0, yy, plot.x1, yy)
		dc.Stroke()
		dc.color(p.c.ink)
		dc.text(strconv.FormatFloat(v, 'f', -1, 64), plot.x0-6, yy, 1, 0.35)
	}
	// The plies: a number every round step.
	step := plyStep(plies)
	for i := 0; i <= plies; i += step {
		xx := math.Round(px(i)) + 0.5
		dc.color(p.c.grid)
		dc.DrawLine(xx, plot.y1, xx, plot.y1+4)
		dc.Stroke()
		dc.color(p.c.ink)
		dc.text(strconv.Itoa(i), xx, plot.y1+13, 0.5, 0.35)
	}
	dc.text(clipRunes(g.Plies, 40), (plot.x0+plot.x1)/2, plot.y1+29, 0.5, 0.35)

	dc.SetLineCapRound()
	dc.SetLineJoinRound()
	for _, l := range g.Lines {
		ink := p.c.ink
		if len(g.Lines) > 1 {
			ink = seat(l.Seat).face
		}
		dc.color(ink)
		dc.SetLineWidth(2.5)
		for i, v := range l.Points {
			if i == 0 {
				dc.MoveTo(px(i), py(v))
			} else {
				dc.LineTo(px(i), py(v))
			}
		}
		dc.Stroke()
	}
	dc.font(12)
	for _, m := range g.Marks {
		if m.Line < 0 || m.Line >= len(g.Lines) || m.Mark < 1 || m.Mark > 3 {
			continue
		}
		pts := g.Lines[m.Line].Points
		if m.Ply+1 < 0 || m.Ply+1 >= len(pts) {
			continue
		}
		x, yy := px(m.Ply+1), py(pts[m.Ply+1])
		c := seat(m.Seat)
		rad := 3.5 + 1.5*float64(m.Mark)
		dc.color(c.face)
		dc.DrawCircle(x, yy, rad)
		dc.Fill()
		dc.color(c.rim)
		dc.SetLineWidth(1.5)
		dc.DrawCircle(x, yy, rad)
		dc.Stroke()
		dc.color(p.c.ink)
		ty := yy - rad - 8
		if ty < plot.y0+6 {
			ty = yy + rad + 8
		}
		dc.text(reviewSigns[m.Mark], x, ty, 0.5, 0.35)
	}
	return r.encodeReview(p, th, seats, dc)
}

// plyStep is the spacing of the ply numbers: a round number giving at
// most about 12 of them.
func plyStep(plies int) int {
	for _, s := range []int{1, 2, 5, 10, 20, 50, 100, 200, 500, 1000} {
		if plies/s <= 12 {
			return s
		}
	}
	return 1000 * (plies/12000 + 1)
}

// encodeReview turns what c drew into a paletted PNG: the story palette
// with the seats' colours and their blends with the background and ink.
func (r *Renderer) encodeReview(p *storyPalette, th *theme, seats []uint8, c *canvas) ([]byte, error) {
	rgba := append([]color.RGBA(nil), p.rgba...)
	seen := map[color.RGBA]bool{}
	for _, x := range rgba {
		seen[x] = true
	}
	add := func(x color.RGBA) {
		if !seen[x] && len(rgba) < 256 {
			seen[x] = true
			rgba = append(rgba, x)
		}
	}
	var faces []color.RGBA
	for _, s := range seats {
		faces = append(faces, th.seats[s].face, th.seats[s].rim)
	}
	for _, x := range faces {
		add(x)
	}
	for _, x := range faces {
		for _, g := range []color.RGBA{p.c.bg, p.c.ink, p.c.grid} {
			for _, t := range []float64{0.35, 0.6, 0.5, 0.25, 0.75} {
				add(blend(g, x, t))
			}
		}
	}
	nearest := func(x color.RGBA) uint8 {
		best, bestD := 0, int(^uint(0)>>1)
		for i, q := range rgba {
			dr, dg, db := int(q.R)-int(x.R), int(q.G)-int(x.G), int(q.B)-int(x.B)
			if d := 3*dr*dr + 4*dg*dg + 2*db*db; d < bestD {
				best, bestD = i, d
			}
		}
		return uint8(best)
	}
	pal := make(color.Palette, len(rgba))
	for i, x := range rgba {
		pal[i] = x
	}
	img := image.NewPaletted(c.img.Rect, pal)
	quantiseTo(nearest, c.img, img.Pix)
	var buf bytes.Buffer
	if err := r.enc.encode(&buf, img); err != nil {
		return nil, fmt.Errorf("render: encoding PNG: %v", err)
	}
	return buf.Bytes(), nil
}
