package chat_test

import (
	"fmt"
	"strings"
	"testing"
	"unicode"

	"github.com/boardgamebot/bot/rules"
)

// TestIllegalMoveReplyNamesNoMoveTwice plays into every real game and
// tries moves from the wrong squares, to the wrong squares and series cut
// short: each reply is one line, refused, with at most one list of legal
// moves (no legal move named twice) and a command to go on.
func TestIllegalMoveReplyNamesNoMoveTwice(t *testing.T) {
	for _, g := range []struct{ id, opts string }{
		{"spanish", ""}, {"damas", ""}, {"damas", "huff=yes"}, {"dame", ""}, {"dame", "flying=no"},
		{"ultradamas", ""}, {"halma", "size=8"}, {"halma", "players=4"},
	} {
		t.Run(strings.TrimSpace(g.id+" "+g.opts), func(t *testing.T) {
			f := newRecFixture(t)
			seats := "@bob"
			if strings.Contains(g.opts, "players=4") {
				seats = "@bob @carol @dave"
			}
			f.expect("alice", "/play "+g.id+" "+seats+" color=white "+g.opts, "challenges", false)
			for _, u := range []string{"bob", "carol", "dave"} {
				if strings.Contains(seats, u) {
					f.say(u, "/accept")
				}
			}
			if g.id == "ultradamas" {
				f.expect("alice", "/setup default", "formation", false)
				f.expect("bob", "/setup default", "formation", false)
			}
			tried := 0
			for ply := 0; ply < 16; ply++ {
				s, err := f.svc.Look(ctx, key)
				if err != nil || s.Turn() < 0 {
					break
				}
				moves := s.State.Moves()
				legal := map[string]bool{}
				for _, m := range moves {
					legal[m.Text] = true
				}
				who := s.Player(s.Turn()).Name
				played := false
				for _, text := range wrongMoves(s.State.View(), moves) {
					if legal[text] {
						continue
					}
					r := f.say(who, "/move "+text)
					line := r.Text()
					if !r.Error && strings.Contains(line, " played ") {
						played = true // another spelling of a legal move ("b3-d5" for b3xd5)
						break
					}
					tried++
					if !r.Error || len(r.Lines) != 1 || !strings.Contains(line, "/move") {
						t.Fatalf("/move %s: got %q, want one refusal that names a command", text, line)
					}
					if strings.Count(line, "Legal moves") > 1 || strings.Contains(line, "(legal:") {
						t.Fatalf("/move %s: two lists of legal moves: %q", text, line)
					}
					named := map[string]int{}
					for _, w := range strings.FieldsFunc(line, func(r rune) bool { return unicode.IsSpace(r) || strings.ContainsRune(`,()"`, r) }) {
						if w = strings.TrimRight(w, ".:"); legal[w] {
							named[w]++
							if named[w] > 1 {
								t.Fatalf("/move %s names %s twice: %q", text, w, line)
							}
						}
					}
				}
				if !played {
					m := moves[(ply*7)%len(moves)]
					f.expect(who, "/move "+m.Text, "played", false)
				}
			}
			if tried < 20 {
				t.Fatalf("only %d wrong moves tried", tried)
			}
		})
	}
}

// wrongMoves makes move texts that are mostly not legal: legal moves'
// pieces going elsewhere, other pieces moving, capture series cut short.
func wrongMoves(v rules.View, moves []rules.Move) []string {
	var out []string
	step := func(from rules.Square) {
		for _, d := range [][2]int{{1, 1}, {-1, 1}, {1, -1}, {-1, -1}, {2, 2}, {0, 1}} {
			to := rules.Square{File: from.File + int8(d[0]), Rank: from.Rank + int8(d[1])}
			if to.File >= 0 && to.Rank >= 0 && int(to.File) < v.Size && int(to.Rank) < v.Size {
				out = append(out, fmt.Sprintf("%v-%v", from, to))
			}
		}
	}
	for i, m := range moves {
		if i < 3 && !m.Pass {
			step(m.From)
		}
		if cut := strings.LastIndexAny(m.Text, "x-:"); cut > 0 && strings.IndexAny(m.Text, "x-:") < cut {
			out = append(out, m.Text[:cut])
		}
	}
	for i, p := range v.Pieces {
		if i%5 == 0 {
			step(p.Square)
		}
	}
	if len(out) > 24 {
		out = out[:24]
	}
	return out
}
