package render

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"image"
	"image/color"
	"math"
	"strconv"
	"strings"

	"github.com/fogleman/gg"
	"github.com/golang/freetype/truetype"
	"golang.org/x/image/font"
)

// StandingsTable is a tournament's standings to draw: a title and the
// column headings (words of the chat's catalogue, in the reader's
// language), and one row per player, best first.
type StandingsTable struct {
	Title string
	// Headings name the columns: place, player, points, Buchholz,
	// Sonneborn-Berger, wins.
	Headings [6]string
	Rows     []StandingsRow
}

// StandingsRow is one player's line. Points and tie-breaks are in points
// (a draw is 0.5; Sonneborn-Berger may have quarters).
type StandingsRow struct {
	Place                             int
	Name                              string
	Points, Buchholz, SonnebornBerger float64
	Wins                              int
	// Withdrawn players are drawn greyed.
	Withdrawn bool
}

// MaxStandingsRows is the most rows a standings picture draws.
const MaxStandingsRows = 500

// The standings picture's geometry, in pixels.
const (
	tableMargin  = 16
	tableRow     = 30 // height of a row
	tablePad     = 12 // space on each side of a cell's text
	tableTextPx  = 17
	tableTitlePx = 21
	maxNameRunes = 32 // longer names are cut with "…"
)

// Standings draws t as a PNG picture in o's theme (o.Size and o.Numbers
// are ignored: the picture is as large as the table): the title, a bar
// with the headings, then the rows on alternate stripes, the numbers
// right-aligned. Points are written with fractions ("2½", "3¾").
func (r *Renderer) Standings(t StandingsTable, o Options) ([]byte, error) {
	if r.fontErr != nil {
		return nil, fmt.Errorf("render: font: %v", r.fontErr)
	}
	if len(t.Rows) > MaxStandingsRows {
		return nil, fmt.Errorf("%w: %d rows of standings (at most %d)", ErrBadView, len(t.Rows), MaxStandingsRows)
	}
	th, err := r.theme(o.Theme)
	if err != nil {
		return nil, err
	}
	face := truetype.NewFace(r.font, &truetype.Options{Size: tableTextPx, DPI: 72, Hinting: font.HintingNone})
	titleFace := truetype.NewFace(r.font, &truetype.Options{Size: tableTitlePx, DPI: 72, Hinting: font.HintingNone})
	defer face.Close()
	defer titleFace.Close()

	cells := make([][6]string, len(t.Rows))
	for i, row := range t.Rows {
		cells[i] = [6]string{strconv.Itoa(row.Place), clipRunes(row.Name, maxNameRunes), Points(row.Points),
			Points(row.Buchholz), Points(row.SonnebornBerger), strconv.Itoa(row.Wins)}
	}
	width := func(f font.Face, s string) int { return font.MeasureString(f, s).Ceil() }
	var cols [6]int
	for c := range cols {
		cols[c] = width(face, t.Headings[c])
		for _, row := range cells {
			cols[c] = max(cols[c], width(face, row[c]))
		}
		cols[c] += 2 * tablePad
	}
	w := 2 * tableMargin
	for _, c := range cols {
		w += c
	}
	title := clipRunes(t.Title, 80)
	w = max(w, 2*tableMargin+width(titleFace, title))
	titleH := 0
	if title != "" {
		titleH = tableRow + tableMargin/2
	}
	h := 2*tableMargin + titleH + tableRow*(1+len(t.Rows))

	dc := gg.NewContext(w, h)
	dc.SetColor(th.margin)
	dc.Clear()
	y := float64(tableMargin)
	if title != "" {
		dc.SetFontFace(titleFace)
		dc.SetColor(th.label)
		dc.DrawStringAnchored(title, tableMargin, y+tableRow/2, 0, 0.35)
		y += float64(titleH)
	}
	inner := float64(w - 2*tableMargin)
	dc.SetFontFace(face)
	drawRow := func(texts [6]string) {
		x := float64(tableMargin)
		for c, s := range texts {
			if c == 1 { // the player: left-aligned
				dc.DrawStringAnchored(s, x+tablePad, y+tableRow/2, 0, 0.35)
			} else {
				dc.DrawStringAnchored(s, x+float64(cols[c]-tablePad), y+tableRow/2, 1, 0.35)
			}
			x += float64(cols[c])
		}
	}
	dc.SetColor(th.dark)
	dc.DrawRectangle(tableMargin, y, inner, tableRow)
	dc.Fill()
	dc.SetColor(th.numLight)
	drawRow(t.Headings)
	y += tableRow
	grey := blend(th.label, th.margin, 0.5)
	for i, row := range t.Rows {
		if i%2 == 1 {
			dc.SetColor(th.light)
			dc.DrawRectangle(tableMargin, y, inner, tableRow)
			dc.Fill()
		}
		ink := th.label
		if row.Withdrawn {
			ink = grey
		}
		dc.SetColor(ink)
		drawRow(cells[i])
		y += tableRow
	}

	img := image.NewPaletted(image.Rect(0, 0, w, h), th.palette[:transparent])
	quantiseTo(th.nearest, dc.Image().(*image.RGBA), img.Pix)
	var buf bytes.Buffer
	if err := r.enc.encode(&buf, img); err != nil {
		return nil, fmt.Errorf("render: encoding PNG: %v", err)
	}
	return buf.Bytes(), nil
}

// theme returns the theme named name (Light when empty), built once.
func (r *Renderer) theme(name Theme) (*theme, error) {
	name = Theme(strings.ToLower(strings.TrimSpace(string(name))))
	if name == "" {
		name = Light
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	th, ok := r.themes[name]
	if !ok {
		if th, ok = newTheme(name); !ok {
			return nil, fmt.Errorf("%w: unknown theme %q (light or dark)", ErrBadOptions, string(name))
		}
		r.themes[name] = th
	}
	return th, nil
}

// quantiseTo converts an RGBA picture to palette indices (nearest gives
// the index of a color), remembering the colors seen.
func quantiseTo(nearest func(color.RGBA) uint8, src *image.RGBA, dst []uint8) {
	seen := map[uint32]uint8{}
	const opaque = 0xff << 24
	last, lastIdx := uint32(opaque), nearest(color.RGBA{A: 0xff})
	i := 0
	w := src.Rect.Dx()
	for y := 0; y < src.Rect.Dy(); y++ {
		row := src.Pix[y*src.Stride : y*src.Stride+4*w]
		for x := 0; x < 4*w; x += 4 {
			c := binary.LittleEndian.Uint32(row[x:]) | opaque
			if c != last { // most pixels repeat the one before
				idx, ok := seen[c]
				if !ok {
					idx = nearest(color.RGBA{uint8(c), uint8(c >> 8), uint8(c >> 16), 0xff})
					seen[c] = idx
				}
				last, lastIdx = c, idx
			}
			dst[i] = lastIdx
			i++
		}
	}
}

// Points writes points as a table of standings does: whole points with
// their fraction ("2½", "3¼", "½", "0"); negative values are written as 0.
func Points(x float64) string {
	if x <= 0 || math.IsNaN(x) {
		return "0"
	}
	q := int(math.Round(x * 4))
	whole, frac := q/4, ""
	switch q % 4 {
	case 1:
		frac = "¼"
	case 2:
		frac = "½"
	case 3:
		frac = "¾"
	}
	if whole == 0 && frac != "" {
		return frac
	}
	return strconv.Itoa(whole) + frac
}

// clipRunes cuts s to n characters, with "…" when it was longer.
func clipRunes(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
