package render

import (
	"errors"
	"image/color"
	"math/rand/v2"
	"testing"
	"time"
)

// chartMonth is the month the charts of the tests are drawn in.
var chartMonth = time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)

// ratingWalk is a line of n games, one every 12 to 48 hours up to the
// middle of chartMonth, its rating a seeded random walk from 1000.
func ratingWalk(name string, n int, seed uint64) ChartLine {
	rng := rand.New(rand.NewPCG(seed, 3))
	l := ChartLine{Name: name, Start: 1000}
	at, rating := chartMonth.AddDate(0, 0, 14), 1000
	var pts []ChartPoint
	for range n {
		rating += rng.IntN(31) - 14
		pts = append(pts, ChartPoint{At: at, Rating: rating})
		at = at.Add(-time.Duration(12+rng.IntN(36)) * time.Hour)
	}
	for i := len(pts) - 1; i >= 0; i-- {
		l.Points = append(l.Points, pts[i])
	}
	return l
}

// oneChart is a player's chart of 40 games, as /rating draws it.
func oneChart() Chart {
	return Chart{Title: "alice · Spanish draughts", Stats: []string{"Now 1003 · peak 1124", "40 games: 22 won, 4 drawn, 14 lost"},
		Lines: []ChartLine{ratingWalk("alice", 40, 1)}, Month: chartMonth, MonthLabel: "this month", PeakLabel: "peak",
		Date: func(t time.Time, day bool) string {
			if day {
				return t.Format("Jan 2")
			}
			return t.Format("Jan 2006")
		}}
}

// twoCharts is a head-to-head chart of two players, as /vs draws it.
func twoCharts() Chart {
	return Chart{Title: "alice vs bob · Spanish draughts", Stats: []string{"alice 3 won, 1 drawn, 2 lost"},
		Lines: []ChartLine{ratingWalk("alice", 40, 1), ratingWalk("bob", 25, 2)}, Month: chartMonth, MonthLabel: "this month", PeakLabel: "peak"}
}

// aCard is a player's card with three games and their last five results.
func aCard() Card {
	return Card{Name: "alice", Subtitle: "Telegram · this group", Headings: [4]string{"Game", "Rating", "Here", "Telegram"},
		Rows:      []CardRow{{"Spanish draughts", 1043, "1 of 6", "12 of 340"}, {"Halma", 987, "3 of 4", "80 of 95"}, {"German Dame", 1000, "-", "40 of 77"}},
		Lines:     []string{"52 games: 27 won, 5 drawn, 20 lost", "Streak: 2 wins", "Best win: bob (1180), game #812", "Most played: bob (19 games)"},
		LastLabel: "Last games:", Last: []Mark{{1, "W"}, {0, "L"}, {0.5, "D"}, {1, "W"}, {1, "W"}}}
}

// TestStoryGolden compares the rating charts and the player card with
// testdata/*.png by decoded pixels, as TestGolden does the boards.
func TestStoryGolden(t *testing.T) {
	r := New()
	for _, c := range []struct {
		name string
		draw func() ([]byte, error)
	}{
		{"chart-light", func() ([]byte, error) { return r.RatingChart(oneChart(), Options{}) }},
		{"chart-vs-dark", func() ([]byte, error) { return r.RatingChart(twoCharts(), Options{Theme: Dark}) }},
		{"card-light", func() ([]byte, error) { return r.ProfileCard(aCard(), Options{}) }},
		{"card-dark", func() ([]byte, error) { return r.ProfileCard(aCard(), Options{Theme: Dark}) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			data, err := c.draw()
			if err != nil {
				t.Fatal(err)
			}
			golden(t, c.name, data)
		})
	}
}

// same reports whether a pixel has exactly the color c.
func same(a color.Color, c color.RGBA) bool {
	r1, g1, b1, _ := a.RGBA()
	return uint8(r1>>8) == c.R && uint8(g1>>8) == c.G && uint8(b1>>8) == c.B
}

