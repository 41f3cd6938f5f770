package render

import (
	"fmt"
	"strconv"
)

// Card is a player's card to draw (/profile): their name, a table of
// their ratings per game with their places, lines about them (totals,
// streak, best win, most played opponent) and their last results as
// colored marks. The words are the chat's, in the reader's language.
type Card struct {
	Name     string
	Subtitle string
	// Headings name the table's columns: the game, the rating, the place
	// in this community (none, and no column, when empty), the place on
	// the platform.
	Headings [4]string
	Rows     []CardRow
	Lines    []string
	// LastLabel introduces the marks of the last results, oldest first.
	LastLabel string
	Last      []Mark
}

// CardRow is one game of a card: its name, the rating, and the places
// written for people ("3 of 25", "-").
type CardRow struct {
	Game   string
	Rating int
	Here   string
	All    string
}

// Mark is one result of a card's last games: Score 1 (a win, green), 0.5
// (a draw, grey) or 0 (a loss, red), with its letter in the reader's
// language.
type Mark struct {
	Score  float64
	Letter string
}

// The card's limits and geometry, in pixels.
const (
	// MaxCardRows is the most games a card lists; MaxCardLines and
	// MaxCardMarks the most lines and marks.
	MaxCardRows  = 20
	MaxCardLines = 8
	MaxCardMarks = 10
	CardWidth    = 640
	cardRow      = 30
	cardLine     = 24
	cardMark     = 30
)

// ProfileCard draws c as a PNG picture CardWidth pixels wide, as tall as
// its rows and lines, in o's theme (o.Size and o.Numbers are ignored).
func (r *Renderer) ProfileCard(c Card, o Options) ([]byte, error) {
	if r.fontErr != nil {
		return nil, fmt.Errorf("render: font: %v", r.fontErr)
	}
	if len(c.Rows) > MaxCardRows || len(c.Lines) > MaxCardLines || len(c.Last) > MaxCardMarks {
		return nil, fmt.Errorf("%w: a card of %d games, %d lines and %d marks (at most %d, %d, %d)", ErrBadView,
			len(c.Rows), len(c.Lines), len(c.Last), MaxCardRows, MaxCardLines, MaxCardMarks)
	}
	p, err := r.story(o.Theme)
	if err != nil {
		return nil, err
	}
	const m = chartMargin
	h := m + 34 + 22 + 12 + cardRow*(1+len(c.Rows)) + 12 + cardLine*len(c.Lines) + m
	if len(c.Last) > 0 {
		h += cardMark + 12
	}
	dc := r.canvas(CardWidth, h, p.c.bg)
	defer r.done(dc)
	// A band of the first line's color down the left edge.
	dc.color(p.c.lines[0])
	dc.DrawRectangle(0, 0, 6, float64(h))
	dc.Fill()

	y := float64(m)
	dc.color(p.c.ink)
	dc.font(28)
	dc.text(clipRunes(c.Name, 32), m+6, y+16, 0, 0.35)
	y += 34
	dc.font(14)
	dc.color(p.c.draw)
	dc.text(clipRunes(c.Subtitle, 80), m+6, y+10, 0, 0.35)
	y += 22 + 12

	x0 := float64(m + 6)
	y = drawCardTable(dc, p, c, x0, y)
	y += 12
	dc.font(15)
	dc.color(p.c.ink)
	for _, l := range c.Lines {
		dc.text(clipRunes(l, 70), x0+tablePad, y+cardLine/2, 0, 0.35)
		y += cardLine
	}
	if len(c.Last) > 0 {
		drawCardMarks(dc, p, c, x0, y+12)
	}
	return r.encodeStory(p, dc)
}

// drawCardTable draws the table from y down, its left edge at x0: the
// game left, the numbers right-aligned in columns. It returns where the
// table ends.
func drawCardTable(dc *canvas, p *storyPalette, c Card, x0, y float64) float64 {
	dc.font(16)
	inner := float64(CardWidth - 2*chartMargin - 6)
	cols := [4]float64{0.46, 0.16, 0.19, 0.19}
	if c.Headings[2] == "" { // no community: no column of places in it
		cols = [4]float64{0.5, 0.2, 0, 0.3}
	}
	cell := func(texts [4]string) {
		x := x0
		for i, s := range texts {
			w := inner * cols[i]
			if i == 0 {
				dc.text(clipRunes(s, 30), x+tablePad, y+cardRow/2, 0, 0.35)
			} else {
				dc.text(clipRunes(s, 14), x+w-tablePad, y+cardRow/2, 1, 0.35)
			}
			x += w
		}
	}
	dc.color(p.c.head)
	dc.DrawRectangle(x0, y, inner, cardRow)
	dc.Fill()
	dc.color(p.c.headInk)
	cell(c.Headings)
	y += cardRow
	for i, row := range c.Rows {
		if i%2 == 1 {
			dc.color(p.c.strip)
			dc.DrawRectangle(x0, y, inner, cardRow)
			dc.Fill()
		}
		dc.color(p.c.ink)
		cell([4]string{row.Game, strconv.Itoa(row.Rating), row.Here, row.All})
		y += cardRow
	}
	return y
}

// drawCardMarks draws the last results from y down, their label at x0:
// a mark per game, colored by its score.
func drawCardMarks(dc *canvas, p *storyPalette, c Card, x0, y float64) {
	dc.font(15)
	dc.color(p.c.ink)
	label := clipRunes(c.LastLabel, 40)
	dc.text(label, x0+tablePad, y+cardMark/2, 0, 0.35)
	w := dc.measure(label)
	x := x0 + tablePad + w + 12
	dc.font(16)
	for _, mk := range c.Last {
		fill := p.c.draw
		switch mk.Score {
		case 1:
			fill = p.c.win
		case 0:
			fill = p.c.loss
		}
		dc.color(fill)
		dc.DrawRoundedRectangle(x, y, cardMark, cardMark, 6)
		dc.Fill()
		dc.color(p.c.headInk)
		dc.text(clipRunes(mk.Letter, 2), x+cardMark/2, y+cardMark/2, 0.5, 0.35)
		x += cardMark + 6
	}
}
