package chat_test

import (
	"strconv"
	"testing"

	"github.com/boardgamebot/bot/chat"
)

// TestRecent: an id is new once; after n others it is forgotten.
func TestRecent(t *testing.T) {
	r := chat.NewRecent(3)
	if !r.Add("a") || r.Add("a") {
		t.Fatal("a: want new once")
	}
	for i := range 3 {
		if !r.Add(strconv.Itoa(i)) {
			t.Fatalf("%d: want new", i)
		}
	}
	if !r.Add("a") {
		t.Fatal("a after 3 others: want forgotten")
	}
	if r.Add("2") {
		t.Fatal("2: want remembered")
	}
}
