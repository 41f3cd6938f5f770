// Package draughts is the engine of the three 8x8 draughts games of the bot:
// Spanish draughts (spanish), the family rules Damas (damas, with optional
// huffing) and German Dame (dame, flying or short kings). The rules are
// those of shared/rules/draughts.md; the differences between the games are
// the fields of a Variant value, and one move generator serves them all.
//
// The fast typed API is what the computer opponent searches on:
//
//   - Position is a comparable value of three bitboards (one bit per playing
//     square, see Square) and the side to move; == compares positions.
//   - Move is a small value: start, landings, end and the captured pieces.
//     Two series with the same start, end and captured set are one move.
//   - Variant.Moves generates the legal moves (obligatory capture with the
//     game's precedence), Variant.Apply plays one, Variant.Perft counts.
//     Variant.PerftCounts counts every depth in one traversal, with bulk
//     counting: plain moves are played straight from the bitboards, the
//     men's single jumps of all men at once, and the last two plies are
//     counted without making the positions when nothing there captures
//     with a king (perft.go). The generator it replaced stays in
//     oldgen_test.go as the reference the tests compare it with.
//
// Game is the record of a whole game: its history, the counters behind the
// automatic draws, huffing rights and the outcome. New and the adapter types
// make the games available through the rules.Game and rules.State
// interfaces; FEN, move text and PDN are read and written here too.
//
// Readings where the rules page leaves room:
//
//   - With huffing (damas huff=yes) every plain move and every complete
//     capture series is legal, whatever it captures; a series still goes on
//     while the piece can capture. A player left with no move but a huff
//     must huff.
//   - Three kings against one (spanish): the count of the stronger side's
//     13 moves starts at the first position with that material in which
//     one of the three kings stands on the long diagonal; any change of
//     material stops it.
//   - A huff is written in PDN as a comment before the huffer's move:
//     {huff 14}.
package draughts
