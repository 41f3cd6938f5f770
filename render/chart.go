package render

import (
	"fmt"
	"math"
	"strconv"
	"time"
)

// Chart is a rating chart to draw (/rating, /vs): each line is a
// player's all-time rating after each of their rated games, over time.
// The words are the chat's, in the reader's language.
type Chart struct {
	Title string
	// Stats are lines of text under the title (the peak, the rating now,
	// the games won, drawn and lost).
	Stats []string
	// Lines are one or two players' ratings (MaxChartLines); two share
	// the axes, in the colors their names have in the legend.
	Lines []ChartLine
	// Month is when the current month began: the chart is shaded from it
	// on, and labelled MonthLabel; zero for no mark.
	Month      time.Time
	MonthLabel string
	// PeakLabel names the highest point of each line, written beside it
	// with the rating ("peak 1120").
	PeakLabel string
	// Date writes a date of the time axis in the reader's language: with
	// its day ("3 Mar") when day is set, else its month ("Mar 2026");
	// nil writes them as numbers (2026-03-03, 2026-03).
	Date func(t time.Time, day bool) string
}

// ChartLine is one player's rating: Start before their first game, then
// after each game, in time order.
type ChartLine struct {
	Name   string
	Start  int
	Points []ChartPoint
}

// ChartPoint is a rating after a game that ended At.
type ChartPoint struct {
	At     time.Time
	Rating int
}

// The chart's limits and geometry, in pixels.
const (
	// MaxChartLines is the most lines a chart draws.
	MaxChartLines = 2
	// MaxChartPoints is the most points a line may have.
	MaxChartPoints = 100000
	ChartWidth     = 720
	ChartHeight    = 360
	chartMargin    = 16
	chartYLabels   = 44 // room for the ratings left of the plot
	chartRight     = 48 // room for the current ratings right of it
	chartXLabels   = 22 // room for the dates under it
	chartDots      = 60 // up to this many points a line has dots
)

// RatingChart draws c as a PNG picture of ChartWidth x ChartHeight pixels
// in o's theme (o.Size and o.Numbers are ignored).
func (r *Renderer) RatingChart(c Chart, o Options) ([]byte, error) {
	if r.fontErr != nil {
		return nil, fmt.Errorf("render: font: %v", r.fontErr)
	}
	if len(c.Lines) == 0 || len(c.Lines) > MaxChartLines {
		return nil, fmt.Errorf("%w: %d lines in a chart (1 to %d)", ErrBadView, len(c.Lines), MaxChartLines)
	}
	for _, l := range c.Lines {
		if len(l.Points) > MaxChartPoints {
			return nil, fmt.Errorf("%w: %d points in a chart's line (at most %d)", ErrBadView, len(l.Points), MaxChartPoints)
		}
	}
	p, err := r.story(o.Theme)
	if err != nil {
		return nil, err
	}
	dc := r.canvas(ChartWidth, ChartHeight, p.c.bg)
	defer r.done(dc)

	y := drawChartHead(dc, p, c)
	plot := rect{x0: chartMargin + chartYLabels, y0: y + 8, x1: ChartWidth - chartMargin - chartRight, y1: ChartHeight - chartMargin - chartXLabels}
	if plot.y1-plot.y0 < 60 {
		return nil, fmt.Errorf("%w: %d lines of stats leave no room for the chart", ErrBadView, len(c.Stats))
	}
	sc := newChartScale(c, plot)
	drawChartGrid(dc, p, c, sc)
	labelY := nowLabels(c, sc)
	for i := range c.Lines {
		drawChartLine(dc, p, c, sc, i, labelY[i])
	}
	return r.encodeStory(p, dc)
}

// drawChartHead draws the title and legend, then the lines of stats, and
// returns where they end.
func drawChartHead(dc *canvas, p *storyPalette, c Chart) float64 {
	y := float64(chartMargin)
	dc.font(20)
	dc.color(p.c.ink)
	dc.text(clipRunes(c.Title, 60), chartMargin, y+10, 0, 0.35)
	if len(c.Lines) > 1 {
		dc.font(14)
		x := float64(ChartWidth - chartMargin)
		for i := len(c.Lines) - 1; i >= 0; i-- {
			name := clipRunes(c.Lines[i].Name, 20)
			w := dc.measure(name)
			dc.color(p.c.ink)
			dc.text(name, x, y+10, 1, 0.35)
			x -= w + 6
			dc.color(p.c.lines[i])
			dc.DrawRectangle(x-12, y+4, 12, 12)
			dc.Fill()
			x -= 24
		}
	}
	y += 28
	dc.font(14)
	dc.color(p.c.ink)
	for _, s := range c.Stats {
		dc.text(clipRunes(s, 90), chartMargin, y+8, 0, 0.35)
		y += 20
	}
	return y
}

