package render

import (
	"bytes"
	"image/png"
	"math"
	"testing"

	"github.com/boardgamebot/bot/rules/games"
)

// chancesWalk is a game's winning chances after each of n plies: a
// seeded swing around the middle that ends at end.
func chancesWalk(n int, phase, end float64) []float64 {
	pts := []float64{0.5}
	for i := 1; i <= n; i++ {
		x := float64(i) / float64(n)
		v := 0.5 + 0.3*math.Sin(6*x+phase)*(1-x) + (end-0.5)*x*x
		pts = append(pts, math.Min(1, math.Max(0, v)))
	}
	return pts
}

// twoSeatGraph is the graph of a 60-ply Spanish game with three marks,
// in the words given.
func twoSeatGraph(t *testing.T, title, scale, plies, result string) ReviewGraph {
	g, err := games.New("spanish", nil)
	if err != nil {
		t.Fatal(err)
	}
	return ReviewGraph{Title: title, Scale: scale, Plies: plies, Result: result, View: g.Start(0).View(),
		Lines: []ReviewLine{{Seat: 0, Points: chancesWalk(60, 0, 1)}},
		Marks: []ReviewMark{{Ply: 9, Seat: 1, Mark: 1}, {Ply: 22, Seat: 0, Mark: 2}, {Ply: 41, Seat: 1, Mark: 3}}}
}

// fourSeatGraph is the graph of a four-player Halma game: a line and the
// marks per seat.
func fourSeatGraph(t *testing.T) ReviewGraph {
	g, err := games.New("halma", map[string]string{"size": "16", "players": "4"})
	if err != nil {
		t.Fatal(err)
	}
	gr := ReviewGraph{Title: "Game #77 · Halma (players=4)", Scale: "Each player's winning chances", Plies: "moves", Result: "carol won", View: g.Start(0).View()}
	for seat := range 4 {
		pts := []float64{0.25}
		for i := 1; i <= 80; i++ {
			x := float64(i) / 80
			v := 0.25 + 0.1*math.Sin(5*x+float64(seat))*(1-x)
			if seat == 2 {
				v += 0.6 * x * x
			} else {
				v -= 0.2 * x * x
			}
			pts = append(pts, math.Min(1, math.Max(0, v)))
		}
		gr.Lines = append(gr.Lines, ReviewLine{Seat: seat, Points: pts})
		gr.Marks = append(gr.Marks, ReviewMark{Ply: 10 + 17*seat, Seat: seat, Line: seat, Mark: 1 + seat%3})
	}
	return gr
}

// TestReviewGolden compares the review graphs with testdata/*.png by
// decoded pixels: English and Spanish, both themes, two and four seats.
func TestReviewGolden(t *testing.T) {
	r := New()
	for _, c := range []struct {
		name  string
		graph func() ReviewGraph
		theme Theme
	}{
		{"review-en-light", func() ReviewGraph {
			return twoSeatGraph(t, "Game #812 · Spanish draughts", "alice (White)'s winning chances", "moves", "bob won (resigned)")
		}, Light},
		{"review-es-dark", func() ReviewGraph {
			return twoSeatGraph(t, "Partida #812 · Damas españolas", "Probabilidad de ganar de alice (Blancas)", "jugadas", "ganó bob (abandono)")
		}, Dark},
		{"review-halma4-light", func() ReviewGraph { return fourSeatGraph(t) }, Light},
	} {
		t.Run(c.name, func(t *testing.T) {
			data, err := r.ReviewChart(c.graph(), Options{Theme: c.theme})
			if err != nil {
				t.Fatal(err)
			}
			golden(t, c.name, data)
		})
	}
}

// TestReviewChartPicture: the graph is ReviewWidth x ReviewHeight; a
// mark is drawn in its seat's colour where the curve is at its ply;
// bad graphs are refused.
func TestReviewChartPicture(t *testing.T) {
	r := New()
	g := twoSeatGraph(t, "t", "s", "p", "r")
	data, err := r.ReviewChart(g, Options{})
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil || img.Bounds().Dx() != ReviewWidth || img.Bounds().Dy() != ReviewHeight {
		t.Fatalf("%v, %v", img.Bounds(), err)
	}
	th, _ := newTheme(Light)
	// The blunder (ply 41, Black's): a black disc on the curve.
	plot := rect{x0: reviewLeft, y0: chartMargin + 28 + 22, x1: ReviewWidth - reviewRight, y1: ReviewHeight - reviewBottom}
	x := plot.x0 + (plot.x1-plot.x0)*42/60
	y := plot.y1 - (plot.y1-plot.y0)*g.Lines[0].Points[42]
	if c := img.At(int(x), int(y)); !same(c, th.seats[cBlack].face) {
		t.Errorf("the blunder's mark at (%.0f, %.0f) is %v, want Black's %v", x, y, c, th.seats[cBlack].face)
	}
	// The mistake (ply 22, White's): a white disc.
	x = plot.x0 + (plot.x1-plot.x0)*23/60
	y = plot.y1 - (plot.y1-plot.y0)*g.Lines[0].Points[23]
	if c := img.At(int(x), int(y)); !same(c, th.seats[cWhite].face) {
		t.Errorf("the mistake's mark at (%.0f, %.0f) is %v, want White's %v", x, y, c, th.seats[cWhite].face)
	}
	for _, bad := range []ReviewGraph{{}, {Lines: make([]ReviewLine, 5)}} {
		if _, err := r.ReviewChart(bad, Options{}); err == nil {
			t.Errorf("%d lines drawn", len(bad.Lines))
		}
	}
}
