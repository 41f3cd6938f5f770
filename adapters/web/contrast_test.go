package web_test

import (
	"math"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// palette is one theme's colours: board.css's custom properties.
type palette map[string]string

// palettes reads board.css's light theme (:root) and dark theme (:root
// under prefers-color-scheme: dark, over the light one).
func palettes(t *testing.T) (css string, light, dark palette) {
	t.Helper()
	b, err := os.ReadFile("static/board.css")
	if err != nil {
		t.Fatal(err)
	}
	css = string(b)
	decl := regexp.MustCompile(`(--[\w-]+)\s*:\s*([^;]+);`)
	read := func(block string, p palette) {
		for _, m := range decl.FindAllStringSubmatch(block, -1) {
			p[m[1]] = strings.TrimSpace(m[2])
		}
	}
	root := regexp.MustCompile(`(?s)^:root\s*\{(.*?)\n\}`).FindStringSubmatch(css)
	darkRoot := regexp.MustCompile(`(?s)@media \(prefers-color-scheme: dark\) \{\s*:root:not\(\[data-scheme="light"\]\) \{(.*?)\}`).FindStringSubmatch(css)
	telegramDark := regexp.MustCompile(`(?s)\n:root\[data-scheme="dark"\] \{(.*?)\}`).FindStringSubmatch(css)
	if root == nil || darkRoot == nil || telegramDark == nil {
		t.Fatal("board.css has no :root block, or none for the dark theme (the system's, Telegram's)")
	}
	if strings.Join(strings.Fields(darkRoot[1]), " ") != strings.Join(strings.Fields(telegramDark[1]), " ") {
		t.Errorf("the system's dark theme and Telegram's differ:\n%s\n%s", darkRoot[1], telegramDark[1])
	}
	light, dark = palette{}, palette{}
	read(root[1], light)
	read(root[1], dark)
	read(darkRoot[1], dark)
	return css, light, dark
}

// colour evaluates a CSS colour as board.css writes them: #rgb, #rrggbb,
// var(--x), color-mix(in srgb, A p%, B).
func (p palette) colour(t *testing.T, expr string) [3]float64 {
	t.Helper()
	expr = strings.TrimSpace(expr)
	switch {
	case strings.HasPrefix(expr, "var("):
		name := strings.TrimSuffix(strings.TrimPrefix(expr, "var("), ")")
		v, ok := p[name]
		if !ok {
			t.Fatalf("board.css has no %s", name)
		}
		return p.colour(t, v)
	case strings.HasPrefix(expr, "color-mix(in srgb,"):
		m := regexp.MustCompile(`^color-mix\(in srgb,\s*(.+?)\s+(\d+)%,\s*(.+)\)$`).FindStringSubmatch(expr)
		if m == nil {
			t.Fatalf("cannot read %q", expr)
		}
		a, b := p.colour(t, m[1]), p.colour(t, m[3])
		w, _ := strconv.ParseFloat(m[2], 64)
		w /= 100
		return [3]float64{a[0]*w + b[0]*(1-w), a[1]*w + b[1]*(1-w), a[2]*w + b[2]*(1-w)}
	case expr == "#fff":
		return [3]float64{255, 255, 255}
	case len(expr) == 7 && expr[0] == '#':
		var c [3]float64
		for i := range 3 {
			v, err := strconv.ParseUint(expr[1+2*i:3+2*i], 16, 8)
			if err != nil {
				t.Fatalf("cannot read %q", expr)
			}
			c[i] = float64(v)
		}
		return c
	}
	t.Fatalf("cannot read the colour %q (board.css's board colours are opaque)", expr)
	return [3]float64{}
}

// luminance is WCAG's relative luminance of an sRGB colour.
func luminance(c [3]float64) float64 {
	lin := func(v float64) float64 {
		v /= 255
		if v <= 0.04045 {
			return v / 12.92
		}
		return math.Pow((v+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(c[0]) + 0.7152*lin(c[1]) + 0.0722*lin(c[2])
}

// contrast is WCAG's contrast ratio of two colours.
func contrast(a, b [3]float64) float64 {
	la, lb := luminance(a), luminance(b)
	return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
}

// TestBoardContrast: in both themes, every piece stands out from every
// colour a square can take (light, dark, a camp's, the last move's, the
// selection's) by at least 3:1, by its colour or by its outline; the
// squares' numbers read at least 4.5:1 against their square (their halo
// is the square's colour), and the coordinates against the page.
func TestBoardContrast(t *testing.T) {
	css, light, dark := palettes(t)
	// The colours a square's cell takes: every ".x .cell { fill: ... }".
	cells := map[string]string{}
	for _, m := range regexp.MustCompile(`([^{}\n]*)\.cell\s*\{\s*fill:\s*([^;]+);`).FindAllStringSubmatch(css, -1) {
		cells[strings.TrimSpace(m[1])] = m[2]
	}
	// The camps' colours: .camp-x { --campc: var(--x); }.
	camps := regexp.MustCompile(`\.camp-(\w+)\s*\{\s*--campc:\s*([^;]+);`).FindAllStringSubmatch(css, -1)
	pieces := regexp.MustCompile(`\.p-(\w+) \.disc\s*\{\s*fill:\s*([^;]+);`).FindAllStringSubmatch(css, -1)
	edge := regexp.MustCompile(`\.piece \.disc\s*\{\s*stroke:\s*([^;]+);`).FindStringSubmatch(css)
	nums := regexp.MustCompile(`\.(\w+) \.num\s*\{\s*fill:\s*([^;]+);\s*stroke:\s*([^;]+);`).FindAllStringSubmatch(css, -1)
	coord := regexp.MustCompile(`\.coords text\s*\{[^}]*fill:\s*([^;]+);`).FindStringSubmatch(css)
	if len(cells) < 5 || len(camps) != 4 || len(pieces) != 6 || edge == nil || len(nums) != 4 || coord == nil {
		t.Fatalf("board.css: %d cell colours, %d camps, %d pieces, edge %v, %d number colours, coordinates %v", len(cells), len(camps), len(pieces), edge, len(nums), coord)
	}
	for name, p := range map[string]palette{"light": light, "dark": dark} {
		squares := map[string][3]float64{}
		for sel, fill := range cells {
			if !strings.Contains(sel, ".camp") {
				squares[sel] = p.colour(t, fill)
				continue
			}
			for _, c := range camps {
				q := palette{}
				for k, v := range p {
					q[k] = v
				}
				q["--campc"] = c[2]
				squares[sel+" "+c[1]] = q.colour(t, fill)
			}
		}
		e := p.colour(t, edge[1])
		for _, pc := range pieces {
			fill := p.colour(t, pc[2])
			for sq, bg := range squares {
				if c := max(contrast(fill, bg), contrast(e, bg)); c < 3 {
					t.Errorf("%s theme: a %s piece on %s: %.2f:1 (its colour %.2f, its outline %.2f), want 3:1", name, pc[1], sq, c, contrast(fill, bg), contrast(e, bg))
				}
			}
		}
		for _, n := range nums {
			if c := contrast(p.colour(t, n[2]), p.colour(t, n[3])); c < 4.5 {
				t.Errorf("%s theme: the numbers on %s squares: %.2f:1, want 4.5:1", name, n[1], c)
			}
		}
		if c := contrast(p.colour(t, coord[1]), p.colour(t, "var(--bg)")); c < 4.5 {
			t.Errorf("%s theme: the coordinates: %.2f:1, want 4.5:1", name, c)
		}
		t.Logf("%s theme: %d square colours, %d pieces checked", name, len(squares), len(pieces))
	}
}
