package web

import (
	"slices"
	"time"

	"github.com/boardgamebot/bot/chat"
	"github.com/boardgamebot/bot/render"
	"github.com/boardgamebot/bot/rules"
	"github.com/boardgamebot/bot/sessions"
)

// State is a game as a page shows it, as values, with its words in the
// page's language: the page draws it and never decides what is legal (it
// matches taps against Moves, and the server checks every move again).
type State struct {
	// V changes at every change of the game (the record's version).
	V int `json:"v"`
	// Phase is "challenge", "setup", "playing", "finished" or "gone".
	Phase string `json:"phase"`
	Game  string `json:"game"`
	Size  int    `json:"size"`
	// Rows are the squares as the page lays them out, top row first,
	// from the viewer's side (as the pictures: render.Layout).
	Rows [][]string `json:"rows,omitempty"`
	// Numbers are the draughts squares' numbers.
	Numbers map[string]int `json:"numbers,omitempty"`
	// Playable are the squares pieces stand on (nil: every square).
	Playable []string `json:"playable,omitempty"`
	// Camps are Halma's camps, per seat.
	Camps   [][]string `json:"camps,omitempty"`
	Pieces  []Piece    `json:"pieces"`
	Turn    int        `json:"turn"`
	FEN     string     `json:"fen"`
	Movable []string   `json:"movable,omitempty"`
	// Moves are the legal moves, for a page that plays (nil for one that
	// watches).
	Moves []Move `json:"moves,omitempty"`
	Last  *Move  `json:"last,omitempty"`
	Seats []Seat `json:"seats"`
	// You are the seats the page's user plays (still in the game).
	You []int `json:"you,omitempty"`
	// History lists the moves played, in order (the move list).
	History []Played `json:"history"`
	// DrawOffer and Takeback are the seats that offer a draw, that ask
	// to take their move back.
	DrawOffer []int `json:"drawOffer,omitempty"`
	Takeback  []int `json:"takeback,omitempty"`
	// Pending are the seats still to choose a formation (Ultradamas).
	Pending []int `json:"pending,omitempty"`
	// Huffable are the squares the player to move may huff (Damas).
	Huffable []string `json:"huffable,omitempty"`
	// Deadline is when the player to move runs out of time (zero: no
	// clock); Now is the server's clock when the state was made.
	Deadline time.Time `json:"deadline,omitzero"`
	Now      time.Time `json:"now"`
	// Winner is the winning seat of a finished game, -1 for none.
	Winner int `json:"winner"`
	// GameID is the finished game's id in the history.
	GameID string `json:"gameId,omitempty"`
	// Words are the state's lines in the page's language.
	Words BoardWords `json:"words"`
}

// BoardWords are what a state says, worded in the page's language by the chat
// handler (chat.BoardWords).
type BoardWords struct {
	Title   string   `json:"title"`
	Players string   `json:"players"`
	Status  string   `json:"status"`
	Notes   []string `json:"notes,omitempty"`
	Last    string   `json:"last,omitempty"`
}

// Piece is a piece on a square: its seat, its level (1 a man, 2 a king,
// up to 6 in Ultradamas) and the level of the piece it carries.
type Piece struct {
	Square  string `json:"s"`
	Seat    int    `json:"o"`
	Level   int    `json:"l"`
	Carries int    `json:"c,omitempty"`
}

// Move is a legal move as a page matches taps against it: its text (what
// is sent to play it), its squares and the squares it captures.
type Move struct {
	Text     string   `json:"t"`
	From     string   `json:"f"`
	To       string   `json:"to"`
	Path     []string `json:"p,omitempty"`
	Captured []string `json:"x,omitempty"`
	Pass     bool     `json:"pass,omitempty"`
}

// Seat is one seat of the game.
type Seat struct {
	Label    string `json:"label"`
	Player   string `json:"player"`
	Colour   string `json:"colour"`
	Computer bool   `json:"computer,omitempty"`
	Retired  bool   `json:"retired,omitempty"`
}

// Played is one move of the move list: the seat that played it and its
// text.
type Played struct {
	Seat int    `json:"seat"`
	Text string `json:"t"`
}

// Frames are the positions of a game, for stepping through it: Pieces[0]
// before the first move, Pieces[i] after History[i-1]; Moves[i-1] is
// that move, to mark it.
type Frames struct {
	Pieces [][]Piece `json:"pieces"`
	Moves  []Move    `json:"moves"`
	// Review is the game's stored review (nil: none yet).
	Review *Review `json:"review,omitempty"`
}

// viewer is who a state is made for: the page's user (zero for a page
// that watches), whether the page plays, its language and the seat whose
// side the board is seen from.
type viewer struct {
	user sessions.User
	play bool
	lang string
	seat int
}

// key names what a state for v holds, to share its encoding between the
// pages of one game that see the same.
func (v viewer) key() string {
	u := ""
	if v.play {
		u = v.user.ID + "\x00" + v.user.Name
	}
	return v.lang + "\x00" + u + "\x00" + string(rune('0'+v.seat))
}

