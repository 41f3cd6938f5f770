package tournament

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
)

// The Berger tables published by FIDE (Handbook C.05, Annex 1), White
// first, table 1 first, written out from the handbook's construction.
var bergerTables = map[int][]string{
	4: {
		"1-4, 2-3",
		"4-3, 1-2",
		"2-4, 3-1",
	},
	6: {
		"1-6, 2-5, 3-4",
		"6-4, 5-3, 1-2",
		"2-6, 3-1, 4-5",
		"6-5, 1-4, 2-3",
		"3-6, 4-2, 5-1",
	},
	8: {
		"1-8, 2-7, 3-6, 4-5",
		"8-5, 6-4, 7-3, 1-2",
		"2-8, 3-1, 4-7, 5-6",
		"8-6, 7-5, 1-4, 2-3",
		"3-8, 4-2, 5-1, 6-7",
		"8-7, 1-6, 2-5, 3-4",
		"4-8, 5-3, 6-2, 7-1",
	},
	10: {
		"1-10, 2-9, 3-8, 4-7, 5-6",
		"10-6, 7-5, 8-4, 9-3, 1-2",
		"2-10, 3-1, 4-9, 5-8, 6-7",
		"10-7, 8-6, 9-5, 1-4, 2-3",
		"3-10, 4-2, 5-1, 6-9, 7-8",
		"10-8, 9-7, 1-6, 2-5, 3-4",
		"4-10, 5-3, 6-2, 7-1, 8-9",
		"10-9, 1-8, 2-7, 3-6, 4-5",
		"5-10, 6-4, 7-3, 8-2, 9-1",
	},
}

func numbers(n int) []string {
	ids := make([]string, n)
	for i := range ids {
		ids[i] = strconv.Itoa(i + 1)
	}
	return ids
}

func formatRound(r Round) string {
	var s []string
	for _, p := range r.Pairings {
		if p.IsBye() {
			s = append(s, p.White+"-bye")
		} else {
			s = append(s, p.White+"-"+p.Black)
		}
	}
	return strings.Join(s, ", ")
}

func TestRoundRobinFIDEBergerTables(t *testing.T) {
	for n, want := range bergerTables {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			rounds, err := RoundRobin(numbers(n), false)
			if err != nil {
				t.Fatal(err)
			}
			if len(rounds) != len(want) {
				t.Fatalf("%d rounds, want %d", len(rounds), len(want))
			}
			for i, r := range rounds {
				if r.Number != i+1 {
					t.Errorf("round %d numbered %d", i+1, r.Number)
				}
				if got := formatRound(r); got != want[i] {
					t.Errorf("round %d: %s, want %s", i+1, got, want[i])
				}
			}
		})
	}
}

// checkRoundRobin checks the properties of a single cycle: every pair
// meets once, nobody plays twice in a round, colours of numbers 1..n-1
// never repeat three times, and the last number alternates.
func checkRoundRobin(t *testing.T, n int, rounds []Round) {
	t.Helper()
	met := map[[2]string]int{}
	colours := map[string]string{}
	for _, r := range rounds {
		seen := map[string]bool{}
		for _, p := range r.Pairings {
			for _, id := range []string{p.White, p.Black} {
				if id == "" {
					continue
				}
				if seen[id] {
					t.Errorf("round %d: %s plays twice", r.Number, id)
				}
				seen[id] = true
			}
			if p.IsBye() {
				colours[p.White] += "-"
				continue
			}
			met[[2]string{min(p.White, p.Black), max(p.White, p.Black)}]++
			colours[p.White] += "W"
			colours[p.Black] += "B"
		}
		if len(seen) != n {
			t.Errorf("round %d: %d players, want %d", r.Number, len(seen), n)
		}
	}
	if len(met) != n*(n-1)/2 {
		t.Errorf("%d pairs met, want %d", len(met), n*(n-1)/2)
	}
	for k, c := range met {
		if c != 1 {
			t.Errorf("%v met %d times", k, c)
		}
	}
	for id, c := range colours {
		if strings.Contains(c, "WWW") || strings.Contains(c, "BBB") {
			t.Errorf("%s colours %s", id, c)
		}
	}
	if n%2 == 0 {
		last := colours[strconv.Itoa(n)]
		for i := 1; i < len(last); i++ {
			if last[i] == last[i-1] {
				t.Errorf("last player colours %s do not alternate", last)
			}
		}
	}
}

func TestRoundRobinProperties(t *testing.T) {
	for n := 3; n <= 12; n++ {
		rounds, err := RoundRobin(numbers(n), false)
		if err != nil {
			t.Fatal(n, err)
		}
		want := n - 1 + n%2
		if len(rounds) != want {
			t.Errorf("n=%d: %d rounds, want %d", n, len(rounds), want)
		}
		checkRoundRobin(t, n, rounds)
		if n%2 == 1 {
			byes := map[string]int{}
			for _, r := range rounds {
				for _, p := range r.Pairings {
					if p.IsBye() {
						byes[p.White]++
					}
				}
			}
			if len(byes) != n {
				t.Errorf("n=%d: byes %v, want one each", n, byes)
			}
		}
	}
}

func TestRoundRobinDouble(t *testing.T) {
	single, _ := RoundRobin(numbers(5), false)
	double, err := RoundRobin(numbers(5), true)
	if err != nil {
		t.Fatal(err)
	}
	if len(double) != 2*len(single) {
		t.Fatalf("%d rounds, want %d", len(double), 2*len(single))
	}
	for i, r := range single {
		d := double[len(single)+i]
		if d.Number != len(single)+i+1 {
			t.Errorf("second cycle round numbered %d", d.Number)
		}
		for j, p := range r.Pairings {
			q := d.Pairings[j]
			if p.IsBye() {
				if q != p {
					t.Errorf("bye %v became %v", p, q)
				}
			} else if q.White != p.Black || q.Black != p.White {
				t.Errorf("round %d: %v not reversed in %v", d.Number, p, q)
			}
		}
	}
}

func TestRoundRobinBadInput(t *testing.T) {
	if _, err := RoundRobin(numbers(2), false); !errors.Is(err, ErrPlayerCount) {
		t.Errorf("2 players: %v", err)
	}
	if _, err := RoundRobin(numbers(13), false); !errors.Is(err, ErrPlayerCount) {
		t.Errorf("13 players: %v", err)
	}
	if _, err := RoundRobin([]string{"a", "b", "a"}, false); !errors.Is(err, ErrBadInput) {
		t.Errorf("duplicate: %v", err)
	}
}
