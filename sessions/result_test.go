package sessions_test

import (
	"encoding/json"
	"testing"

	"github.com/boardgamebot/bot/rules"
	"github.com/boardgamebot/bot/sessions"
)

// TestOldResultReadAsCodes: a finished game stored by a version 1 bot
// holds its reason as an English phrase; reading maps it to the code, so
// that it can be worded in any language.
func TestOldResultReadAsCodes(t *testing.T) {
	for _, tc := range []struct {
		json       string
		reason     rules.Reason
		n, by, win int
	}{
		{`{"winner":-1,"reason":"draw agreed"}`, rules.DrawAgreed, 0, -1, -1},
		{`{"winner":0,"reason":"Black resigned"}`, rules.Resigned, 0, 1, 0},
		{`{"winner":1,"reason":"Red resigned"}`, rules.Resigned, 0, 0, 1},
		{`{"winner":-1,"reason":"Player 3 resigned"}`, rules.Resigned, 0, 2, -1},
		{`{"winner":1,"reason":"White abandoned (5 moves in a row played by the clock)","abandoned":true}`, rules.Abandoned, 5, 0, 1},
		{`{"winner":-1,"reason":"40 moves with kings only"}`, rules.KingMoves, 40, -1, -1},
		{`{"winner":-1,"reason":"three kings against one for 13 moves"}`, rules.ThreeKings, 13, -1, -1},
		{`{"winner":-1,"reason":"80 plies without capture or promotion"}`, rules.QuietPlies, 80, -1, -1},
		{`{"winner":1,"reason":"a piece still at home after move 30"}`, rules.LeftHome, 30, -1, 1},
		{`{"winner":0,"reason":"no legal move"}`, rules.NoMove, 0, -1, 0},
		{`{"winner":2,"reason":"camp filled"}`, rules.CampFilled, 0, -1, 2},
		{`{"winner":0,"reason":"something else"}`, "", 0, -1, 0},
		// A version 2 result is read as stored.
		{`{"winner":0,"why":"resigned","by":1}`, rules.Resigned, 0, 1, 0},
	} {
		var r sessions.Result
		if err := json.Unmarshal([]byte(tc.json), &r); err != nil {
			t.Fatalf("%s: %v", tc.json, err)
		}
		if r.Reason != tc.reason || r.N != tc.n || r.By != tc.by || r.Winner != tc.win {
			t.Errorf("%s: read %+v, want reason %q n %d by %d winner %d", tc.json, r, tc.reason, tc.n, tc.by, tc.win)
		}
	}
}

// TestResultRoundTrip: a result written now reads back the same.
func TestResultRoundTrip(t *testing.T) {
	in := sessions.Result{Winner: -1, Reason: rules.Abandoned, N: 5, By: 0, Abandoned: true}
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	var out sessions.Result
	if err := json.Unmarshal(b, &out); err != nil || out != in {
		t.Fatalf("%s read back as %+v (%v)", b, out, err)
	}
}