// seatOf is the seat whose side user sees the game s from: their own
// (the first they hold), else the first.
func seatOf(s *sessions.Snapshot, u sessions.User) int {
	if u.IsZero() {
		return 0
	}
	if seats := s.Record.SeatsOf(u); len(seats) > 0 {
		return seats[0]
	}
	return 0
}

// buildState turns the session s into the state v sees; words words it.
func buildState(s *sessions.Snapshot, v viewer, words *chat.Handler, now time.Time) State {
	st := State{V: s.Record.Version, Game: s.Record.Game, Turn: s.Turn(), Now: now.UTC(), Winner: -1}
	rec := s.Record
	bw := words.BoardWords(v.lang, s, v.user, now)
	st.Words = BoardWords{Title: bw.Title, Players: bw.Players, Status: bw.Status, Notes: bw.Notes, Last: bw.Last}
	switch {
	case rec.Result != nil:
		st.Phase = "finished"
		st.Winner = rec.Result.Winner
		st.GameID = rec.ID
	case s.Phase() == sessions.PhaseChallenge:
		st.Phase = "challenge"
	case len(s.Pending()) > 0:
		st.Phase = "setup"
	default:
		st.Phase = "playing"
	}
	var view rules.View
	switch {
	case s.State != nil:
		view = s.State.View()
		st.FEN = s.State.FEN()
	case s.Game != nil:
		view = s.Game.Start(rec.First).View() // a challenge: the start, to show something
		view.Turn, view.Movable = -1, nil
	}
	if rec.Result != nil {
		view.Turn, view.Movable = -1, nil
	}
	st.Size = view.Size
	if rows, err := render.Layout(view, v.seat); err == nil {
		st.Rows = squareRows(rows)
	}
	if len(view.Numbers) > 0 {
		st.Numbers = map[string]int{}
		for sq, n := range view.Numbers {
			st.Numbers[sq.String()] = n
		}
	}
	st.Playable = squareNames(view.Playable)
	for _, camp := range view.Camps {
		st.Camps = append(st.Camps, squareNames(camp))
	}
	st.Pieces = pieces(view.Pieces)
	st.Movable = squareNames(view.Movable)
	for seat, u := range rec.Seats {
		c := ""
		if s.Game != nil {
			c = render.SeatColor(view, seat)
		}
		label := ""
		if seat < len(bw.Seats) {
			label = bw.Seats[seat]
		}
		st.Seats = append(st.Seats, Seat{Label: label, Player: u.Name, Colour: c, Computer: u.Computer, Retired: rec.Retired(seat)})
	}
	if !v.user.IsZero() && v.play {
		st.You = slices.DeleteFunc(rec.SeatsOf(v.user), rec.Retired)
	}
	if s.Last != nil {
		m := move(*s.Last)
		st.Last = &m
	}
	for _, a := range rec.Actions {
		if a.Kind == sessions.ActMove {
			st.History = append(st.History, Played{Seat: a.Seat, Text: a.Text})
		}
	}
	if st.History == nil {
		st.History = []Played{}
	}
	if rec.Result == nil {
		st.DrawOffer = rec.DrawOffer
		st.Takeback = rec.Takeback
		st.Pending = s.Pending()
		st.Deadline = rec.Deadline
		if h, ok := s.State.(rules.Huffer); ok {
			st.Huffable = squareNames(h.Huffable())
		}
		if v.play && s.State != nil && slices.Contains(st.You, st.Turn) {
			for _, m := range s.State.Moves() {
				st.Moves = append(st.Moves, move(m))
			}
		}
	}
	return st
}

// goneState is the state of a game that is no longer there (a challenge
// declined or cancelled).
func goneState(line string) State {
	return State{Phase: "gone", Turn: -1, Winner: -1, Pieces: []Piece{}, History: []Played{}, Seats: []Seat{},
		Words: BoardWords{Status: line}}
}

func move(m rules.Move) Move {
	return Move{Text: m.Text, From: m.From.String(), To: m.To.String(), Path: squareNames(m.Path), Captured: squareNames(m.Captured), Pass: m.Pass}
}

func pieces(ps []rules.Piece) []Piece {
	out := make([]Piece, 0, len(ps))
	for _, p := range ps {
		out = append(out, Piece{Square: p.Square.String(), Seat: p.Seat, Level: p.Level, Carries: p.Carries})
	}
	return out
}

func squareNames(sqs []rules.Square) []string {
	if len(sqs) == 0 {
		return nil
	}
	out := make([]string, len(sqs))
	for i, sq := range sqs {
		out[i] = sq.String()
	}
	return out
}

func squareRows(rows [][]rules.Square) [][]string {
	out := make([][]string, len(rows))
	for i, r := range rows {
		out[i] = squareNames(r)
	}
	return out
}

// frames replays a finished game for stepping through it.
func frames(svc *sessions.Service, rec *sessions.Record) (Frames, error) {
	views, moves, err := svc.Frames(rec)
	if err != nil {
		return Frames{}, err
	}
	var f Frames
	for _, v := range views {
		f.Pieces = append(f.Pieces, pieces(v.Pieces))
	}
	f.Moves = []Move{}
	for _, m := range moves {
		f.Moves = append(f.Moves, move(m))
	}
	return f, nil
}
