// Package chat is the bot's command language, the same on every platform:
// /play, /accept, /move, /board and the rest (see /help). An adapter turns
// a platform event into a Message (who, where, what was typed); Handle calls
// the sessions service and returns a Reply: lines of text, an optional
// request for a picture of the board, and optional buttons. Errors become
// one friendly line that ends with the command that helps, in one place
// (errorReply); raw error texts never reach a chat.
package chat
