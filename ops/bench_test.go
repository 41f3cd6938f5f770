package ops_test

import (
	"testing"
	"time"

	"github.com/boardgamebot/bot/chat"
	"github.com/boardgamebot/bot/ops"
)

// BenchmarkCountMove is what the metrics add to one move: the commit
// observed (latency histogram, moves counter) and the command counted.
// Compare with BenchmarkMove in package sessions (a committed move takes
// 0.2 to 4 ms there).
//
//	go test ./ops -run '^$' -bench CountMove -count 5
func BenchmarkCountMove(b *testing.B) {
	m := ops.New(ops.Options{Store: "bbolt", Commands: chat.CommandNames()})
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			began := time.Now()
			m.Committed(time.Since(began), true, nil)
			m.Handled("telegram", "move", chat.Applied.Label())
		}
	})
}
