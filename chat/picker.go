package chat

import (
	"sort"

	"github.com/boardgamebot/bot/rules"
)

// PickerPiece is a piece that can move, with the moves it can make, for the
// two-tap move keyboards of Telegram and Discord (a piece, then a target).
type PickerPiece struct {
	From    rules.Square
	Targets []PickerTarget
}

// PickerTarget is one button of the second tap: the move's end square, and
// the move's full text to play. Label is the end square alone when only one
// move of the piece ends there; otherwise (two series with the same ends
// capturing different pieces, an ultra king's two actions) it is the full
// move text, so that every button names exactly one move.
type PickerTarget struct {
	To    rules.Square
	Label string
	Move  string
}

// Picker groups the legal moves of st by the piece that makes them, pieces
// and targets in board order (rank, then file). A Halma jump series is one
// target whatever its path, since a move is its start and end square.
func Picker(st rules.State) []PickerPiece {
	moves := st.Moves()
	byFrom := map[rules.Square][]rules.Move{}
	for _, m := range moves {
		if m.Pass {
			continue
		}
		byFrom[m.From] = append(byFrom[m.From], m)
	}
	var out []PickerPiece
	for from, ms := range byFrom {
		ends := map[rules.Square]int{}
		for _, m := range ms {
			ends[m.To]++
		}
		p := PickerPiece{From: from}
		for _, m := range ms {
			label := m.To.String()
			if ends[m.To] > 1 {
				label = m.Text
			}
			p.Targets = append(p.Targets, PickerTarget{To: m.To, Label: label, Move: m.Text})
		}
		sort.Slice(p.Targets, func(i, j int) bool {
			a, b := p.Targets[i], p.Targets[j]
			if a.To != b.To {
				return squareLess(a.To, b.To)
			}
			return a.Move < b.Move
		})
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool { return squareLess(out[i].From, out[j].From) })
	return out
}

func squareLess(a, b rules.Square) bool {
	if a.Rank != b.Rank {
		return a.Rank < b.Rank
	}
	return a.File < b.File
}
