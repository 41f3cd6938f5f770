// Package halma is the Halma engine: the 16x16 board for two and four
// players and the 8x8 and 10x10 boards for two, with the rules of
// shared/rules/halma.md.
//
// The fast typed API is for searching: a Position is a small comparable
// value (one 256-bit Board per seat, the seat to move and the winner), a
// Move is its start and end square, and Moves builds the jump closure of
// each piece with a flood over the jump targets rather than a search over
// paths. A Variant fixes the board, the number of players and the
// leave-home rule.
//
// Game and State adapt it to the rules.Game and rules.State interfaces
// (with rules.Perfter and rules.Recorder); ReadRecord reads back what
// Record writes.
//
// In the four-player game a player may leave and the others play on
// (rules.Retirer, Position.Retire): its pieces leave the board, the turn
// order skips it, and the last player left wins. The FEN shows such a
// player as an empty field and the record as a line "retire N".
//
// Squares are numbered rank*16+file for every board size, so the same
// tables and Board type serve the three boards.
package halma
