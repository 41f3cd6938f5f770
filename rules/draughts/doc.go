// Package draughts is the engine of the three 8x8 draughts games of the bot:
// Spanish draughts (spanish), the family rules Damas (damas, with optional
// huffing) and German Dame (dame, flying or short kings). The rules are
// those of shared/rules/draughts.md; the differences between the games are
// the fields of a Variant value, and one move generator serves them all.
//
// The fast typed API is what the computer opponent searches on:
//
//   - Position is a comparable value of three bitboards (one bit per playing
//     square, see Field) and the side to move; == compares positions.
//   - Move is a small value: start, landings, end and the captured pieces.
//     Two series with the same start, end and captured set are one move.
//   - Variant.Moves generates the legal moves (obligatory capture with the
//     game's precedence), Variant.Apply plays one, Variant.Perft counts.
//
// Game is the record of a whole game: its history, the counters behind the
// automatic draws, huffing rights and the outcome. New and the adapter types
// make the games available through the rules.Game and rules.State
// interfaces; FEN, move text and PDN are read and written here too.
package draughts
