package rules

import (
	"errors"
	"fmt"
	"strings"
)

// Square is a board square counted from a1: File 0 is file a, Rank 0 is rank 1.
// Boards go up to 16x16 (a1..p16).
type Square struct{ File, Rank int8 }

// String returns the algebraic name of s, such as "c3" or "p16".
func (s Square) String() string {
	if s.File < 0 || s.File > 15 || s.Rank < 0 || s.Rank > 15 {
		return "?"
	}
	return fmt.Sprintf("%c%d", 'a'+s.File, s.Rank+1)
}

// ParseSquare reads an algebraic square ("c3", "P16"), case-insensitively,
// for a board of the given size. It checks only that the square is on the board.
func ParseSquare(text string, size int) (Square, error) {
	t := strings.ToLower(strings.TrimSpace(text))
	if len(t) < 2 || len(t) > 3 || t[0] < 'a' || t[0] > 'z' {
		return Square{}, Errorc(ErrSyntax, CodeNotSquare, []string{"Text", text}, "%q is not a square", text)
	}
	n := 0
	for _, c := range t[1:] {
		if c < '0' || c > '9' {
			return Square{}, Errorc(ErrSyntax, CodeNotSquare, []string{"Text", text}, "%q is not a square", text)
		}
		n = n*10 + int(c-'0')
	}
	f := int(t[0] - 'a')
	if f >= size || n < 1 || n > size || (len(t) == 3 && t[1] == '0') {
		return Square{}, Errorc(ErrSyntax, CodeOffBoard, []string{"Text", text, "Size", fmt.Sprint(size)}, "%q is not a square of the %dx%d board", text, size, size)
	}
	return Square{File: int8(f), Rank: int8(n - 1)}, nil
}

// Error kinds. Every error the rules packages return wraps one of these, so
// that callers (sessions, adapters) can tell them apart with errors.Is and
// turn them into friendly text.
var (
	// ErrSyntax: the text is not a move, square, position or option at all.
	ErrSyntax = errors.New("rules: syntax error")
	// ErrIllegal: the text names no legal move in this position.
	ErrIllegal = errors.New("rules: illegal move")
	// ErrAmbiguous: the text names more than one legal move.
	ErrAmbiguous = errors.New("rules: ambiguous move")
	// ErrGameOver: the game has ended; nothing more may be played.
	ErrGameOver = errors.New("rules: game over")
	// ErrBadPosition: a position (FEN) or formation is malformed or impossible.
	ErrBadPosition = errors.New("rules: bad position")
	// ErrBadOption: an unknown game or option, or a bad option value.
	ErrBadOption = errors.New("rules: bad option")
	// ErrNotNow: the action exists but is not allowed at this point
	// (huffing without the right, a formation after the game started, ...).
	ErrNotNow = errors.New("rules: not allowed now")
	// ErrBadSnapshot: a snapshot (Saver.Save) that Restore cannot read.
	ErrBadSnapshot = errors.New("rules: bad snapshot")
)

// Error is a rules error: a kind (one of the Err variables), a code (what
// exactly, one of the Code constants; empty for errors only developers see:
// snapshots, records, FEN) with its named arguments (squares, moves, numbers:
// never words), and an English line for logs and developer tools. Users see
// the code worded by the chat adapter's catalogue, never Msg. Error()
// returns "rules: " + Msg.
type Error struct {
	Kind error
	Code Code
	// Args are the code's arguments as name, value pairs.
	Args []string
	Msg  string
}

// Arg returns the argument name of the error ("" when it has none).
func (e *Error) Arg(name string) string {
	for i := 0; i+1 < len(e.Args); i += 2 {
		if e.Args[i] == name {
			return e.Args[i+1]
		}
	}
	return ""
}

func (e *Error) Error() string { return "rules: " + e.Msg }

// Unwrap returns the kind, so that errors.Is(err, ErrIllegal) works.
func (e *Error) Unwrap() error { return e.Kind }

// Errorf builds an *Error of the given kind with no code (users see a
// generic line for the kind).
func Errorf(kind error, format string, args ...any) error {
	return &Error{Kind: kind, Msg: fmt.Sprintf(format, args...)}
}

