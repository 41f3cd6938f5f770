// Package rulestest has test helpers for the rules packages: the harness
// that checks snapshots (rules.Saver and rules.Restorer) by round trips and
// by playing the saved and the restored states on side by side, with what
// differs by game (its random actions, how they are played, what else a
// player sees) passed in as functions.
//
// It imports only rules and the standard library, and is meant for _test.go
// files.
package rulestest
