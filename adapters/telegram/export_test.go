package telegram

import (
	"context"
	"time"
)

// SetSleep replaces the wait between the attempts of a call that keeps
// failing, so that a test sees the pauses without waiting them out. It is
// called before Run.
func SetSleep(b *Bot, sleep func(ctx context.Context, d time.Duration) error) { b.sleep = sleep }
