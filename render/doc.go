// Package render draws the board pictures the bot posts after every turn
// and the animated GIF replays of finished games, for every game, from
// the platform-neutral rules.View and rules.Move only.
//
// gg draws each theme's frame (margin and coordinates), piece sprites and
// squares once per picture size; a picture is then composed by copying
// those squares, already in palette indices, into an image.Paletted with
// the theme's fixed palette, and written as PNG (zlib at BestSpeed, rows
// stored as differences from the row above, see encoder). GIF
// frames share that palette, so nothing is quantised per frame, and each
// frame after the first holds only the squares that changed.
//
// What a picture shows:
//   - the board, with the files and ranks on all four edges, and, as an
//     option, the draughts square numbers small in the top-left corner of
//     each playing square. Every board is checkered with a1 dark, as real
//     boards are, so Spanish draughts shows its pieces on the light squares
//     (b1, d1, ...) and dame and damas on the dark ones;
//   - the pieces as stacks of discs in their seat's color: White and
//     Black in the draughts games, Red and Black in Ultradamas, red, blue,
//     green and yellow in Halma. A level-2 piece (a king) is two discs with
//     a crown; levels 3 and 4 are three and four discs with the level's
//     digit; level 5 (ultra king) is own/opponent/own discs with a 5;
//     level 6 (double ultra king) is two such sandwiches with a 6; the piece
//     an ultra king carries is a small disc with its level at the top right;
//   - the last move: its start and end squares filled, a dot on each
//     square a series passed through, a red cross on each captured square;
//   - the pieces that can move (View.Movable) framed;
//   - Halma camps tinted and outlined in their owners' colors.
//
// The board is seen from the viewer's side: with two players, seat 1 sees
// it turned 180°; with four, it is turned so that the viewer's home corner
// is at the bottom left (where seat 0's a1 is): seat 1 a quarter turn
// anticlockwise, seat 2 a half turn, seat 3 a quarter turn clockwise. The
// coordinates on the edges follow the turn; Layout gives the squares in
// that order, for text boards. Replays are seen from seat 0, and show the
// square numbers of the views that have them (the draughts games).
package render
