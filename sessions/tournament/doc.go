// Package tournament is the pure core of tournaments: round-robin
// schedules, Swiss pairings and standings. It does no I/O, reads no clock
// and draws no random numbers; everything it returns is a value with JSON
// fields, ready to be stored.
//
// # Round-robin
//
// 3 to 12 players play the FIDE Berger tables (Handbook C.05, Annex 1),
// the players numbered in sign-up order, with the colours of the table.
// An odd count adds a dummy as the last number: meeting it is a bye. The
// double round-robin plays the table a second time with colours reversed.
//
// # Swiss (a simplified Dutch system)
//
//  1. The players not withdrawn are ranked by score, then rating, then id.
//     A late joiner enters with zero points.
//  2. With an odd count, the bye goes to the lowest-ranked player who has
//     not had one and without whom the others can be paired. A bye is
//     worth a win; nobody has two.
//  3. The highest-ranked unpaired player is paired first, with, in order of
//     preference: the player half his score group below him (the top half
//     of a group meets the bottom half), the rest of his group downwards,
//     then upwards, then the players of lower groups by rank (floating
//     down when a group is odd or cannot be paired within itself).
//  4. Two players never meet twice (a forfeited game counts as a meeting).
//  5. Colours count games played on the board only. Nobody gets the same
//     colour three times in a row, nor two more Whites than Blacks or the
//     reverse. Of two players, White goes to the one with fewer Whites than
//     Blacks so far; on equal balance to the one who had Black last (or
//     who has not played yet, against one who had White last); else the
//     higher ranked alternates; when neither has played yet, the higher
//     ranked has White on odd boards and Black on even ones.
//  6. When a choice leads to no pairing of the rest, the search backtracks
//     (within and across score groups, and over the choice of bye) up to
//     a bound of two million steps. When no pairing exists, Swiss returns
//     ErrNoPairing; ErrSearchLimit (also an ErrNoPairing) when it gave up.
//
// # Standings
//
// Players are ranked by points, then Buchholz, then Sonneborn-Berger, then
// wins. A win is 1, a draw ½, a loss 0; a forfeit scores as a win for the
// player present and a loss for the absent one, and a bye as a win.
// Buchholz is the sum of the points of every opponent met, forfeits
// included; a bye adds nothing. Sonneborn-Berger adds the points of each
// opponent beaten (forfeits included) and half those of each opponent
// drawn. Wins count games won on the board or by forfeit, not byes.
// Withdrawn players stay in the standings with what they scored.
package tournament
