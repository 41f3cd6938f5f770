package tournament

// RoundRobin returns the rounds of a round-robin between ids (3 to 12, in
// pairing-number order: ids[0] is number 1) following the FIDE Berger
// tables (Handbook C.05, Annex 1). An odd count gets a dummy as the last
// number; whoever meets the dummy has a bye. With double set, a second
// cycle follows with every colour reversed.
func RoundRobin(ids []string, double bool) ([]Round, error) {
	if len(ids) < 3 || len(ids) > 12 {
		return nil, ErrPlayerCount
	}
	if err := checkIDs(ids); err != nil {
		return nil, err
	}
	n := len(ids)
	if n%2 == 1 {
		n++
	}
	name := func(k int) string { // k is a 1-based number; n may be the dummy
		if k > len(ids) {
			return ""
		}
		return ids[k-1]
	}
	var rounds []Round
	for r := 1; r < n; r++ {
		var ps []Pairing
		for _, g := range bergerRound(n, r) {
			w, b := name(g[0]), name(g[1])
			switch {
			case b == "":
				ps = append(ps, Pairing{White: w, Result: Bye})
			case w == "":
				ps = append(ps, Pairing{White: b, Result: Bye})
			default:
				ps = append(ps, Pairing{White: w, Black: b})
			}
		}
		rounds = append(rounds, Round{Number: r, Pairings: ps})
	}
	if double {
		first := len(rounds)
		for i := 0; i < first; i++ {
			var ps []Pairing
			for _, p := range rounds[i].Pairings {
				if !p.IsBye() {
					p.White, p.Black = p.Black, p.White
				}
				ps = append(ps, p)
			}
			rounds = append(rounds, Round{Number: first + i + 1, Pairings: ps})
		}
	}
	return rounds, nil
}

// bergerRound returns the games of round r (1-based) of the Berger table
// for n (even) numbers, White first, table 1 first. Numbers 1..n-1 sit on
// a circle that turns by n/2 each round: at table t of round r sits
// a = t + (r-1)·n/2 (modulo n-1), who meets number n at table 1 (n has
// White in even rounds) and b = r+1-a (modulo n-1) at the other tables,
// the lower of a and b having White when a+b is odd.
func bergerRound(n, r int) [][2]int {
	m := n - 1
	mod := func(x int) int { return ((x-1)%m+m)%m + 1 } // into 1..m
	games := make([][2]int, 0, n/2)
	for t := 1; t <= n/2; t++ {
		a := mod(t + (r-1)*n/2)
		if t == 1 {
			if r%2 == 0 {
				games = append(games, [2]int{n, a})
			} else {
				games = append(games, [2]int{a, n})
			}
			continue
		}
		b := mod(r + 1 - a)
		lo, hi := min(a, b), max(a, b)
		if (a+b)%2 == 1 {
			games = append(games, [2]int{lo, hi})
		} else {
			games = append(games, [2]int{hi, lo})
		}
	}
	return games
}

func checkIDs(ids []string) error {
	seen := make(map[string]bool, len(ids))
	for _, id := range ids {
		if id == "" {
			return badInput("empty player id")
		}
		if seen[id] {
			return badInput("duplicate player %q", id)
		}
		seen[id] = true
	}
	return nil
}
