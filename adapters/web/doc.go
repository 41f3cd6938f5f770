// Package web is the web board: an HTTP server in the bot that shows
// every game on a real board in the browser, to play by taps, to watch
// live, to step through once finished; the Telegram Mini App; and the
// tournaments' pages.
//
// Links carry a Token sealed by a Signer (AES-256-GCM, its key derived
// from the server's secret by HKDF-SHA256; a previous secret opens its
// tokens for a grace): platform, user, game (session key and creation
// time), what it allows (ScopePlay, ScopeWatch, ScopeTournament, and
// ScopeStream, a page's stream token for minutes), until when, and the
// user's link generation (sessions.LinkGenerations: /web revoke). Links
// makes them (it implements chat.WebLinks, which /web uses), with the
// token in the address's fragment (#t=), which the page sends in the
// X-Board-Token header only. Every request names its game in its path
// (/g/<Ref>) and carries a token for that game. The Mini App signs its
// user in with Telegram's launch data (ValidateInitData, as the Bot API
// documents it).
//
// A page's actions become chat commands of the token's user in the game's
// place, through the chat handler's Handle (the chat's checks, limits and
// refusals, and the page's request id, so that a repeat applies once),
// marked Elsewhere (the channel gets the change posted) and naming their
// game (sessions.Request.Game: a link never plays in another game).
//
// A finished game's frames carry its stored review (Review), if any; a
// move tried at one of its mistakes (POST /g/<Ref>/better, any token of
// the game) is searched as the review searched the ply and accepted
// within the inaccuracy threshold of the engine's best; it changes
// nothing stored, and counts in the chat's rate limit.
//
// The Hub pushes each change of a game to the pages watching it, as
// Server-Sent Events carrying a State: values (the pieces by square,
// whose turn, the legal moves for the player to move, the last move, the
// clock, the offers, the result) and the lines the chat handler words.
// The sessions service reports its changes to Hub.Changed; with a store
// shared by several processes the hub follows the store's watch of the
// sessions' heads (Hub.Follow, sessions.HeadWatcher), or looks at each
// watched game every HubConfig.Poll. Each stream has its own writer, so
// a page that reads slowly never holds up another; streams are capped
// per client address and per game, and requests without a player's
// link are rate-limited per address (limits.go); what a finished game's
// pages cost is cached (cache.go). The page never decides what is legal: it matches
// taps against the moves it was sent, and the server checks the move.
//
// The page is plain HTML, CSS and JavaScript modules drawing SVG,
// embedded (static/), with no build step and no request to another host.
// The board (draw.js) draws from a view value and reports the squares the
// user taps; the app around it (board.js) holds the state and wires the
// server's API and stream (api.js), the buttons (controls.js), the
// stepping through a finished game (replay.js), a reviewed game's graph
// and "find the better move" (review.js) and the Mini App's glue
// (miniapp.js). Each module is type-checked (// @ts-check) against
// types.js, which mirrors [State] by its JSON names.
//
// A board page carries its first State (a JSON script element) and its
// first board, drawn by the server (board.go mirrors draw.js element for
// element), so the board shows in the first paint, with no script and no
// second request, and the script takes over the same elements. A
// tournament's page is live too: its stream sends the page's live part,
// drawn by the same template, at every change (tournament.js).
package web
