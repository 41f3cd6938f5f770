package chat

import (
	"testing"

	"github.com/boardgamebot/bot/rules"
	"github.com/boardgamebot/bot/sessions"
)

// movesState is a position that has only its legal moves.
type movesState struct {
	rules.State
	moves []rules.Move
}

func (s movesState) Moves() []rules.Move { return s.moves }

func snapshotWith(texts ...string) *sessions.Snapshot {
	var ms []rules.Move
	for _, t := range texts {
		ms = append(ms, rules.Move{Text: t})
	}
	return &sessions.Snapshot{Record: &sessions.Record{}, State: movesState{moves: ms}}
}

// TestIllegalMoveListsMovesOnce: the reply to an illegal move keeps the
// rules' reason and gives one list of legal moves, whatever list the
// reason carries, and /moves.
func TestIllegalMoveListsMovesOnce(t *testing.T) {
	w, err := NewCatalogues("en")
	if err != nil {
		t.Fatal(err)
	}
	en := w.In("en")
	seven := snapshotWith("a2-b3", "b3-a4", "b3-c4", "d3-c4", "d3-e4", "f3-e4", "f3-g4")
	for _, tc := range []struct {
		name string
		err  *rules.Error
		s    *sessions.Snapshot
		want string
	}{
		{"draughts, a piece that cannot move", coded(rules.CodePieceCannotMove, "Move", "a4-b5", "Square", "a4"), seven,
			"a4-b5 is not legal: the piece on a4 cannot move. Legal moves: a2-b3, b3-a4, b3-c4, d3-c4, d3-e4, … (/moves lists all 7)."},
		{"the piece's own moves in the reason", coded(rules.CodeNotLegalFrom, "Move", "b3-a5", "Square", "b3", "Moves", "b3-a4, b3-c4"), seven,
			"b3-a5 is not legal (legal from b3: b3-a4, b3-c4). /moves lists all 7 legal moves."},
		{"a series that goes on", coded(rules.CodeStopsTooEarly, "Move", "b3-d5", "Moves", "b3-c4"), seven,
			`b3-d5 stops too early: the series must go on (b3-c4). /moves lists all 7 legal moves.`},
		{"halma: squares, not moves", coded(rules.CodeCannotReach, "Move", "a2-c4", "Square", "a2", "To", "c4", "Squares", "b3"), seven,
			`a2-c4: a2 cannot reach c4 (it can reach b3). Legal moves: a2-b3, b3-a4, b3-c4, d3-c4, d3-e4, … (/moves lists all 7).`},
		{"few moves", coded(rules.CodeNoPiece, "Move", "a4-b5", "Square", "a4"), snapshotWith("c3-d4", "c3-b4"),
			"a4-b5: there is no piece on a4. Legal moves: c3-d4, c3-b4 (/moves lists all 2)."},
		{"one move", coded(rules.CodeMustCapture, "Move", "c3-d4", "Squares", "c3"), snapshotWith("c3xe5"),
			"c3-d4: a capture is obligatory: c3 can capture. The only legal move: /move c3xe5."},
		{"one move, named", coded(rules.CodeNotLegalFrom, "Move", "c3xe5xg7", "Square", "c3", "Moves", "c3xe5"), snapshotWith("c3xe5"),
			`c3xe5xg7 is not legal (legal from c3: c3xe5). /moves shows the only legal move.`},
		{"no code: a line for the kind", &rules.Error{Kind: rules.ErrIllegal, Msg: "an English reason"}, snapshotWith("c3-d4", "c3-b4"),
			"That move cannot be played here. Legal moves: c3-d4, c3-b4 (/moves lists all 2)."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := en.illegalMove(tc.s, en.rulesText(tc.err)); got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

// coded is a rules error of kind ErrIllegal with a code and its arguments.
func coded(code rules.Code, kv ...string) *rules.Error {
	return &rules.Error{Kind: rules.ErrIllegal, Code: code, Args: kv, Msg: "English for logs"}
}
