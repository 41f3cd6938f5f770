// Package ultradamas implements Ultradamas ("stacks"), the draughts
// variant whose pieces climb six levels: man, king, triple king, quad king,
// ultra king and double ultra king. The rules are those of the project's
// rules page (shared/rules/ultradamas.md), from a Spanish article.
//
// The fast API is for the computer opponent and perft: Position is a
// comparable value (bitboards: both sides, a level 1-6 per piece, the
// level of the piece an ultra king carries, the side to move and the plies
// since the last capture or promotion); Move is a 16-byte value; Moves
// appends the legal moves to a buffer, Apply plays one, Perft counts.
// Record keeps a whole game (formations and moves) and writes and reads
// it as text. State adapts all this to rules.Game and rules.State, with the
// formation phase (rules.Former), rules.Perfter and rules.Recorder.
//
// Where the page leaves a case open, this package reads it as follows.
//   - A series may go on with any jump, friendly or capturing, and may stop
//     only where the piece cannot capture; a series that captures nothing
//     and ends on its start square is no move. The move's identity is the
//     piece, the end square and the set of captured pieces; its text shows
//     the shortest route (the first found, directions tried clockwise from
//     north), and any route that makes the same move is accepted as input.
//   - A loaded ultra king cannot climb onto another one (a carrier holds one
//     piece), so only an unloaded ultra king merges.
//   - A double ultra king's two actions are one move: its load and drop of
//     the same piece may both happen in one turn, and a teleport may be
//     undone by the second action.
//   - Merging into a double ultra king is a promotion (the level rises), so
//     it resets the 80-ply counter, as do drops onto a promotion rank.
//   - The game ends for a side with no piece or no move before the draw
//     rules are looked at.
//   - In the formation phase, FEN, View and Perft use the formations given
//     so far and the default formation for the sides still pending.
package ultradamas
