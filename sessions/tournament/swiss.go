package tournament

import (
	"cmp"
	"slices"
)

// searchBudget bounds the backtracking of one pairing (nodes visited).
const searchBudget = 2_000_000

// state is what the rounds so far say about one player.
type state struct {
	id      string
	rating  int
	halves  int    // score in half points
	colours []byte // 'W' and 'B' of the games played on the board
	bye     bool
	met     map[string]bool
}

func (s *state) diff() int {
	d := 0
	for _, c := range s.colours {
		if c == 'W' {
			d++
		} else {
			d--
		}
	}
	return d
}

// can reports whether s may take colour c ('W' or 'B') next.
func (s *state) can(c byte) bool {
	d := s.diff()
	if c == 'W' && d+1 > 2 || c == 'B' && d-1 < -2 {
		return false
	}
	n := len(s.colours)
	return n < 2 || s.colours[n-1] != c || s.colours[n-2] != c
}

// states rebuilds every player's state from the rounds played.
func states(players []Player, rounds []Round) (map[string]*state, error) {
	ids := make([]string, len(players))
	for i, p := range players {
		ids[i] = p.ID
	}
	if err := checkIDs(ids); err != nil {
		return nil, err
	}
	st := make(map[string]*state, len(players))
	for _, p := range players {
		st[p.ID] = &state{id: p.ID, rating: p.Rating, met: map[string]bool{}}
	}
	for _, r := range rounds {
		for _, p := range r.Pairings {
			if !p.Result.Valid() {
				return nil, badInput("round %d: unknown result %q", r.Number, p.Result)
			}
			w := st[p.White]
			if w == nil {
				return nil, badInput("round %d: unknown player %q", r.Number, p.White)
			}
			if p.IsBye() {
				w.bye = true
				w.halves += 2
				continue
			}
			b := st[p.Black]
			if b == nil {
				return nil, badInput("round %d: unknown player %q", r.Number, p.Black)
			}
			w.met[b.id], b.met[w.id] = true, true
			hw, hb := p.Result.halves()
			w.halves += hw
			b.halves += hb
			if p.Result.Played() {
				w.colours = append(w.colours, 'W')
				b.colours = append(b.colours, 'B')
			}
		}
	}
	return st, nil
}

// rank sorts by score, then rating, then id (all descending but the id).
func rank(list []*state) {
	slices.SortStableFunc(list, func(a, b *state) int {
		if c := cmp.Compare(b.halves, a.halves); c != 0 {
			return c
		}
		if c := cmp.Compare(b.rating, a.rating); c != 0 {
			return c
		}
		return cmp.Compare(a.id, b.id)
	})
}

// Swiss pairs the next round (numbered len(rounds)+1) of the players not
// withdrawn, by the rules in the package documentation. It returns
// ErrNoPairing when no pairing satisfies them (or the bounded search gives
// up), and ErrBadInput when the rounds do not match the players.
func Swiss(players []Player, rounds []Round) (Round, error) {
	st, err := states(players, rounds)
	if err != nil {
		return Round{}, err
	}
	var list []*state
	for _, p := range players {
		if !p.Withdrawn {
			list = append(list, st[p.ID])
		}
	}
	if len(list) < 2 {
		return Round{}, ErrPlayerCount
	}
	rank(list)
	s := newSearch(list)
	next := Round{Number: len(rounds) + 1}
	if len(list)%2 == 0 {
		if !s.pair() {
			return Round{}, s.fail()
		}
		next.Pairings = s.pairings()
		return next, nil
	}
	for b := len(list) - 1; b >= 0 && s.budget > 0; b-- {
		if list[b].bye {
			continue
		}
		s.mark(b, true)
		s.games = s.games[:0]
		if s.pair() {
			next.Pairings = append(s.pairings(), Pairing{White: list[b].id, Result: Bye})
			return next, nil
		}
		s.mark(b, false)
	}
	return Round{}, s.fail()
}

func (s *search) fail() error {
	if s.budget < 0 {
		return ErrSearchLimit
	}
	return ErrNoPairing
}

