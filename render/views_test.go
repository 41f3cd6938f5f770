package render

import (
	"github.com/boardgamebot/bot/rules"
)

// Hand-made views, shaped as the rules packages build them.

func sq(name string) rules.Square {
	s, err := rules.ParseSquare(name, 16)
	if err != nil {
		panic(err)
	}
	return s
}

func squares(names ...string) []rules.Square {
	var out []rules.Square
	for _, n := range names {
		out = append(out, sq(n))
	}
	return out
}

// draughtsBoard returns the playing squares (a1 dark: the dame and damas
// squares) and their numbers, 1 at h8's side as in PDN, 32 at a1.
func draughtsBoard() ([]rules.Square, map[rules.Square]int) {
	var play []rules.Square
	nums := map[rules.Square]int{}
	n := 0
	for r := 7; r >= 0; r-- {
		for f := 7; f >= 0; f-- {
			if (f+r)%2 == 0 {
				s := rules.Square{File: int8(f), Rank: int8(r)}
				play = append(play, s)
				n++
				nums[s] = n
			}
		}
	}
	return play, nums
}

// draughtsView: 8x8 draughts after Black's king captured h8xf6xd4
// (taking g7 and e5); White (seat 0) to move, and its men on c3 and e3
// must capture the king.
//
//	8 . b . . . . . .
//	7 . . . b . . . .
//	6 . . . . . . . .
//	5 . . . . . . b .
//	4 . . . B . . . .
//	3 . . w . w . . .
//	2 . w . . . . . W
//	1 . . . . . . . .
//	  a b c d e f g h
func draughtsView() rules.View {
	play, nums := draughtsBoard()
	return rules.View{
		Size: 8, Playable: play, Numbers: nums, Turn: 0,
		Pieces: []rules.Piece{
			{Square: sq("b2"), Seat: 0, Level: 1},
			{Square: sq("c3"), Seat: 0, Level: 1},
			{Square: sq("e3"), Seat: 0, Level: 1},
			{Square: sq("h2"), Seat: 0, Level: 2},
			{Square: sq("d4"), Seat: 1, Level: 2},
			{Square: sq("g5"), Seat: 1, Level: 1},
			{Square: sq("b8"), Seat: 1, Level: 1},
			{Square: sq("d7"), Seat: 1, Level: 1},
		},
		Movable: squares("c3", "e3"),
	}
}

// draughtsLast is the last move of draughtsView.
func draughtsLast() *rules.Move {
	return &rules.Move{
		Text: "h8xf6xd4", From: sq("h8"), To: sq("d4"),
		Path: squares("h8", "f6", "d4"), Captured: squares("g7", "e5"),
	}
}

// ultraView: Ultradamas with every level and a carried piece, Black
// (seat 1) to move.
//
//	8 . . . . . . 1 .
//	7 . . . . . 2 . .
//	6 . 6 . . . . . .
//	5 . . . . 4 . . .
//	4 . . . 3 . . . .
//	3 . . 5+2 . . . .
//	2 . 2 . . . . . .
//	1 1 . . . . . . .
func ultraView() rules.View {
	return rules.View{
		Size: 8, Turn: 1,
		Pieces: []rules.Piece{
			{Square: sq("a1"), Seat: 0, Level: 1},
			{Square: sq("b2"), Seat: 0, Level: 2},
			{Square: sq("c3"), Seat: 0, Level: 5, Carries: 2},
			{Square: sq("d4"), Seat: 0, Level: 3},
			{Square: sq("e5"), Seat: 1, Level: 4},
			{Square: sq("b6"), Seat: 1, Level: 6},
			{Square: sq("f7"), Seat: 1, Level: 2},
			{Square: sq("g8"), Seat: 1, Level: 1},
			{Square: sq("h1"), Seat: 0, Level: 4},
			{Square: sq("h3"), Seat: 1, Level: 5},
		},
		Movable: squares("e5", "b6", "f7", "g8", "h3"),
	}
}

// ultraLast is Red's last move in ultraView: the triple king's jump
// d2xd4 over d3.
func ultraLast() *rules.Move {
	return &rules.Move{Text: "d2xd4", From: sq("d2"), To: sq("d4"), Path: squares("d2", "d4"), Captured: squares("d3")}
}

// camp returns the staircase camp in the corner at (cf, cr) with the given
// row lengths, counted from the corner.
func camp(n, cf, cr int, rows []int) []rules.Square {
	df, dr := 1, 1
	if cf != 0 {
		df = -1
	}
	if cr != 0 {
		dr = -1
	}
	var out []rules.Square
	for i, l := range rows {
		for j := 0; j < l; j++ {
			out = append(out, rules.Square{File: int8(cf + df*j), Rank: int8(cr + dr*i)})
		}
	}
	return out
}

// halmaView: Halma on a 16x16 board with four players (or two), each
// camp full of its owner's pieces except for a few that left it.
func halmaView(players int) rules.View {
	n := 16
	rows := []int{4, 4, 3, 2}
	corners := [][2]int{{0, 0}, {0, n - 1}, {n - 1, n - 1}, {n - 1, 0}}
	v := rules.View{Size: n, Turn: 1, Movable: squares("b13", "c14", "d15", "d16")}
	if players == 2 {
		rows = []int{5, 5, 4, 3, 2}
		corners = [][2]int{{0, 0}, {n - 1, n - 1}}
		v.Movable = squares("o12", "n13", "m14", "l15", "l16")
	}
	for seat, c := range corners {
		cs := camp(n, c[0], c[1], rows)
		v.Camps = append(v.Camps, cs)
		for i, s := range cs {
			if i == 0 && seat == 0 { // seat 0's a1 piece went to g7
				s = sq("g7")
			}
			v.Pieces = append(v.Pieces, rules.Piece{Square: s, Seat: seat, Level: 1})
		}
	}
	return v
}

// halmaLast is seat 0's last move in halmaView: a series of jumps from
// a1 to g7 (the pieces jumped over are not part of the fixture).
func halmaLast() *rules.Move {
	return &rules.Move{Text: "a1-c3-e5-g7", From: sq("a1"), To: sq("g7"), Path: squares("a1", "c3", "e5", "g7")}
}
