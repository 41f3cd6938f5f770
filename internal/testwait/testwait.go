// Package testwait is the one wait of the tests for something that
// happens on another goroutine: look again every few milliseconds until it
// holds or a deadline passes. The test says what failing means.
package testwait

import "time"

// Every is the pause between two looks.
const Every = 5 * time.Millisecond

// Until reports whether cond holds within d: it asks at once, then every
// Every, and a last time once d has passed.
func Until(d time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			return cond()
		}
		time.Sleep(Every)
	}
	return true
}
