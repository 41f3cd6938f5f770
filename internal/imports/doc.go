// Package imports holds the test that keeps the import rule of the
// module's packages (see docs/development.md): imports point one way,
// cmd/bot -> adapters/* -> chat -> sessions -> rules, with render beside
// (it draws what rules holds) and the stores beside (they implement
// sessions.Store); ops imports no adapter and not chat; no adapter imports
// another (adapters/identity, the identity they share, aside); rules
// imports only the standard library. It has no code.
package imports
