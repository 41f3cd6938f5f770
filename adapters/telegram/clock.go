package telegram

import (
	"context"
	"time"
)

// Clock is the time the bot's sends are paced by: the limits of each
// chat, the overall pace, the wait a 429 asks for and the pauses between
// failed attempts. Config.Clock nil means the system's clock; tests pass
// one they move by hand (telegramtest.Clock), so that minutes of
// Telegram's limits pass in no time.
type Clock interface {
	// Now returns the current time.
	Now() time.Time
	// Sleep waits until d has passed, or until ctx is done: then it
	// returns ctx.Err().
	Sleep(ctx context.Context, d time.Duration) error
}

// systemClock is the system's clock.
type systemClock struct{}

func (systemClock) Now() time.Time { return time.Now() }

func (systemClock) Sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
