// Package rules holds what every game of the bot has in common: squares,
// the platform-neutral Game and State interfaces that sessions, render and
// the command line use, and the typed error kinds.
//
// The games themselves live in the sub-packages (draughts, ultradamas,
// halma), each with a fast typed API of its own (comparable position
// values, move generators, perft) and an adapter to these interfaces.
// Package games is the registry: a game id and options give a Game.
//
// rules and its sub-packages import only the standard library, do no I/O,
// read no clock and draw no random numbers of their own.
package rules
