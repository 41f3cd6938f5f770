package telegram

import "time"

// Metrics is told of the messages the bot sends, for an operator's
// metrics (package ops counts them); Config.Metrics nil counts nothing.
// Its methods must be quick and must not block.
type Metrics interface {
	// Sent: Telegram took a message of a chat's queue.
	Sent()
	// Retried: a message is tried again after a failure that may pass (a
	// 429, a network fault, a 5xx).
	Retried()
	// GaveUp: a message was never delivered: Telegram refused it (the
	// chat is gone for the bot, a bad request), or the bot stopped first.
	GaveUp()
	// RateLimited: Telegram answered a call 429 and asked to wait d.
	RateLimited(d time.Duration)
}

// noMetrics counts nothing.
type noMetrics struct{}

func (noMetrics) Sent()                     {}
func (noMetrics) Retried()                  {}
func (noMetrics) GaveUp()                   {}
func (noMetrics) RateLimited(time.Duration) {}

// Waiting returns how many messages wait in the chats' queues.
func (b *Bot) Waiting() int {
	b.out.mu.Lock()
	defer b.out.mu.Unlock()
	n := 0
	for _, q := range b.out.queues {
		n += q.waiting()
	}
	return n
}

// gaveUp counts n messages given up.
func gaveUp(m Metrics, n int) {
	for range n {
		m.GaveUp()
	}
}
