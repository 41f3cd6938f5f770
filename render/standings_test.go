package render

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/png"
	"testing"
)

// standingsOf returns a table of n players, the last one withdrawn.
func standingsOf(n int, name string) StandingsTable {
	t := StandingsTable{Title: "Tournament #3, after round 2 of 3",
		Headings: [6]string{"#", "Player", "Pts", "Bh", "SB", "Wins"}}
	for i := range n {
		t.Rows = append(t.Rows, StandingsRow{Place: i + 1, Name: fmt.Sprintf("%s%d", name, i+1),
			Points: float64(n-i) / 2, Buchholz: float64(n) / 2, SonnebornBerger: float64(n-i) / 4, Wins: (n - i) / 2,
			Withdrawn: i == n-1})
	}
	return t
}

func decodeStandings(t *testing.T, r *Renderer, st StandingsTable, o Options) image.Image {
	t.Helper()
	data, err := r.Standings(st, o)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// darkest returns the lowest luminance (0..255) of the pixels in the band
// of rows [y0, y1) of img, and how many pixels are darker than limit.
func darkest(img image.Image, y0, y1 int, limit float64) (float64, int) {
	low, n := 255.0, 0
	b := img.Bounds()
	for y := y0; y < y1; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			l := (0.299*float64(r>>8) + 0.587*float64(g>>8) + 0.114*float64(bl>>8))
			low = min(low, l)
			if l < limit {
				n++
			}
		}
	}
	return low, n
}

// TestStandingsPicture: the picture is as tall as its rows (one row each
// more per player), as wide as its longest name, and every row has
// writing on it; the withdrawn player's row is written lighter.
func TestStandingsPicture(t *testing.T) {
	r := New()
	six := decodeStandings(t, r, standingsOf(6, "player"), Options{})
	twelve := decodeStandings(t, r, standingsOf(12, "player"), Options{})
	if d := twelve.Bounds().Dy() - six.Bounds().Dy(); d != 6*tableRow {
		t.Errorf("12 rows are %d px taller than 6, want %d", d, 6*tableRow)
	}
	if six.Bounds().Dx() < 200 || six.Bounds().Dy() != 2*tableMargin+tableRow+tableMargin/2+7*tableRow {
		t.Errorf("6 rows: %v", six.Bounds())
	}
	long := decodeStandings(t, r, standingsOf(6, "a_player_with_a_long_name_"), Options{})
	if long.Bounds().Dx() <= six.Bounds().Dx() {
		t.Errorf("longer names: width %d, not more than %d", long.Bounds().Dx(), six.Bounds().Dx())
	}
	// Each player's row (after the title and the headings) has dark
	// writing, the last (withdrawn) one lighter writing.
	top := tableMargin + tableRow + tableMargin/2 + tableRow
	var normal float64
	for i := range 6 {
		y := top + i*tableRow
		low, n := darkest(six, y, y+tableRow, 128)
		if i < 5 {
			if n < 20 {
				t.Errorf("row %d: %d dark pixels, want writing", i+1, n)
			}
			normal = max(normal, low)
			continue
		}
		if low <= normal+20 {
			t.Errorf("withdrawn row: darkest %.0f, others %.0f: not greyed", low, normal)
		}
		if _, n := darkest(six, y, y+tableRow, 200); n < 20 {
			t.Errorf("withdrawn row: nothing written")
		}
	}
	// An empty table still draws its headings.
	empty := decodeStandings(t, r, StandingsTable{Headings: [6]string{"#", "Player", "Pts", "Bh", "SB", "Wins"}}, Options{Theme: Dark})
	if empty.Bounds().Dy() != 2*tableMargin+tableRow {
		t.Errorf("no rows, no title: %v", empty.Bounds())
	}
}

func TestStandingsRefused(t *testing.T) {
	r := New()
	if _, err := r.Standings(standingsOf(MaxStandingsRows+1, "p"), Options{}); !errors.Is(err, ErrBadView) {
		t.Errorf("%d rows: %v, want ErrBadView", MaxStandingsRows+1, err)
	}
	if _, err := r.Standings(standingsOf(3, "p"), Options{Theme: "sepia"}); !errors.Is(err, ErrBadOptions) {
		t.Errorf("theme sepia: %v, want ErrBadOptions", err)
	}
}

func TestPoints(t *testing.T) {
	for x, want := range map[float64]string{0: "0", -1: "0", 0.5: "½", 1: "1", 2.5: "2½", 3.25: "3¼", 3.75: "3¾", 0.25: "¼", 11: "11"} {
		if got := Points(x); got != want {
			t.Errorf("Points(%v) = %q, want %q", x, got, want)
		}
	}
}

// BenchmarkStandings draws the standings of a 6-player and of a
// 200-player Swiss.
func BenchmarkStandings(b *testing.B) {
	for _, n := range []int{6, 200} {
		b.Run(fmt.Sprintf("players=%d", n), func(b *testing.B) {
			r := New()
			st := standingsOf(n, "player")
			var data []byte
			b.ReportAllocs()
			for b.Loop() {
				var err error
				if data, err = r.Standings(st, Options{}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(data)), "PNG-bytes")
		})
	}
}