// TestRatingChartPicture: a chart decodes to ChartWidth x ChartHeight,
// in under 40 KB even with a thousand games a line; a line's color is
// where its points are (its last point right of the shaded month, in the
// month's band), and the second line's color appears only when there is
// a second line.
func TestRatingChartPicture(t *testing.T) {
	r := New()
	th, _ := r.theme(Light)
	sp, _ := r.story(Light)
	count := func(c Chart, want color.RGBA) int {
		t.Helper()
		data, err := r.RatingChart(c, Options{})
		if err != nil {
			t.Fatal(err)
		}
		img := decodePNG(t, data)
		if b := img.Bounds(); b.Dx() != ChartWidth || b.Dy() != ChartHeight {
			t.Fatalf("%s: %v, want %dx%d", c.Title, b, ChartWidth, ChartHeight)
		}
		if len(data) >= 40<<10 {
			t.Fatalf("%s: %d bytes, want under 40 KB", c.Title, len(data))
		}
		n := 0
		b := img.Bounds()
		for y := 0; y < b.Dy(); y++ {
			for x := 0; x < b.Dx(); x++ {
				if same(img.At(x, y), want) {
					n++
				}
			}
		}
		return n
	}
	if n := count(oneChart(), sp.c.lines[0]); n < 500 {
		t.Errorf("one line: %d pixels of its color", n)
	}
	if n := count(oneChart(), sp.c.lines[1]); n != 0 {
		t.Errorf("one line: %d pixels of the second line's color", n)
	}
	if n := count(twoCharts(), sp.c.lines[1]); n < 300 {
		t.Errorf("two lines: %d pixels of the second's color", n)
	}
	if n := count(oneChart(), sp.c.band); n < 5000 {
		t.Errorf("this month's band: %d pixels", n)
	}
	noMonth := oneChart()
	noMonth.Month = time.Time{}
	if n := count(noMonth, sp.c.band); n != 0 {
		t.Errorf("no month marked: %d pixels of the band", n)
	}
	big := twoCharts()
	big.Lines = []ChartLine{ratingWalk("alice", 1000, 5), ratingWalk("bob", 1000, 6)}
	count(big, th.label)
	one := oneChart()
	one.Lines[0].Points = one.Lines[0].Points[:1]
	count(one, sp.c.lines[0])
	for _, bad := range []Chart{{Title: "none"}, {Lines: make([]ChartLine, 3)}, {Lines: []ChartLine{{}}, Stats: make([]string, 20)}} {
		if _, err := r.RatingChart(bad, Options{}); !errors.Is(err, ErrBadView) {
			t.Errorf("%d lines, %d stats: %v, want ErrBadView", len(bad.Lines), len(bad.Stats), err)
		}
	}
}

// TestProfileCardPicture: a card is CardWidth wide and one row taller per
// game; its marks are green, grey and red in the order of the results.
func TestProfileCardPicture(t *testing.T) {
	r := New()
	sp, _ := r.story(Light)
	c := aCard()
	data, err := r.ProfileCard(c, Options{})
	if err != nil {
		t.Fatal(err)
	}
	img := decodePNG(t, data)
	more := aCard()
	more.Rows = append(more.Rows, CardRow{"Ultradamas", 1010, "-", "3 of 9"})
	img2 := decodePNG(t, must(r.ProfileCard(more, Options{})))
	if img.Bounds().Dx() != CardWidth || img2.Bounds().Dy()-img.Bounds().Dy() != cardRow {
		t.Fatalf("cards of 3 and 4 games: %v, %v", img.Bounds(), img2.Bounds())
	}
	// The marks, left to right, along a row above their letters.
	y := img.Bounds().Dy() - chartMargin - cardMark + 4
	var got []color.Color
	inMark := false
	for x := 0; x < CardWidth; x++ {
		c := img.At(x, y)
		is := same(c, sp.c.win) || same(c, sp.c.loss) || same(c, sp.c.draw)
		if is && !inMark {
			got = append(got, c)
		}
		inMark = is
	}
	want := []color.RGBA{sp.c.win, sp.c.loss, sp.c.draw, sp.c.win, sp.c.win}
	if len(got) != len(want) {
		t.Fatalf("%d marks, want %d", len(got), len(want))
	}
	for i := range want {
		if !same(got[i], want[i]) {
			t.Errorf("mark %d: %v, want %v", i, got[i], want[i])
		}
	}
	if _, err := r.ProfileCard(Card{Rows: make([]CardRow, MaxCardRows+1)}, Options{}); !errors.Is(err, ErrBadView) {
		t.Errorf("too many rows: %v", err)
	}
}

func must(data []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return data
}

// BenchmarkRatingChart draws a player's chart of 40 games and a
// head-to-head of two players; "PNG-bytes" is the picture's size.
//
//	go test ./render -run '^$' -bench 'RatingChart|ProfileCard' -benchtime 200x -count 3
func BenchmarkRatingChart(b *testing.B) {
	for _, c := range []struct {
		name  string
		chart Chart
	}{{"one", oneChart()}, {"vs", twoCharts()}} {
		b.Run(c.name, func(b *testing.B) {
			r := New()
			var data []byte
			var err error
			b.ReportAllocs()
			for b.Loop() {
				if data, err = r.RatingChart(c.chart, Options{}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(data)), "PNG-bytes")
		})
	}
}

// BenchmarkProfileCard draws a player's card of three games.
func BenchmarkProfileCard(b *testing.B) {
	r := New()
	var data []byte
	var err error
	b.ReportAllocs()
	for b.Loop() {
		if data, err = r.ProfileCard(aCard(), Options{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(data)), "PNG-bytes")
}
