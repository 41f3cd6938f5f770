package identity

import "testing"

func TestTelegramUser(t *testing.T) {
	for _, c := range []struct {
		id                    int64
		username, first, last string
		wantID, wantName      string
	}{
		{7, "bob", "Bob", "Stone", "7", "bob"},
		{8, "", "Ana", "Cruz", "8", "Ana Cruz"},
		{9, "", "Ana", "", "9", "Ana"},
		{10, "", "", "", "10", "user10"},
		{11, "", " ", " ", "11", "user11"},
	} {
		u := TelegramUser(c.id, c.username, c.first, c.last)
		if u.ID != c.wantID || u.Name != c.wantName {
			t.Errorf("TelegramUser(%d, %q, %q, %q) = %+v, want ID %q Name %q", c.id, c.username, c.first, c.last, u, c.wantID, c.wantName)
		}
	}
}
