// Package discord serves the bot's command language in Discord servers,
// on github.com/bwmarrin/discordgo.
//
// At start the Bot connects to the gateway with the guilds intent only
// (slash commands need no message content) and registers its slash
// commands with one bulk overwrite: globally, or on one guild when
// Config.GuildID is set. The commands carry the names of the command
// language (/play, /move, /board, ...); each slash command is turned
// back into the text the chat handler parses ("/play spanish @bob
// time=1h"), so that there is one parser for every platform.
//
// /play in a text channel posts the challenge with Accept and Decline
// buttons. When the game starts the bot opens a public thread on the
// challenge message, "alice vs bob · Spanish draughts", where the game is
// played; a thread started on a message has the message's id, so the
// session key {discord, channel, challenge message} is the thread from the
// challenge on. Where the bot may not create threads the game is played in
// the channel itself (one game per channel: a second /play there is refused
// with the reason); the channels whose commands go to such a game are kept
// through Config.Routes (the database), so that a restart keeps them.
//
// After every move the bot posts the board picture, the last move, a
// mention of the player to move (allowed mentions limited to the players),
// the deadline when the game has a clock, and the buttons Moves (select
// menus: a piece, then its target), Draw and Resign (asks to confirm).
// /move autocompletes the legal moves that start with what was typed.
//
// /tournament is one command with subcommands (new, join, leave, start,
// standings, show, cancel), turned into the text "/tournament new spanish
// rounds=3 size=10"; new offers /play's games and time choices, and its
// options autocomplete the chosen game's options. A member with Manage
// Server may start and cancel any tournament of the server, like its
// organiser. A tournament's games are played in public threads the bot
// opens in the tournament's channel, one per game, "Round 1: alice – bob"
// (Bot.Places): the board opens the thread, mentioning both players. Where
// the bot may not create public threads (the permissions of the channel's
// last interaction), /tournament new is refused with the reason. The
// standings (text and picture) are posted where the tournament was opened
// after each round, and at its end.
//
// Every interaction is answered within Discord's three seconds: the bot
// defers first, then edits the answer or follows up with the picture.
// Refusals and private answers (/moves, /help, a stranger pressing a
// button) are ephemeral: only the user sees them; a refused command
// changes nothing. An interaction delivered twice is applied once: its id
// is remembered in the process and passed to the sessions service as the
// request id. Rate limits (429s) and gateway resumes are left to
// discordgo, but the answers to interactions are read, edited and deleted
// in a rate-limit bucket per interaction, as Discord limits them, rather
// than in discordgo's one bucket for the whole bot. A message whose
// sending fails for a while (the connection drops, Discord answers 5xx)
// is tried again, the pause doubling from Config.RetryPause up to a
// minute, until it goes, Discord refuses it, or the bot stops. A game's
// posts (the computer's move, the clock's) wait for the answers to the
// commands in hand that may change the game, never for read-only ones
// (chat.Handler.ReadOnly). A text longer than a message (2000
// characters) goes in several, cut at line ends, or between two
// characters in a longer line.
package discord
