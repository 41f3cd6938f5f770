// Package console is the chat on a terminal: each input line is a message
// from the current speaker to the command language of package chat, and
// "/as NAME" changes the speaker, so that two or four people can share a
// keyboard (or a script can play a whole game). Replies are printed, and
// after each move the board as text and, when a drawing function is given,
// the path of a PNG picture of it. It reads until the end of its input.
package console