// chartScale maps ratings and times to the plot's pixels.
type chartScale struct {
	plot         rect
	lo, hi, step int
	from, to     time.Time
}

// newChartScale sets the scales: ratings from the lowest to the highest
// (starts included), times from the first game to the last.
func newChartScale(c Chart, plot rect) chartScale {
	lo, hi := math.MaxInt, math.MinInt
	var from, to time.Time
	for _, l := range c.Lines {
		lo, hi = min(lo, l.Start), max(hi, l.Start)
		for _, pt := range l.Points {
			lo, hi = min(lo, pt.Rating), max(hi, pt.Rating)
			if from.IsZero() || pt.At.Before(from) {
				from = pt.At
			}
			if pt.At.After(to) {
				to = pt.At
			}
		}
	}
	if from.IsZero() {
		from, to = c.Month, c.Month
		if from.IsZero() {
			from, to = time.Unix(0, 0), time.Unix(0, 0)
		}
	}
	if to.Sub(from) < 24*time.Hour {
		mid := from.Add(to.Sub(from) / 2)
		from, to = mid.Add(-12*time.Hour), mid.Add(12*time.Hour)
	}
	pad := to.Sub(from) / 40
	from, to = from.Add(-pad), to.Add(pad)
	step := ratingStep(hi - lo)
	lo, hi = floorTo(lo-step/4, step), ceilTo(hi+step/4, step)
	return chartScale{plot: plot, lo: lo, hi: hi, step: step, from: from, to: to}
}

// x is the abscissa of time t.
func (s chartScale) x(t time.Time) float64 {
	return s.plot.x0 + (s.plot.x1-s.plot.x0)*float64(t.Sub(s.from))/float64(s.to.Sub(s.from))
}

// y is the ordinate of a rating.
func (s chartScale) y(rating int) float64 {
	return s.plot.y1 - (s.plot.y1-s.plot.y0)*float64(rating-s.lo)/float64(s.hi-s.lo)
}

// drawChartGrid shades this month, then draws the grid and the axes' labels.
func drawChartGrid(dc *canvas, p *storyPalette, c Chart, sc chartScale) {
	plot := sc.plot
	if !c.Month.IsZero() && c.Month.Before(sc.to) {
		bx := max(plot.x0, sc.x(c.Month))
		dc.color(p.c.band)
		dc.DrawRectangle(bx, plot.y0, plot.x1-bx, plot.y1-plot.y0)
		dc.Fill()
		if c.MonthLabel != "" {
			dc.font(12)
			dc.color(p.c.ink)
			dc.text(c.MonthLabel, plot.x1-4, plot.y0+9, 1, 0.35)
		}
	}
	dc.font(12)
	dc.SetLineWidth(1)
	for v := sc.lo; v <= sc.hi; v += sc.step {
		yy := math.Round(sc.y(v)) + 0.5
		dc.color(p.c.grid)
		dc.DrawLine(plot.x0, yy, plot.x1, yy)
		dc.Stroke()
		dc.color(p.c.ink)
		dc.text(strconv.Itoa(v), plot.x0-6, yy, 1, 0.35)
	}
	for _, tk := range timeTicks(sc.from, sc.to) {
		xx := sc.x(tk.at)
		if xx < plot.x0 || xx > plot.x1 {
			continue
		}
		dc.color(p.c.grid)
		dc.DrawLine(math.Round(xx)+0.5, plot.y1, math.Round(xx)+0.5, plot.y1+4)
		dc.Stroke()
		dc.color(p.c.ink)
		label := dateLabel(c.Date, tk.at, tk.day)
		w := dc.measure(label)
		dc.text(label, min(max(xx, chartMargin+w/2), ChartWidth-chartMargin-w/2), plot.y1+13, 0.5, 0.35)
	}
}

// nowLabels returns where each line's rating now is written, right of the
// plot: apart when the two are close, the higher one above.
func nowLabels(c Chart, sc chartScale) []float64 {
	labelY := make([]float64, len(c.Lines))
	for i, l := range c.Lines {
		labelY[i] = sc.y(lastRating(l))
	}
	if len(labelY) == 2 && math.Abs(labelY[0]-labelY[1]) < 14 {
		up, down := 0, 1
		if lastRating(c.Lines[1]) > lastRating(c.Lines[0]) {
			up, down = 1, 0
		}
		mid := (labelY[0] + labelY[1]) / 2
		labelY[up], labelY[down] = mid-7, mid+7
	}
	return labelY
}

