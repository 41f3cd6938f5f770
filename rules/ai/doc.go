// Package ai is the computer opponent of every game of the bot.
//
// A Player picks a move for the seat to move in any rules.State of the
// registry (rules/games). It finds the game's typed engine behind the state
// and searches with it:
//
//   - The draughts games (spanish, damas, dame) and Ultradamas: iterative
//     deepening negamax alpha-beta with principal variation search, a
//     transposition table of fixed size with Zobrist keys, move ordering (the
//     table's move, captures, killer moves, the history heuristic), late
//     move reductions, a
//     quiescence search of captures (captures are obligatory, so there is no
//     standing pat while one is on the board), forced moves searched without
//     cost in depth, repetitions scored as draws, and an evaluation of
//     material (kings and levels weighted), advancement, the back-rank
//     guard, the centre and the men's mobility.
//   - Halma for two players: the same search, evaluating the distance of
//     each side's pieces to its target camp (and the leave-home rule).
//   - Halma for four players: a paranoid search (the three others play
//     against the computer), every move of its own at the root, the most
//     advancing moves of anyone below it.
//
// Levels 1 to 5 set the search's depth, node count and time. The weak
// levels add noise to the evaluation, so level 1 drops pieces a beginner can
// take; level 5 searches for the whole time budget (Config.MaxTime, 1 s by
// default). The seed passed in decides between equal moves and the noise:
// the same state, level and seed give the same move at levels 1 to 4.
//
// A Player runs at most Config.Searches searches at once, each with its
// own transposition table. The searches waiting for a table take turns
// between their owners (WithOwner: the bot gives each person's games one
// owner): each owner waiting gets one search per round, so a search waits
// for at most one search per other owner waiting, however many searches
// one owner queued. While searches wait, level 5 gets only its share of
// the time, MaxTime x Searches / (Searches + waiting), but it always does
// at least level 4's work (level 4's depth, or its count of positions), so
// that it never plays weaker than level 4.
//
// With damas huff=yes the computer always makes the largest capture (so it
// is never huffed) and, when it may huff, Huff says which piece to take.
//
// The package imports the rules packages and the standard library only. It
// keeps no global state; the time limit is a context deadline, and the
// caller's context cancels a search.
package ai
