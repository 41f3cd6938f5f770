package telegram

import (
	"context"
	"time"

	"github.com/boardgamebot/bot/chat"
)

// SetSleep replaces the wait between the attempts of a call that keeps
// failing, so that a test sees the pauses without waiting them out. It is
// called before Run.
func SetSleep(b *Bot, sleep func(ctx context.Context, d time.Duration) error) { b.c.sleep = sleep }

// Deliver sends a reply of the chat handler into a chat's topic (thread
// 0: none), as the bot does after a command or for a notice.
func Deliver(b *Bot, chatID int64, thread int, r chat.Reply) {
	b.deliver(b.sending(), where{chat: chatID, thread: thread}, r, 0, nil)
}

// Pending returns how many messages wait in the bot's send queues, plus
// one for each chat whose queue still runs (a message in flight): 0 when
// every queue has ended.
func Pending(b *Bot) int {
	b.out.mu.Lock()
	defer b.out.mu.Unlock()
	n := 0
	for _, q := range b.out.queues {
		n += 1 + q.waiting()
	}
	return n
}

// InLine returns how many chats wait in line for the overall pace.
func InLine(b *Bot) int {
	return b.out.pace.InLine()
}

// Working returns how many sends are being made, not counting those
// waiting to try again: a test moves its clock when none is.
func Working(b *Bot) int { return int(b.out.working.Load()) }
