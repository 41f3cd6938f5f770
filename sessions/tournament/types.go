package tournament

import (
	"errors"
	"fmt"
)

// Result is the outcome of one pairing. It is a closed set; the zero value
// is a game not played yet.
type Result string

const (
	Pending        Result = ""
	WhiteWins      Result = "1-0"
	BlackWins      Result = "0-1"
	Draw           Result = "1/2"
	WhiteByForfeit Result = "+-" // Black forfeited: White scores a win without a game.
	BlackByForfeit Result = "-+" // White forfeited: Black scores a win without a game.
	Bye            Result = "bye"
)

// Valid reports whether r is one of the results above.
func (r Result) Valid() bool {
	switch r {
	case Pending, WhiteWins, BlackWins, Draw, WhiteByForfeit, BlackByForfeit, Bye:
		return true
	}
	return false
}

// Played reports whether the result comes from a game on the board (so it
// counts for colours).
func (r Result) Played() bool { return r == WhiteWins || r == BlackWins || r == Draw }

// Points returns what White and Black score, in half points.
func (r Result) halves() (white, black int) {
	switch r {
	case WhiteWins, WhiteByForfeit, Bye:
		return 2, 0
	case BlackWins, BlackByForfeit:
		return 0, 2
	case Draw:
		return 1, 1
	}
	return 0, 0
}

// Pairing is one game of a round. A bye has the player as White, an empty
// Black and the result Bye.
type Pairing struct {
	White  string `json:"white"`
	Black  string `json:"black,omitempty"`
	Result Result `json:"result,omitempty"`
}

// IsBye reports whether the pairing is a bye.
func (p Pairing) IsBye() bool { return p.Black == "" }

// Round is the list of pairings of one round, numbered from 1.
type Round struct {
	Number   int       `json:"number"`
	Pairings []Pairing `json:"pairings"`
}

// Player is an entrant. Withdrawn players are not paired any more.
type Player struct {
	ID        string `json:"id"`
	Rating    int    `json:"rating"`
	Withdrawn bool   `json:"withdrawn,omitempty"`
}

var (
	// ErrPlayerCount: a round-robin needs 3 to 12 players, a Swiss at least 2.
	ErrPlayerCount = errors.New("tournament: player count out of range")
	// ErrNoPairing: no pairing of the round satisfies the rules.
	ErrNoPairing = errors.New("tournament: no valid pairing")
	// ErrSearchLimit: the bounded search gave up before finding a pairing
	// or proving there is none; it is also an ErrNoPairing.
	ErrSearchLimit = fmt.Errorf("%w (search limit reached)", ErrNoPairing)
	// ErrBadInput: duplicate or empty player ids, unknown results, or
	// rounds naming unknown players.
	ErrBadInput = errors.New("tournament: bad input")
)

func badInput(format string, a ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrBadInput}, a...)...)
}
