package halma

import (
	"strings"
	"testing"

	"github.com/boardgamebot/bot/rules"
)

func TestRecord(t *testing.T) {
	g, _ := New(Variant{Size: 8, Players: 2, LeaveHome: 30})
	s := g.StartState(1)
	for _, mv := range []string{"h5-g4", "d1-e2", "h7-f5", "a2xc4"} {
		var err error
		if s, _, err = s.PlayMove(mv); err != nil {
			t.Fatal(err)
		}
	}
	meta := rules.Meta{Event: "club \"night\"", Date: "2026.11.21", Names: []string{"ann", "bob"}, Result: "*"}
	const want = `[Event "club \"night\""]
[Date "2026.11.21"]
[Game "halma"]
[Size "8"]
[Players "2"]
[LeaveHome "30"]
[First "2"]
[Player1 "ann"]
[Player2 "bob"]
[Result "*"]

1. h5-g4 d1-e2
2. h7-f5 a2-c4
`
	if got := s.Record(meta); got != want {
		t.Fatalf("record:\n%s\nwant:\n%s", got, want)
	}
	checkRecord(t, s, meta)

	// A four-player game from a position, player 3 first.
	g4, _ := New(Variant{Size: 16, Players: 4})
	s4, err := g4.LoadState(crowded)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 6; i++ {
		if s4, _, err = s4.PlayMove(s4.Moves()[i].Text); err != nil {
			t.Fatal(err)
		}
	}
	checkRecord(t, s4, rules.Meta{Names: []string{"a", "b", "c", "d"}, Result: "seat 2"})
	if text := s4.Record(rules.Meta{}); !strings.Contains(text, `[FEN "`+crowded+`"]`) || !strings.Contains(text, "\n2. ") {
		t.Errorf("record lacks the FEN or the second round:\n%s", text)
	}
}

func TestReadRecordErrors(t *testing.T) {
	for _, tt := range []struct {
		text string
		kind error
	}{
		{"[Game \"dame\"]\n", rules.ErrBadOption},
		{"[Size \"9\"]\n", rules.ErrBadOption},
		{"[Size \"8\"]\n[Players \"4\"]\n", rules.ErrBadOption},
		{"[Size 8]\n", rules.ErrSyntax},
		{"[Size \"8\"]\n[First \"3\"]\n", rules.ErrSyntax},
		{"[Size \"8\"]\n1. a1-a2\n", rules.ErrIllegal},
		{"[Size \"8\"]\n1. d1-e2 zz\n", rules.ErrSyntax},
		{"[Size \"8\"]\n[FEN \"8:2:2:a1:h8\"]\n[First \"1\"]\n", rules.ErrBadPosition},
		{"[Size \"8\"]\n[FEN \"8:2:1:a1\"]\n", rules.ErrBadPosition},
		// A tag value may hold an escaped line break: the error quotes it
		// and stays on one line.
		{"[Size \"1\\n6\"]\n", rules.ErrBadOption},
		{"[Players \"2\\n\"]\n", rules.ErrBadOption},
		{"[LeaveHome \"a\\nb\"]\n", rules.ErrBadOption},
	} {
		_, _, err := ReadRecord(tt.text)
		wantKind(t, err, tt.kind)
	}
	// Defaults: the classic game, player 1 first.
	s, _, err := ReadRecord("1. c4-d5 *\n")
	if err != nil || s.Game().Options()["size"] != "16" || s.First() != 0 || len(s.History()) != 1 {
		t.Errorf("%v %v", s, err)
	}
}
