package tournament

import "cmp"
import "slices"

// Standing is one line of the standings. Points and tie-breaks are in
// points (a draw is 0.5).
type Standing struct {
	Place           int     `json:"place"`
	Player          string  `json:"player"`
	Points          float64 `json:"points"`
	Buchholz        float64 `json:"buchholz"`
	SonnebornBerger float64 `json:"sonnebornBerger"`
	Wins            int     `json:"wins"`
}

// Standings ranks every player (withdrawn ones too) after the rounds, by
// points, Buchholz, Sonneborn-Berger, wins, then id; players equal on all
// four share a place (the next place skips: 1, 2, 2, 4). How byes and
// forfeits count is in the package documentation. Pending games count
// nothing.
func Standings(players []Player, rounds []Round) ([]Standing, error) {
	st, err := states(players, rounds)
	if err != nil {
		return nil, err
	}
	type line struct {
		id               string
		pts, bh, sb, win int // halves; sb in quarter points
	}
	lines := map[string]*line{}
	for _, p := range players {
		lines[p.ID] = &line{id: p.ID, pts: st[p.ID].halves}
	}
	for _, r := range rounds {
		for _, p := range r.Pairings {
			if p.IsBye() || p.Result == Pending {
				continue
			}
			w, b := lines[p.White], lines[p.Black]
			w.bh += b.pts
			b.bh += w.pts
			hw, hb := p.Result.halves()
			w.sb += hw * b.pts
			b.sb += hb * w.pts
			if hw == 2 {
				w.win++
			}
			if hb == 2 {
				b.win++
			}
		}
	}
	out := make([]*line, 0, len(lines))
	for _, p := range players {
		out = append(out, lines[p.ID])
	}
	slices.SortStableFunc(out, func(a, b *line) int {
		for _, c := range [][2]int{{a.pts, b.pts}, {a.bh, b.bh}, {a.sb, b.sb}, {a.win, b.win}} {
			if x := cmp.Compare(c[1], c[0]); x != 0 {
				return x
			}
		}
		return cmp.Compare(a.id, b.id)
	})
	res := make([]Standing, len(out))
	for i, l := range out {
		place := i + 1
		if i > 0 {
			if p := out[i-1]; p.pts == l.pts && p.bh == l.bh && p.sb == l.sb && p.win == l.win {
				place = res[i-1].Place // tied on every count: the same place
			}
		}
		res[i] = Standing{Place: place, Player: l.id, Points: float64(l.pts) / 2,
			Buchholz: float64(l.bh) / 2, SonnebornBerger: float64(l.sb) / 4, Wins: l.win}
	}
	return res, nil
}
