package telegram_test

import (
	"testing"
)

// TestOldBoardKeyboard: when a new board comes into a chat, the previous
// board's keyboard is taken off (editMessageReplyMarkup with an empty
// keyboard), so that only the newest board has buttons.
func TestOldBoardKeyboard(t *testing.T) {
	f := newFake(t)
	h := startBot(t, f, "", nil)
	first := h.challenge(group, "spanish")
	second, m := h.say(group, bob, "/board", "sendPhoto")
	third, m3 := h.say(group, alice, "/move "+h.look(group).State.Moves()[0].Text, "sendPhoto")
	for _, c := range []struct {
		old  *call
		from int
	}{{first, m}, {second, m3}} {
		edit, _ := f.waitCall(c.from, editOf(c.old.MsgID))
		if edit.Params["reply_markup"] == "" || len(keyboard(t, edit)) != 0 {
			t.Errorf("the keyboard of board %d was replaced by %q, want an empty one", c.old.MsgID, edit.Params["reply_markup"])
		}
	}
	find(t, keyboard(t, third), "Move")
}
