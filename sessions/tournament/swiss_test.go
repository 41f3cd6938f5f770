package tournament

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

func randomResult(rng *rand.Rand) Result {
	switch x := rng.IntN(100); {
	case x < 40:
		return WhiteWins
	case x < 75:
		return BlackWins
	}
	return Draw
}

// checkSwissRound checks a freshly paired round against the rules.
func checkSwissRound(t *testing.T, players []Player, rounds []Round, next Round) {
	t.Helper()
	st, err := states(players, rounds)
	if err != nil {
		t.Fatal(err)
	}
	active := map[string]bool{}
	var list []*state
	for _, p := range players {
		if !p.Withdrawn {
			active[p.ID] = true
			list = append(list, st[p.ID])
		}
	}
	rank(list)
	seen := map[string]bool{}
	for _, p := range next.Pairings {
		for _, id := range []string{p.White, p.Black} {
			if id == "" {
				continue
			}
			if !active[id] || seen[id] {
				t.Fatalf("round %d: %s paired wrongly (active %v, twice %v)", next.Number, id, active[id], seen[id])
			}
			seen[id] = true
		}
		if p.IsBye() {
			if p.Result != Bye {
				t.Fatalf("round %d: bye %v without result", next.Number, p)
			}
			if st[p.White].bye {
				t.Fatalf("round %d: second bye for %s", next.Number, p.White)
			}
			// Everyone ranked below had a bye already, or the others
			// cannot be paired when he has it.
			below := false
			for k, s := range list {
				if s.id == p.White {
					below = true
				} else if below && !s.bye {
					srch := newSearch(list)
					srch.mark(k, true)
					if srch.pair() {
						t.Fatalf("round %d: bye to %s though %s, lower, could have it", next.Number, p.White, s.id)
					}
				}
			}
			continue
		}
		w, b := st[p.White], st[p.Black]
		if w.met[b.id] {
			t.Fatalf("round %d: %s and %s meet again", next.Number, w.id, b.id)
		}
		if !colourOK(string(w.colours)+"W") || !colourOK(string(b.colours)+"B") {
			t.Fatalf("round %d: %s (%s) White, %s (%s) Black break the colour rules",
				next.Number, w.id, w.colours, b.id, b.colours)
		}
	}
	if len(seen) != len(active) {
		t.Fatalf("round %d: %d of %d players paired", next.Number, len(seen), len(active))
	}
}

// TestSwissRandomEvents plays seeded random events with late joiners and
// withdrawals (a player leaving mid-round forfeits that game) and checks
// every round's pairing.
func TestSwissRandomEvents(t *testing.T) {
	events := 2000
	if testing.Short() {
		events = 200
	}
	noPairing := 0
	for seed := range events {
		rng := rand.New(rand.NewPCG(uint64(seed), 19))
		n := 5 + rng.IntN(196)
		nRounds := 3 + rng.IntN(9)
		var players []Player
		next := 0
		join := func() {
			players = append(players, Player{ID: fmt.Sprintf("p%d", next), Rating: 1000 + rng.IntN(1500)})
			next++
		}
		for range n {
			join()
		}
		var rounds []Round
		for r := 1; r <= nRounds; r++ {
			if r > 1 && rng.IntN(3) == 0 { // a late joiner
				join()
			}
			round, err := Swiss(players, rounds)
			if errors.Is(err, ErrSearchLimit) {
				t.Fatalf("seed %d round %d (%d players, %d active): %v", seed, r, len(players), countActive(players), err)
			}
			if errors.Is(err, ErrNoPairing) {
				noPairing++
				break
			}
			if err != nil {
				t.Fatalf("seed %d round %d: %v", seed, r, err)
			}
			checkSwissRound(t, players, rounds, round)
			leaving := ""
			if rng.IntN(4) == 0 {
				i := rng.IntN(len(players))
				if !players[i].Withdrawn {
					players[i].Withdrawn = true
					leaving = players[i].ID
				}
			}
			for i, p := range round.Pairings {
				switch {
				case p.IsBye():
				case p.White == leaving:
					round.Pairings[i].Result = BlackByForfeit
				case p.Black == leaving:
					round.Pairings[i].Result = WhiteByForfeit
				default:
					round.Pairings[i].Result = randomResult(rng)
				}
			}
			rounds = append(rounds, round)
		}
		if _, err := Standings(players, rounds); err != nil {
			t.Fatalf("seed %d: standings: %v", seed, err)
		}
	}
	t.Logf("%d events, %d stopped for want of a pairing", events, noPairing)
}

// Four players, three rounds: everyone has met everyone, so a fourth round
// has no pairing.
func TestSwissNoPairing(t *testing.T) {
	players := []Player{{ID: "a", Rating: 4}, {ID: "b", Rating: 3}, {ID: "c", Rating: 2}, {ID: "d", Rating: 1}}
	rounds, _ := RoundRobin([]string{"a", "b", "c", "d"}, false)
	for i := range rounds {
		for j := range rounds[i].Pairings {
			rounds[i].Pairings[j].Result = Draw
		}
	}
	if _, err := Swiss(players, rounds); !errors.Is(err, ErrNoPairing) {
		t.Fatalf("err %v, want ErrNoPairing", err)
	}
}

