// Package chat is the bot's command language, the same on every platform:
// /play, /accept, /move, /board and the rest (see /help). An adapter turns
// a platform event into a Message (who, where, what was typed); Handle calls
// the sessions service and returns a Reply: lines of text, an optional
// request for a picture of the board, and optional buttons. Errors become
// one friendly line that ends with the command that helps, in one place
// (errorReply); raw error texts never reach a chat.
//
// A Reply may also ask for an animated replay (Reply.Replay, drawn with
// render.Renderer.Replay) or carry a file (Reply.Document, /export).
// Things no command answered (the computer's moves, the clock's moves,
// reminders, lapsed challenges) come as sessions.Notice values through the
// adapter's sessions.Notifier; NoticeReply turns each into a Reply.
//
// Handle applies the per-user rate limit (Config.Rate, ratelimit.go) before
// anything else, for every platform: past it, one notice (the catalogue's
// SlowDown), then Reply.Dropped until the user's bucket is full again; a
// player's move at their turn passes once per turn. Adapters that answer a
// command themselves call Admit. The refusals of the per-user caps
// (sessions.ErrCapped) are worded in limits.go.
//
// /notify on|off (turn pings by private message) is Telegram's: the
// Telegram adapter answers it itself; elsewhere Handle says so, and /help
// marks it "(Telegram only)".
package chat