// Errorc builds an *Error of the given kind and code; args are the code's
// arguments as name, value pairs; format and a make the English Msg.
func Errorc(kind error, code Code, args []string, format string, a ...any) error {
	return &Error{Kind: kind, Code: code, Args: args, Msg: fmt.Sprintf(format, a...)}
}

// Move is the platform-neutral description of one legal move: what the
// pictures mark and what the buttons offer. The rules packages have their own
// typed moves; this is the common view of them.
type Move struct {
	// Text is the move in the game's canonical notation ("c3xe5xg7", "a1-e5",
	// "h6-c3;c3xd4"). Play(Text) plays exactly this move.
	Text string
	// From and To are the start and end squares (a pass has From == To and Pass set).
	From, To Square
	// Path is every square the piece stands on, From first and To last
	// (for a double ultra king, both actions' paths one after the other).
	Path []Square
	// Captured lists the squares of the pieces this move captures.
	Captured []Square
	// Pass is set for Halma's pass when a player has no move.
	Pass bool
}

// Outcome says whether a game has ended and how.
type Outcome struct {
	Over bool
	// Winner is the winning seat, or -1 for a draw (and while not Over).
	Winner int
	// Reason says why, as a code; adapters word it.
	Reason Reason
	// N is the number a Reason names: the moves of KingMoves and
	// ThreeKings, the plies of QuietPlies, the move of LeftHome; 0 otherwise.
	N int
}

// Reason is why a game ended: a closed set of codes, worded by the
// adapters. The strings are stable: finished games store them.
type Reason string

// The reasons a game ends.
const (
	NoPieces      Reason = "no-pieces"      // the loser has no pieces left
	NoMove        Reason = "no-move"        // the loser has no legal move
	Repetition    Reason = "repetition"     // draw: the same position a third time
	KingMoves     Reason = "king-moves"     // draw: N moves with kings only
	ThreeKings    Reason = "three-kings"    // draw: three kings against one for N moves
	FewKings      Reason = "few-kings"      // draw: kings only, equal and few
	QuietPlies    Reason = "quiet-plies"    // draw: N plies without capture or promotion
	CampFilled    Reason = "camp-filled"    // Halma: the winner filled the target camp
	OthersLeft    Reason = "others-left"    // the others resigned or abandoned
	LeftHome      Reason = "left-home"      // Halma: a piece still at home after move N
	Resigned      Reason = "resigned"       // a player resigned
	DrawAgreed    Reason = "draw-agreed"    // every player agreed to a draw
	Abandoned     Reason = "abandoned"      // a player let the clock play N moves in a row (sessions)
	TargetReached Reason = "target-reached" // the test game's target (sessions/sessionstest)
)

// Reasons lists every Reason.
func Reasons() []Reason {
	return []Reason{NoPieces, NoMove, Repetition, KingMoves, ThreeKings, FewKings, QuietPlies,
		CampFilled, OthersLeft, LeftHome, Resigned, DrawAgreed, Abandoned, TargetReached}
}

// Piece is what a picture shows of a piece.
type Piece struct {
	Square Square
	// Seat is the owner's seat, 0 to Players()-1.
	Seat int
	// Level is 1 for a man (Halma: every piece), 2 for a draughts king,
	// up to 6 in Ultradamas.
	Level int
	// Carries is the level of the piece an Ultradamas ultra king carries, 0 for none.
	Carries int
}

// View is a snapshot of a position for pictures and text boards. It is built
// fresh on each call and may hold slices.
type View struct {
	// Size is the number of files and ranks (8, 10 or 16).
	Size int
	// Playable, when non-nil, lists the squares pieces stand on (the
	// draughts games use one colour only); nil means every square.
	Playable []Square
	// Numbers gives the numeric name of each playable square for games
	// with numeric notation (the draughts games); nil otherwise.
	Numbers map[Square]int
	// Camps lists, per seat, the squares of that seat's home camp (Halma).
	Camps [][]Square
	// Pieces are the pieces on the board.
	Pieces []Piece
	// Turn is the seat to move (-1 when the game is over or in a formation phase).
	Turn int
	// Movable are the squares of the pieces that can move now; when a
	// capture is obligatory, only the pieces that can capture.
	Movable []Square
}