func TestSwissFirstRoundAndBye(t *testing.T) {
	players := []Player{{ID: "a", Rating: 2000}, {ID: "b", Rating: 1900}, {ID: "c", Rating: 1800},
		{ID: "d", Rating: 1700}, {ID: "e", Rating: 1600}}
	r, err := Swiss(players, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Top half meets bottom half; the lowest rated has the bye.
	want := "a-c, d-b, e-bye"
	if got := formatRound(r); got != want {
		t.Errorf("round 1: %s, want %s", got, want)
	}
}

func TestSwissBadInput(t *testing.T) {
	players := []Player{{ID: "a"}, {ID: "b"}}
	bad := []Round{{Number: 1, Pairings: []Pairing{{White: "a", Black: "z", Result: Draw}}}}
	if _, err := Swiss(players, bad); !errors.Is(err, ErrBadInput) {
		t.Errorf("unknown player: %v", err)
	}
	bad = []Round{{Number: 1, Pairings: []Pairing{{White: "a", Black: "b", Result: "2-0"}}}}
	if _, err := Swiss(players, bad); !errors.Is(err, ErrBadInput) {
		t.Errorf("unknown result: %v", err)
	}
}

func TestStandings(t *testing.T) {
	players := []Player{{ID: "a"}, {ID: "b"}, {ID: "c"}, {ID: "d"}, {ID: "e"}}
	rounds := []Round{
		{Number: 1, Pairings: []Pairing{{"a", "b", WhiteWins}, {"c", "d", Draw}, {"e", "", Bye}}},
		{Number: 2, Pairings: []Pairing{{"e", "a", BlackWins}, {"d", "b", WhiteByForfeit}, {"c", "", Bye}}},
	}
	got, err := Standings(players, rounds)
	if err != nil {
		t.Fatal(err)
	}
	// a 2 (opponents b 0, e 1: BH 1, SB 1); d 1.5 (c 1.5, b 0: BH 1.5,
	// SB 0.75); c 1.5 (d 1.5: BH 1.5, SB 0.75, no wins); e 1 (a: BH 2);
	// b 0 (a 2, d 1.5: BH 3.5).
	want := []Standing{
		{1, "a", 2, 1, 1, 2},
		{2, "d", 1.5, 1.5, 0.75, 1},
		{3, "c", 1.5, 1.5, 0.75, 0},
		{4, "e", 1, 2, 0, 0},
		{5, "b", 0, 3.5, 0, 0},
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("line %d: %+v, want %+v", i+1, got[i], want[i])
		}
	}
}

// TestStandingsSharedPlaces: players equal on points and every
// tie-break share a place, and the next place skips: two draws between
// four players leave everyone tied on all counts.
func TestStandingsSharedPlaces(t *testing.T) {
	players := []Player{{ID: "a"}, {ID: "b"}, {ID: "c"}, {ID: "d"}}
	got, err := Standings(players, []Round{{Number: 1, Pairings: []Pairing{{"a", "b", Draw}, {"c", "d", Draw}}}})
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range got {
		if s.Place != 1 || s.Player != players[i].ID {
			t.Errorf("line %d: %+v, want place 1 for %s", i+1, s, players[i].ID)
		}
	}
	got, err = Standings(players, []Round{{Number: 1, Pairings: []Pairing{{"a", "b", WhiteWins}, {"c", "d", WhiteWins}}}})
	if err != nil {
		t.Fatal(err)
	}
	if places := []int{got[0].Place, got[1].Place, got[2].Place, got[3].Place}; places[0] != 1 || places[1] != 1 || places[2] != 3 || places[3] != 3 {
		t.Errorf("two winners and two losers: places %v, want [1 1 3 3]", places)
	}
}

func BenchmarkSwissPair1000(b *testing.B) {
	rng := rand.New(rand.NewPCG(1000, 19))
	players := make([]Player, 1000)
	for i := range players {
		players[i] = Player{ID: fmt.Sprintf("p%d", i), Rating: 1000 + rng.IntN(1500)}
	}
	var rounds []Round
	for range 4 {
		r, err := Swiss(players, rounds)
		if err != nil {
			b.Fatal(err)
		}
		for i := range r.Pairings {
			if !r.Pairings[i].IsBye() {
				r.Pairings[i].Result = randomResult(rng)
			}
		}
		rounds = append(rounds, r)
	}
	b.ResetTimer()
	for b.Loop() {
		if _, err := Swiss(players, rounds); err != nil {
			b.Fatal(err)
		}
	}
}

func countActive(players []Player) int {
	n := 0
	for _, p := range players {
		if !p.Withdrawn {
			n++
		}
	}
	return n
}

func TestRoundJSONRoundTrip(t *testing.T) {
	in := Round{Number: 3, Pairings: []Pairing{{"a", "b", WhiteWins}, {"c", "d", BlackByForfeit}, {"e", "", Bye}, {"f", "g", Pending}}}
	data, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	var out Round
	if err := json.Unmarshal(data, &out); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(in, out) {
		t.Errorf("%s came back as %+v", data, out)
	}
}

// colourOK checks a colour history: never three of a colour in a row, and
// Whites and Blacks within 2 of each other.
func colourOK(h string) bool {
	if strings.Contains(h, "WWW") || strings.Contains(h, "BBB") {
		return false
	}
	d := strings.Count(h, "W") - strings.Count(h, "B")
	return d >= -2 && d <= 2
}
