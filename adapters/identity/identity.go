// Package identity names the users of each chat platform as sessions knows
// them. It is the small piece two adapters share (the Telegram adapter and
// the web board's Mini App both meet Telegram users), so that no adapter
// imports another.
package identity

import (
	"strconv"
	"strings"

	"github.com/boardgamebot/bot/sessions"
)

// The platforms' names, as they stand in a sessions.Key.
const (
	Telegram = "telegram"
	Discord  = "discord"
	Console  = "console"
)

// TelegramUser is the sessions user of a Telegram user (id, username, first
// and last names): the id, and the username as the name, else the first and
// last names, else "user<id>".
func TelegramUser(id int64, username, first, last string) sessions.User {
	name := username
	if name == "" {
		name = strings.TrimSpace(first + " " + last)
	}
	if name == "" {
		name = "user" + strconv.FormatInt(id, 10)
	}
	return sessions.User{ID: strconv.FormatInt(id, 10), Name: name}
}
