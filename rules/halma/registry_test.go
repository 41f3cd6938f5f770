package halma_test

import (
	"testing"

	"github.com/boardgamebot/bot/rules"
	"github.com/boardgamebot/bot/rules/games"
)

// TestRegistry: every allowed option combination gives a game whose
// Options build an equal game; the combinations the page excludes are
// rules.ErrBadOption errors.
func TestRegistry(t *testing.T) {
	info, ok := games.Lookup("halma")
	if !ok {
		t.Fatal("halma is not registered")
	}
	var values [3][]string
	for i, key := range []string{"size", "players", "leavehome"} {
		for _, o := range info.Options {
			if o.Key == key {
				values[i] = o.Values
			}
		}
	}
	built := 0
	for _, size := range values[0] {
		for _, players := range values[1] {
			for _, lh := range values[2] {
				opts := map[string]string{"size": size, "players": players, "leavehome": lh}
				g, err := games.New("halma", opts)
				bad := players == "4" && (size != "16" || (lh != "off" && lh != "auto"))
				if bad {
					if err == nil || !rulesBadOption(err) {
						t.Errorf("%v: got %v, want a bad-option error", opts, err)
					}
					continue
				}
				if err != nil {
					t.Fatalf("%v: %v", opts, err)
				}
				again, err := games.New("halma", g.Options())
				if err != nil || again != g {
					t.Errorf("%v: Options %v build %v, %v", opts, g.Options(), again, err)
				}
				built++
			}
		}
	}
	if built == 0 {
		t.Fatal("no game built")
	}
}

func rulesBadOption(err error) bool {
	re, ok := err.(*rules.Error)
	return ok && re.Kind == rules.ErrBadOption
}
