package telegram

import "github.com/boardgamebot/bot/adapters/telegram/pace"

// rank is where a message stands in its chat's queue (pace.Rank): news
// goes before every lookup of its chat and is never dropped; a lookup
// waits behind the news, and a newer board of its game, or the same
// answer queued again, takes its place.
type rank = pace.Rank

const (
	news   = pace.News
	lookup = pace.Lookup
)