// Game is one game with its options fixed ("spanish", "dame flying=no",
// "halma size=16 players=4"). It is a value that can be shared freely.
type Game interface {
	// ID is the game's id: spanish, damas, dame, ultradamas or halma.
	ID() string
	// Name is the game's name for people: "Spanish draughts".
	Name() string
	// Options returns the game's options in canonical form, sorted by key,
	// with defaults filled in ("flying=yes"); New(ID, Options) gives an equal game.
	Options() map[string]string
	// Seats names the seats in turn order ("White", "Black"; "Red", "Black";
	// "Player 1" ...). len(Seats()) is the number of players.
	Seats() []string
	// Start returns the initial state; first is the seat that moves first
	// (only Halma draws it; the others ignore it and start with seat 0).
	Start(first int) State
	// Load reads a position in the game's FEN format.
	Load(fen string) (State, error)
}

// State is a game in progress: a position with what the rules need of the
// past (repetitions, draw counters, huffing rights). A State is immutable:
// Play returns a new State and leaves its receiver unchanged, so a caller
// may keep old states (takebacks) and use them from several goroutines.
type State interface {
	// Game is the game this state belongs to.
	Game() Game
	// FEN is the position in the game's FEN format. Load(FEN()) gives a
	// state with the same position (not necessarily the same history).
	FEN() string
	// Turn is the seat to move; -1 when the game is over, or when no one
	// may move yet (an Ultradamas formation phase).
	Turn() int
	// Moves returns the legal moves, sorted by Text; a fresh slice.
	Moves() []Move
	// Play parses text as a move (in any notation the game accepts), finds the
	// legal move it names and plays it. The error is an *Error whose code
	// and arguments say what is wrong.
	Play(text string) (State, Move, error)
	// Outcome reports the end of the game: no pieces, no move, automatic draws.
	Outcome() Outcome
	// View is the position for pictures.
	View() View
}

// Former is a State in a formation phase (Ultradamas): each seat chooses
// where its pieces start before the first move.
type Former interface {
	// Pending lists the seats that have not yet confirmed a formation.
	Pending() []int
	// Form sets seat's formation: the squares as the game's notation writes
	// them, or "default".
	Form(seat int, squares string) (State, error)
}

// Huffer is a State of a game with huffing (damas huff=yes).
type Huffer interface {
	// Huffable lists the squares of the pieces the player to move may huff now.
	Huffable() []Square
	// Huff removes the opponent's piece on the given square.
	Huff(square string) (State, error)
}

// Perfter is a State that counts the leaves of its move tree at a depth,
// with the game's fast internal representation.
type Perfter interface {
	Perft(depth int) uint64
}

// Recorder is a State that writes its whole game as text (PDN for the
// draughts games, the game's move list otherwise). Meta fills the tags.
type Recorder interface {
	Record(meta Meta) string
}

// Meta is what a game record tells besides the moves.
type Meta struct {
	Event  string
	Date   string   // YYYY.MM.DD
	Names  []string // per seat
	Result string   // "1-0", "0-1", "1/2-1/2", "*", or the winner's seat as "seat N" for more players
}

// Retirer is a State of a game of more than two players in which a player
// may leave (resign, or abandon the game) and the others play on.
type Retirer interface {
	// Retire takes seat out of the game: it never moves again and the turn
	// order skips it (when it was to move, the next seat moves). When one
	// seat is left, that seat has won (Outcome says so). Retiring in a
	// two-player game is ErrNotNow: there a resignation ends the game.
	Retire(seat int) (State, error)
}

// Saver is a State that writes what its rules need to go on without its
// past moves: the position, the positions since the last irreversible move
// (repetitions), the draw counters, huffing rights, formation progress.
// Restore(Save()) plays on exactly as the state that was saved: same
// Moves, Outcome, FEN, View, and the same after any sequence of Play.
type Saver interface {
	Save() []byte
}

// Restorer is a Game that reads what its states' Save wrote. A damaged or
// foreign snapshot is an *Error (kind ErrBadSnapshot), never a panic.
type Restorer interface {
	Restore(snapshot []byte) (State, error)
}
