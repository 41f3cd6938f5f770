// Package telegram is the Telegram adapter: it plays the bot's games in
// Telegram groups, forum topics and private chats, over minutes or days.
//
// A Bot receives updates by long polling (getUpdates) or, when configured,
// by webhook on its own HTTP server, whose secret-token header it checks.
// Commands (/move c3-d4, /play@ThisBot spanish @bob) go to the chat
// handler of package chat as they are typed; commands addressed to another
// bot are ignored. Every board is sent as a photo whose caption names the
// game, the last move and the player to move as a text mention, with the
// buttons Move, Draw and Resign: Move opens a keyboard of the pieces that
// can move, then one of their targets (chat.Picker), so a move takes two
// taps. Callback data carries a version of the session (its number of
// actions and a hash of its position), so a press on an old keyboard is
// refused with an alert and plays nothing.
//
// Telegram gives bots no user id for an @username, so a challenge to @bob
// is bound to the name: only a presser whose username is bob may accept it.
//
// Sending keeps Telegram's limits. Each chat has its own queue, which
// never blocks another chat's: in it a game's news (a move's board, a
// turn ping, a result, a challenge, a clock's notice) goes before the
// answers to commands that changed nothing (chat.Reply.Lookup), a newer
// board replaces an unsent /board answer, and the same answer waiting
// twice goes once; news is never dropped. Into each chat the bot sends a
// burst of ChatBurst messages, then one every ChatEvery; into a group at
// most GroupLimit per GroupWindow; across all chats at most GlobalLimit a
// second, the chats taking turns. A share of each chat's limits is kept
// for news, so that a chat flooded with lookups still takes a move's
// board at once. A 429 answer is waited out for its retry_after and never
// counts as a failure; a network failure or a 5xx answer is tried again
// after a pause doubling up to a minute, until the bot stops; a message
// is given up only when Telegram says it can never go (blocked, removed
// from the group, chat gone), with one log line, and then the chat's
// queue goes with it. The time of all this is Config.Clock. A picture
// already sent is sent again by its file_id. Updates are applied once: the update and callback ids are kept
// to drop a second delivery, and passed to the sessions service as the
// request id. An update is confirmed to Telegram (the offset of the next
// getUpdates, or the answer to the webhook's request) only once its
// handling is over, and a stopping bot confirms what it handled: a bot
// killed in the middle of a command gets it again at its next start.
//
// When a new board comes into a chat or topic, the keyboard of the one
// before is taken off, so that only the newest board has buttons (the bot
// remembers the boards until it stops: after a restart the last board
// before it keeps its buttons, until a press on them once the game has
// moved on is refused as out of date and takes them off).
// The command menu is published per scope: private chats get every
// command, groups the list without /notify.
//
// While the network is down or Telegram answers 5xx, the calls of the
// start (getMe, setMyCommands, ...) and the polling are tried again after
// a pause that doubles from Config.RetryPause up to a minute, one log line
// per failed attempt: Run ends only with its context, or with an error for
// a token or a webhook that Telegram refuses.
//
// Tournaments (/tournament, typed as text like the other commands) are
// played in forum supergroups: Bot.Places opens each game in a forum
// topic of its own ("#3 · Round 2: alice – bob"), where its board is
// posted mentioning both players; the pairings, each round's standings
// (a table and a picture) and the final standings go to the topic where
// the tournament was opened. /tournament new is refused, with the reason,
// in a group without topics and where the bot is not an administrator
// allowed to manage topics (getChat, getChatMember). A chat's creator and
// administrators may start and cancel its tournaments as the organiser
// may.
//
// Bot implements sessions.Notifier: players who ask for it with /notify on
// get a private message when it is their turn (Telegram lets a bot write
// only to users who started a private chat with it, so /notify on in a
// group may answer with a t.me link that does both). The choices are kept
// through Config.Prefs (the storage package's Store), read by New and
// written at each /notify on|off and when a user blocks the bot (which
// turns the pings off); without Prefs they last until the bot stops.
package telegram
