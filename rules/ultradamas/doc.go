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
// Notation: c3-d4 (step or teleport), c3xe5xg7 (a jump series: the
// landing squares), c3xd4 (consume), g7^h6 (load: g7 climbs onto h6),
// h6^b2 (drop), h6-c3;c3xd4 (a double ultra king's two actions).
// Positions: R:Ra1,b2,3c3,5d4+2:Bf6,2g7,6e5:n12 (see Position.FEN).
//
// The page marks its own readings; where it still leaves a case open, this
// package reads it as follows.
//   - A series may go on with any jump, friendly or capturing, and may stop
//     only where the piece cannot capture; a series that captures nothing
//     and ends on its start square is no move. The move's identity is the
//     piece, the end square and the set of captured pieces; its text shows
//     the shortest route (the first found, directions tried clockwise from
//     north), and any route that makes the same move is accepted as input,
//     as is the start and end alone ("c3xg7") when it names one move.
//   - A loaded ultra king cannot climb onto another one (a carrier holds one
//     piece), so only an unloaded ultra king merges.
//   - A double ultra king's two actions are one move: it may load a piece
//     and drop it in the same turn, or undo its teleport. Two double ultra
//     king moves are the same only when both actions are.
//   - When the side to move can capture, a double ultra king may only play
//     moves that start with a consume; a teleport followed by a consume
//     does not count as a capture of the position before it.
//   - Merging into a double ultra king is a promotion (the level rises), so
//     it resets the 80-ply counter, as does a drop onto a promotion rank.
//   - A side with no piece or no move loses even when the move that left it
//     so also completed a repetition or the 80 plies.
//   - In the formation phase, FEN, View and Perft use the formations given
//     so far and the default formation for the sides still pending; Moves
//     is empty and Turn is -1.
package ultradamas
