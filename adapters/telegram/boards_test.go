package telegram_test

import (
	"strconv"
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

// TestTwoTapMoveKeyboardOnce: after a move in two taps, the keyboard of
// the board it was played on is taken off once: the press that played it
// and the new board both want it off, and Telegram refuses the second
// edit ("message is not modified").
func TestTwoTapMoveKeyboardOnce(t *testing.T) {
	f := newFake(t)
	h := startBot(t, f, "", nil)
	photo := h.challenge(group, "spanish")
	s := h.look(group)
	next := h.playByButtons(group, alice, photo, s.State.Moves()[0])
	find(t, keyboard(t, next), "Move")
	h.stop() // every queued call made
	off := 0
	for _, c := range f.callsOf(0, func(c *call) bool {
		return c.Method == "editMessageReplyMarkup" && c.Params["message_id"] == strconv.Itoa(photo.MsgID)
	}) {
		if len(keyboard(t, c)) == 0 {
			off++
		}
	}
	if off != 1 {
		t.Errorf("the keyboard of the board the move was played on was taken off %d times, want once", off)
	}
}
