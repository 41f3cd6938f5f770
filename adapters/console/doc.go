// Package console is the chat on a terminal: each input line is a message
// from the current speaker to the command language of package chat, and
// "/as NAME" changes the speaker, so that two or four people can share a
// keyboard (or a script can play a whole game). Replies are printed, and
// after each move the board as text and, when a drawing function is given,
// the path of a PNG picture of it. Notices (the computer's replies, the
// clock's moves, reminders) are printed after the command that caused them
// and while the console waits for input; replays (GIF) and exported games
// are written as files beside the pictures. It reads until the end of its
// input.
package console
