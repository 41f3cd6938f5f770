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
// # Review
//
// Review analyses a finished game: each position is searched at a budget
// of positions (ReviewOptions, DefaultReviewNodes; no time limit, so every
// process gives the same review for the same table size), for the best
// move and its value, and the value after the move played (with two
// seats, the next position's search, negated). Values become winning
// chances: in the draughts games and Ultradamas, 1/(1+e^(-v/100)) for an
// evaluation v in hundredths of a man (even is 50%, a man up about 74%,
// two men 89%; a forced win found is 100%, a forced loss 0%). In Halma
// the evaluation is the difference of the seats' distances to their
// camps (the cost that the search minimises): two seats use the logistic
// with the scale 400, four seats a softmax of -cost/400 over the seats,
// the mover's chances from the paranoid search's score v (the others'
// mean cost minus its own) as 1/(1+3e^(-v/400)). A move's loss is the
// mover's chances with the best move minus after the move played, in
// percentage points; a move marked from 10 points is checked against the
// best move searched one ply in at the same budget, so that both are seen
// at the same depth. Marks (lichess's thresholds): 10 an inaccuracy (?!),
// 20 a mistake (?), 30 a blunder (??). Material counts the pieces the move
// loses against the best move at the ends of the two searched lines (the
// captures in progress played out; marked moves only). A seat's accuracy
// is the mean over its moves with a choice (a forced move counts for
// nothing) of lichess's per-move accuracy:
// 103.1668·e^(-0.04354·loss) - 3.1669, clamped to [0, 100].
//
// The package imports the rules packages and the standard library only. It
// keeps no global state; the time limit is a context deadline, and the
// caller's context cancels a search.
package ai
