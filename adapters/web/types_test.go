package web_test

import (
	"maps"
	"os"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/boardgamebot/bot/adapters/web"
)

// TestScriptTypes: the page script's types (static/types.js, JSDoc for
// the type checker) name the fields of the values the server sends
// exactly as their JSON does, optional where the JSON leaves them out,
// so that a field renamed on one side fails here, without a JavaScript
// toolchain.
func TestScriptTypes(t *testing.T) {
	src, err := os.ReadFile("static/types.js")
	if err != nil {
		t.Fatal(err)
	}
	// The script's typedefs: name -> property -> optional.
	script := map[string]map[string]bool{}
	typedef := regexp.MustCompile(`@typedef \{object\} (\w+)`)
	property := regexp.MustCompile(`@property \{[^}]*\} (\[?)(\w+)\]?`)
	for _, block := range strings.Split(string(src), "/**")[1:] {
		block, _, _ = strings.Cut(block, "*/")
		m := typedef.FindStringSubmatch(block)
		if m == nil {
			continue
		}
		props := map[string]bool{}
		for _, p := range property.FindAllStringSubmatch(block, -1) {
			props[p[2]] = p[1] == "["
		}
		script[m[1]] = props
	}
	for _, v := range []any{web.State{}, web.BoardWords{}, web.Piece{}, web.Move{}, web.Seat{}, web.Played{}, web.Frames{}, web.Pass{}, web.Review{}, web.ReviewPly{}, web.TryAnswer{}} {
		typ := reflect.TypeOf(v)
		want := map[string]bool{}
		for f := range typ.Fields() {
			name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name == "" || name == "-" {
				continue
			}
			want[name] = strings.Contains(opts, "omitempty") || strings.Contains(opts, "omitzero")
		}
		got, ok := script[typ.Name()]
		if !ok {
			t.Errorf("types.js has no typedef %s", typ.Name())
			continue
		}
		if !maps.Equal(got, want) {
			t.Errorf("types.js's %s has %v, the server sends %v (true: optional)", typ.Name(), sorted(got), sorted(want))
		}
	}
}

// sorted lists a typedef's properties, optional ones in brackets.
func sorted(props map[string]bool) []string {
	var out []string
	for name, opt := range props {
		if opt {
			name = "[" + name + "]"
		}
		out = append(out, name)
	}
	slices.Sort(out)
	return out
}