// drawChartLine draws line i, its dots, its peak and its rating now (at
// labelY, right of the plot).
func drawChartLine(dc *canvas, p *storyPalette, c Chart, sc chartScale, i int, labelY float64) {
	l := c.Lines[i]
	if len(l.Points) == 0 {
		return
	}
	plot := sc.plot
	ink := p.c.lines[i]
	dc.color(ink)
	dc.SetLineWidth(2.5)
	dc.SetLineCapRound()
	dc.SetLineJoinRound()
	for j, pt := range l.Points {
		if j == 0 {
			dc.MoveTo(sc.x(pt.At), sc.y(pt.Rating))
		} else {
			dc.LineTo(sc.x(pt.At), sc.y(pt.Rating))
		}
	}
	dc.Stroke()
	peak := 0
	for j, pt := range l.Points {
		if pt.Rating > l.Points[peak].Rating {
			peak = j
		}
		if len(l.Points) <= chartDots || j == len(l.Points)-1 {
			dc.DrawCircle(sc.x(pt.At), sc.y(pt.Rating), 3.5)
			dc.Fill()
		}
	}
	pk := l.Points[peak]
	px, py := sc.x(pk.At), sc.y(pk.Rating)
	dc.SetLineWidth(1.5)
	dc.DrawCircle(px, py, 6)
	dc.Stroke()
	dc.font(12)
	label := strconv.Itoa(pk.Rating)
	if c.PeakLabel != "" {
		label = c.PeakLabel + " " + label
	}
	w := dc.measure(label)
	lx := min(max(px, plot.x0+w/2+2), plot.x1-w/2-2)
	dc.text(label, lx, max(py-14, plot.y0+8), 0.5, 0.35)
	dc.font(13)
	dc.text(strconv.Itoa(lastRating(l)), plot.x1+6, labelY, 0, 0.35)
}

// rect is a rectangle of the picture.
type rect struct{ x0, y0, x1, y1 float64 }

func lastRating(l ChartLine) int {
	if len(l.Points) == 0 {
		return l.Start
	}
	return l.Points[len(l.Points)-1].Rating
}

// ratingStep is the spacing of the rating grid for a range of span: a
// round number giving 3 to 6 lines.
func ratingStep(span int) int {
	for _, s := range []int{10, 20, 25, 50, 100, 200, 250, 500, 1000} {
		if span/s <= 5 {
			return s
		}
	}
	return 1000 * (span/5000 + 1)
}

func floorTo(v, step int) int { return int(math.Floor(float64(v)/float64(step))) * step }
func ceilTo(v, step int) int  { return int(math.Ceil(float64(v)/float64(step))) * step }

// tick is a date on the time axis: a day, or the first of a month.
type tick struct {
	at  time.Time
	day bool
}

// timeTicks returns up to 6 round dates between from and to (UTC): the
// first of every month, or of every nth month, for a span of more than
// about two months; else days a round number apart.
func timeTicks(from, to time.Time) []tick {
	from, to = from.UTC(), to.UTC()
	var out []tick
	span := to.Sub(from)
	if span > 62*24*time.Hour {
		months := int(span.Hours()/(24*30.4)) + 1
		every := 1
		for _, e := range []int{1, 2, 3, 4, 6, 12, 24, 60} {
			every = e
			if months/e <= 5 {
				break
			}
		}
		t := time.Date(from.Year(), from.Month(), 1, 0, 0, 0, 0, time.UTC).AddDate(0, 1, 0)
		for ; !t.After(to); t = t.AddDate(0, 1, 0) {
			if (int(t.Month())-1)%every == 0 {
				out = append(out, tick{t, false})
			}
		}
		return out
	}
	days := int(span.Hours()/24) + 1
	every := 1
	for _, e := range []int{1, 2, 3, 7, 14} {
		every = e
		if days/e <= 5 {
			break
		}
	}
	t := time.Date(from.Year(), from.Month(), from.Day(), 0, 0, 0, 0, time.UTC).AddDate(0, 0, 1)
	for i := 0; !t.After(to); t, i = t.AddDate(0, 0, 1), i+1 {
		if i%every == 0 {
			out = append(out, tick{t, true})
		}
	}
	return out
}

// dateLabel writes a tick's date with date, or as numbers.
func dateLabel(date func(time.Time, bool) string, t time.Time, day bool) string {
	if date != nil {
		return date(t, day)
	}
	if day {
		return t.Format("2006-01-02")
	}
	return t.Format("2006-01")
}
