package telegram_test

import (
	"encoding/json"
	"slices"
	"testing"
)

// TestMenus: the command menu is published per scope: private chats get
// every command, /notify included; groups the same list without /notify;
// the default scope the private list.
func TestMenus(t *testing.T) {
	f := newFake(t)
	h := startBot(t, f, "", nil)
	next := 0
	menus := map[string][]string{}
	for range 3 {
		var c *call
		c, next = f.waitCall(next, method("setMyCommands"))
		var scope struct {
			Type string `json:"type"`
		}
		if err := json.Unmarshal([]byte(c.Params["scope"]), &scope); err != nil {
			t.Fatalf("setMyCommands scope %q: %v", c.Params["scope"], err)
		}
		var cmds []struct {
			Command     string `json:"command"`
			Description string `json:"description"`
		}
		if err := json.Unmarshal([]byte(c.Params["commands"]), &cmds); err != nil {
			t.Fatalf("setMyCommands commands %q: %v", c.Params["commands"], err)
		}
		var names []string
		for _, c := range cmds {
			if c.Description == "" {
				t.Errorf("/%s has no description", c.Command)
			}
			names = append(names, c.Command)
		}
		menus[scope.Type] = names
	}
	private, group := menus["all_private_chats"], menus["all_group_chats"]
	if !slices.Contains(private, "notify") || !slices.Contains(private, "play") {
		t.Errorf("the private menu %v lacks /notify or /play", private)
	}
	want := slices.DeleteFunc(slices.Clone(private), func(c string) bool { return c == "notify" })
	if !slices.Equal(group, want) {
		t.Errorf("the group menu %v, want the private one without /notify %v", group, want)
	}
	if !slices.Equal(menus["default"], private) {
		t.Errorf("the default menu %v, want the private one %v", menus["default"], private)
	}
	_ = h
}
