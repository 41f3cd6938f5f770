package web

import (
	"bytes"
	"encoding/json"
	"html"
	"html/template"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/boardgamebot/bot/render"
	"github.com/boardgamebot/bot/rules"
	"github.com/boardgamebot/bot/sessions"
)

// The first board of a page is drawn here, on the server, into the
// page's HTML: the board shows in the first paint, with no script and no
// second request. drawBoard mirrors static/draw.js's drawBoard element
// for element (the same structure, classes, labels and coordinates), so
// that the script takes over the server's squares rather than replacing
// them (TestFirstPaint holds the two to the same board).

// boardView is what the board draws: draw.js's View.
type boardView struct {
	Rows     [][]string
	Numbers  map[string]int
	Playable []string
	Camps    [][]string
	Pieces   []Piece
	Colours  []string
	Last     *Move
	Movable  []string
	Focus    string
	// Label is a square's label for screen readers (its number aside).
	Label func(sq string, p *Piece) string
}

// num writes a number as JavaScript's String(n) does (the shortest that
// reads back the same).
func num(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// numberSize is draw.js's numberSize: the squares' numbers' font size
// on a board of n lines, 11 CSS px where the board is 320 px wide.
func numberSize(n int) float64 {
	return math.Round(11*float64(n+1)/320*100) / 100
}

// firstSquare is draw.js's firstSquare: the first playable square of
// the bottom row, where the keyboard's focus starts.
func firstSquare(rows [][]string, playable []string) string {
	for r := len(rows) - 1; r >= 0; r-- {
		for _, sq := range rows[r] {
			if playable == nil || slices.Contains(playable, sq) {
				return sq
			}
		}
	}
	return ""
}

// svgWriter writes SVG elements into a page.
type svgWriter struct{ b *bytes.Buffer }

// open writes an element's start tag; attrs are name, value pairs.
func (w svgWriter) open(name string, attrs ...string) {
	w.b.WriteByte('<')
	w.b.WriteString(name)
	for i := 0; i+1 < len(attrs); i += 2 {
		w.b.WriteByte(' ')
		w.b.WriteString(attrs[i])
		w.b.WriteString(`="`)
		w.b.WriteString(html.EscapeString(attrs[i+1]))
		w.b.WriteByte('"')
	}
	w.b.WriteByte('>')
}

func (w svgWriter) close(name string) { w.b.WriteString("</" + name + ">") }

// leaf writes an element with no children.
func (w svgWriter) leaf(name string, attrs ...string) {
	w.open(name, attrs...)
	w.close(name)
}

// text writes an element holding text.
func (w svgWriter) text(name, text string, attrs ...string) {
	w.open(name, attrs...)
	w.b.WriteString(html.EscapeString(text))
	w.close(name)
}

// drawBoard writes the squares, the coordinates and the marks of v: the
// children of the page's <svg id="board">, which has viewBox and
// data-layout of boardBox.
func drawBoard(b *bytes.Buffer, v boardView) {
	w := svgWriter{b}
	n := len(v.Rows)
	var playable map[string]bool
	if v.Playable != nil {
		playable = map[string]bool{}
		for _, sq := range v.Playable {
			playable[sq] = true
		}
	}
	isPlayable := func(sq string) bool { return playable == nil || playable[sq] }
	drawCoords(w, v.Rows)
	pos := map[string][2]int{}
	for r, row := range v.Rows {
		for c, sq := range row {
			pos[sq] = [2]int{c, r}
		}
	}
	campOf := map[string]int{}
	for seat, camp := range v.Camps {
		for _, sq := range camp {
			campOf[sq] = seat
		}
	}
	pieceAt := map[string]*Piece{}
	for i := range v.Pieces {
		pieceAt[v.Pieces[i].Square] = &v.Pieces[i]
	}
	lastSq := map[string]bool{}
	if v.Last != nil {
		sqs := v.Last.Path
		if len(sqs) == 0 {
			sqs = []string{v.Last.From, v.Last.To}
		}
		for _, sq := range sqs {
			lastSq[sq] = true
		}
	}
	fs := numberSize(n)
	for r, row := range v.Rows {
		for c, sq := range row {
			dark := (int(sq[0])-97+atoi(sq[1:])-1)%2 == 0
			cls := []string{"sq", "light"}
			if dark {
				cls[1] = "dark"
			}
			if seat, ok := campOf[sq]; ok {
				colour := strconv.Itoa(seat)
				if seat < len(v.Colours) && v.Colours[seat] != "" {
					colour = v.Colours[seat]
				}
				cls = append(cls, "camp", "camp-"+colour)
			}
			if lastSq[sq] {
				cls = append(cls, "last")
			}
			if slices.Contains(v.Movable, sq) {
				cls = append(cls, "movable")
			}
			role := "presentation"
			if isPlayable(sq) {
				role = "button"
			}
			attrs := []string{"data-square", sq, "role", role, "data-c", strconv.Itoa(c), "data-r", strconv.Itoa(r), "class", strings.Join(cls, " ")}
			number := v.Numbers[sq]
			p := pieceAt[sq]
			if isPlayable(sq) {
				tab := "-1"
				if v.Focus == sq {
					tab = "0"
				}
				label := v.Label(sq, p)
				if number != 0 {
					label = strconv.Itoa(number) + ", " + label
				}
				attrs = append(attrs, "tabindex", tab, "aria-label", label)
			}
			if number != 0 {
				attrs = append(attrs, "data-number", strconv.Itoa(number))
			}
			if p != nil {
				attrs = append(attrs, "data-piece", strconv.Itoa(p.Seat)+":"+strconv.Itoa(p.Level))
			}
			w.open("g", attrs...)
			w.leaf("rect", "x", strconv.Itoa(c), "y", strconv.Itoa(r), "width", "1", "height", "1", "class", "cell")
			if p != nil {
				drawPiece(w, float64(c)+0.5, float64(r)+0.5, *p, v.Colours)
			}
			if number != 0 {
				w.text("text", strconv.Itoa(number), "x", num(float64(c)+0.04), "y", num(float64(r)+0.04+math.Round(fs*74)/100),
					"font-size", num(fs), "class", "num")
			}
			w.close("g")
		}
	}
	w.open("g", "class", "marks", "aria-hidden", "true")
	if v.Last != nil {
		centre := func(sq string) (float64, float64, bool) {
			p, ok := pos[sq]
			return float64(p[0]) + 0.5, float64(p[1]) + 0.5, ok
		}
		if len(v.Last.Path) > 2 {
			for _, sq := range v.Last.Path[1 : len(v.Last.Path)-1] {
				if x, y, ok := centre(sq); ok {
					w.leaf("circle", "cx", num(x), "cy", num(y), "r", "0.09", "class", "via")
				}
			}
		}
		for _, sq := range v.Last.Captured {
			if x, y, ok := centre(sq); ok {
				w.leaf("path", "d", "M"+num(x-0.2)+" "+num(y-0.2)+"L"+num(x+0.2)+" "+num(y+0.2)+"M"+num(x+0.2)+" "+num(y-0.2)+"L"+num(x-0.2)+" "+num(y+0.2), "class", "cross")
			}
		}
	}
	w.close("g")
}

// atoi is the number s starts with (0 for none).
func atoi(s string) int {
	n := 0
	for _, c := range s {
		if c < '0' || c > '9' {
			break
		}
		n = n*10 + int(c-'0')
	}
	return n
}

// drawCoords is draw.js's drawCoords: the coordinates below the board
// and on its left.
func drawCoords(w svgWriter, rows [][]string) {
	n := len(rows)
	w.open("g", "class", "coords", "aria-hidden", "true")
	lineName := func(a, b string) string {
		if a[0] == b[0] {
			return a[:1]
		}
		return a[1:]
	}
	for c := range n {
		t := lineName(rows[0][c], rows[n-1][c])
		w.text("text", t, "x", num(float64(c)+0.5), "y", num(float64(n)+0.35))
	}
	for r := range n {
		t := lineName(rows[r][0], rows[r][n-1])
		w.text("text", t, "x", "-0.25", "y", num(float64(r)+0.6))
	}
	w.close("g")
}

// drawPiece is draw.js's drawPiece.
func drawPiece(w svgWriter, x, y float64, p Piece, colours []string) {
	colour := "p-seat" + strconv.Itoa(p.Seat)
	if p.Seat < len(colours) && colours[p.Seat] != "" {
		colour = "p-" + colours[p.Seat]
	}
	w.open("g", "class", "piece "+colour)
	if p.Level >= 2 {
		w.leaf("circle", "cx", num(x), "cy", num(y+0.05), "r", "0.37", "class", "disc under")
	}
	cy := y
	if p.Level >= 2 {
		cy = y - 0.03
	}
	w.leaf("circle", "cx", num(x), "cy", num(cy), "r", "0.37", "class", "disc")
	switch {
	case p.Level == 2:
		pts := [][2]float64{{x - 0.17, y + 0.07}, {x - 0.2, y - 0.14}, {x - 0.08, y - 0.04}, {x, y - 0.18}, {x + 0.08, y - 0.04}, {x + 0.2, y - 0.14}, {x + 0.17, y + 0.07}}
		var d strings.Builder
		for i, q := range pts {
			if i == 0 {
				d.WriteString("M")
			} else {
				d.WriteString("L")
			}
			d.WriteString(num(q[0]) + " " + num(q[1]))
		}
		d.WriteString("Z")
		w.leaf("path", "d", d.String(), "class", "crown")
	case p.Level >= 3:
		w.text("text", strconv.Itoa(p.Level), "x", num(x), "y", num(y+0.1), "class", "level")
	}
	if p.Carries != 0 {
		w.leaf("circle", "cx", num(x+0.27), "cy", num(y-0.27), "r", "0.13", "class", "disc carried")
		w.text("text", strconv.Itoa(p.Carries), "x", num(x+0.27), "y", num(y-0.22), "class", "level small")
	}
	w.close("g")
}

// wordVar is a variable in a page's words: {{.Name}}.
var wordVar = regexp.MustCompile(`\{\{\.(\w+)\}\}`)

// sayWords is board.js's say: the page's words' id with vars.
func sayWords(words map[string]string, id string, vars map[string]string) string {
	t, ok := words[id]
	if !ok {
		t = id
	}
	return wordVar.ReplaceAllStringFunc(t, func(m string) string { return vars[m[3:len(m)-2]] })
}

// firstView is the view board.js draws first of st, for a page that
// plays (mode play) or watches: draw.js's View of board.js's view().
func firstView(st State, words map[string]string) boardView {
	v := boardView{Rows: st.Rows, Numbers: st.Numbers, Playable: st.Playable, Camps: st.Camps, Pieces: st.Pieces, Last: st.Last, Movable: st.Movable}
	for _, s := range st.Seats {
		v.Colours = append(v.Colours, s.Colour)
	}
	if mine := st.Phase == "playing" && slices.Contains(st.You, st.Turn) && len(st.Moves) > 0; mine {
		v.Movable = nil
		for _, m := range st.Moves {
			if !m.Pass && !slices.Contains(v.Movable, m.From) {
				v.Movable = append(v.Movable, m.From)
			}
		}
	}
	v.Focus = firstSquare(st.Rows, st.Playable)
	v.Label = func(sq string, p *Piece) string {
		if p == nil {
			return sq + ", " + sayWords(words, "WebEmpty", nil)
		}
		seat := ""
		if p.Seat < len(st.Seats) {
			seat = st.Seats[p.Seat].Label
		}
		vars := map[string]string{"Seat": seat, "Level": strconv.Itoa(p.Level)}
		switch {
		case st.Game == "halma":
			return sq + ", " + sayWords(words, "WebPiece", vars)
		case p.Level == 1:
			return sq + ", " + sayWords(words, "WebPieceMan", vars)
		case p.Level == 2:
			return sq + ", " + sayWords(words, "WebPieceKing", vars)
		}
		return sq + ", " + sayWords(words, "WebPieceLevel", vars)
	}
	return v
}

// boardBox is the board's viewBox and data-layout for rows, as
// draw.js sets them.
func boardBox(rows [][]string) (viewBox, layout string) {
	n := len(rows)
	js, _ := json.Marshal(rows)
	return "-0.5 -0.5 " + strconv.Itoa(n+1) + " " + strconv.Itoa(n+1), string(js)
}

// miniBoard is a game's position as a small picture for the tournament
// page (SVG, hidden from screen readers: the link beside it names the
// game), in the board's colours; empty when there is no position.
func miniBoard(snap *sessions.Snapshot) template.HTML {
	if snap == nil || snap.State == nil {
		return ""
	}
	view := snap.State.View()
	rows, err := render.Layout(view, 0)
	if err != nil || len(rows) == 0 {
		return ""
	}
	var b bytes.Buffer
	w := svgWriter{&b}
	n := strconv.Itoa(len(rows))
	w.open("svg", "class", "mini", "viewBox", "0 0 "+n+" "+n, "aria-hidden", "true", "focusable", "false")
	pos := map[rules.Square][2]int{}
	for r, row := range rows {
		for c, sq := range row {
			pos[sq] = [2]int{c, r}
			name := sq.String()
			cls := "light"
			if (int(name[0])-97+atoi(name[1:])-1)%2 == 0 {
				cls = "dark"
			}
			w.leaf("rect", "x", strconv.Itoa(c), "y", strconv.Itoa(r), "width", "1", "height", "1", "class", cls)
		}
	}
	for _, p := range view.Pieces {
		q, ok := pos[p.Square]
		if !ok {
			continue
		}
		w.open("g", "class", "piece p-"+render.SeatColor(view, p.Seat))
		w.leaf("circle", "cx", num(float64(q[0])+0.5), "cy", num(float64(q[1])+0.5), "r", "0.37", "class", "disc")
		w.close("g")
	}
	w.close("svg")
	return template.HTML(b.String())
}