type search struct {
	list   []*state
	used   []bool
	games  [][2]int // White, Black as indices in list
	budget int
	// forced[k] is the only colour list[k] may take ('W' or 'B'), or 0;
	// free counts the unused players, forcedW and forcedB those of them
	// forced to White and to Black: more than half of the free players
	// forced to one colour cannot be paired.
	forced           []byte
	free             int
	forcedW, forcedB int
}

func newSearch(list []*state) *search {
	s := &search{list: list, used: make([]bool, len(list)), budget: searchBudget,
		forced: make([]byte, len(list)), free: len(list)}
	for k, p := range list {
		w, b := p.can('W'), p.can('B')
		switch {
		case w && !b:
			s.forced[k] = 'W'
			s.forcedW++
		case b && !w:
			s.forced[k] = 'B'
			s.forcedB++
		}
	}
	return s
}

// mark sets whether list[k] is used and keeps the counts.
func (s *search) mark(k int, used bool) {
	d := 1
	if used {
		d = -1
	}
	s.used[k] = used
	s.free += d
	switch s.forced[k] {
	case 'W':
		s.forcedW += d
	case 'B':
		s.forcedB += d
	}
}

func (s *search) pairings() []Pairing {
	ps := make([]Pairing, len(s.games))
	for i, g := range s.games {
		ps[i] = Pairing{White: s.list[g[0]].id, Black: s.list[g[1]].id}
	}
	return ps
}

// pair pairs every unused player, highest ranked first, backtracking.
func (s *search) pair() bool {
	s.budget--
	if s.budget < 0 {
		return false
	}
	if 2*s.forcedW > s.free || 2*s.forcedB > s.free {
		return false
	}
	i := slices.Index(s.used, false)
	if i < 0 {
		return true
	}
	s.mark(i, true)
	for _, j := range s.candidates(i) {
		w, b, ok := s.colours(i, j)
		if !ok {
			continue
		}
		s.mark(j, true)
		s.games = append(s.games, [2]int{w, b})
		if s.pair() {
			return true
		}
		s.games = s.games[:len(s.games)-1]
		s.mark(j, false)
		if s.budget < 0 {
			break
		}
	}
	s.mark(i, false)
	return false
}

// candidates lists i's possible opponents in order of preference: in i's
// score group, the player half the group below first (the top half meets
// the bottom half), then the rest of the group downwards, then upwards;
// then the players of the lower groups by rank.
func (s *search) candidates(i int) []int {
	var group, below []int
	for j := i + 1; j < len(s.list); j++ {
		if s.used[j] || s.list[i].met[s.list[j].id] {
			continue
		}
		if s.list[j].halves == s.list[i].halves {
			group = append(group, j)
		} else {
			below = append(below, j)
		}
	}
	all := make([]int, 0, len(group)+len(below))
	if len(group) > 0 {
		k := (len(group)+1)/2 - 1
		all = append(all, group[k:]...)
		for x := k - 1; x >= 0; x-- {
			all = append(all, group[x])
		}
	}
	return append(all, below...)
}

// colours returns who of i and j has White, or false when no colour
// assignment keeps both within the colour rules. The player with fewer
// Whites so far gets White; on equal counts, the one who had Black last;
// otherwise the higher ranked (i) alternates from his last colour, or has
// White on odd boards of the first round.
func (s *search) colours(i, j int) (white, black int, ok bool) {
	a, b := s.list[i], s.list[j]
	iw := a.can('W') && b.can('B')
	jw := a.can('B') && b.can('W')
	switch {
	case iw && !jw:
		return i, j, true
	case jw && !iw:
		return j, i, true
	case !iw && !jw:
		return 0, 0, false
	}
	if da, db := a.diff(), b.diff(); da != db {
		if da < db {
			return i, j, true
		}
		return j, i, true
	}
	la, lb := last(a.colours), last(b.colours)
	switch {
	case la == 'B' && lb != 'B', la == 0 && lb == 'W':
		return i, j, true
	case lb == 'B' && la != 'B', lb == 0 && la == 'W':
		return j, i, true
	case la == 'W':
		return j, i, true
	case la == 'B':
		return i, j, true
	}
	if len(s.games)%2 == 0 {
		return i, j, true
	}
	return j, i, true
}

func last(c []byte) byte {
	if len(c) == 0 {
		return 0
	}
	return c[len(c)-1]
}
