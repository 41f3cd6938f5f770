package imports

import (
	"encoding/json"
	"fmt"
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/boardgamebot/bot/"

// allowed lists, for each area of the module (the longest prefix of a
// package's path), the areas its code may import. A package imports its own
// area and its own subpackages freely; a test helper package (a last
// element ending in "test") may also import the package it helps.
var allowed = map[string][]string{
	"rules":             {},
	"render":            {"rules"},
	"sessions":          {"rules"},
	"storage":           {"sessions", "rules"},
	"storage/dump":      {"sessions", "rules"},
	"storage/bolt":      {"storage/dump", "sessions", "rules"},
	"storage/etcdstore": {"storage/dump", "sessions", "rules", "internal"},
	"ops":               {"sessions", "rules"},
	"chat":              {"sessions", "render", "rules", "internal"},
	"adapters/identity": {"sessions", "rules"},
	"adapters":          {"adapters/identity", "chat", "sessions", "render", "rules", "internal"},
	"cmd":               {"adapters", "chat", "ops", "storage", "sessions", "render", "rules", "internal"},
	"internal":          {},
}

// area is the key of allowed that path falls under, and the package's own
// root: the adapter (adapters/telegram), or the area itself.
func area(path string) (area, own string) {
	for a := range allowed {
		if (path == a || strings.HasPrefix(path, a+"/")) && len(a) > len(area) {
			area = a
		}
	}
	own = area
	if area == "adapters" {
		parts := strings.SplitN(path, "/", 3)
		if len(parts) >= 2 {
			own = parts[0] + "/" + parts[1]
		}
	}
	return area, own
}

func under(path, root string) bool { return path == root || strings.HasPrefix(path, root+"/") }

// problem says why from may not import to, or "" when it may.
func problem(from, to string) string {
	if !strings.HasPrefix(to, module) {
		if strings.HasPrefix(from, "rules") && strings.Contains(strings.Split(to, "/")[0], ".") {
			return "rules imports only the standard library"
		}
		return ""
	}
	to = strings.TrimPrefix(to, module)
	a, own := area(from)
	if a == "" {
		return "package outside every area of the import rule"
	}
	if under(to, own) {
		return ""
	}
	// A test helper (sessions/sessionstest) may import what it helps.
	if last := from[strings.LastIndex(from, "/")+1:]; strings.HasSuffix(last, "test") && under(to, strings.TrimSuffix(from, "/"+last)) {
		return ""
	}
	for _, ok := range allowed[a] {
		if under(to, ok) {
			return ""
		}
	}
	if a == "adapters" && strings.HasPrefix(to, "adapters/") {
		return "no adapter imports another"
	}
	return fmt.Sprintf("%s may import only %v", a, allowed[a])
}

type pkg struct {
	ImportPath string
	Imports    []string
}

// TestImportRule: no package of the module imports against the rule (its
// code, not its tests: a test may reach wider).
func TestImportRule(t *testing.T) {
	cmd := exec.Command("go", "list", "-json", "./...")
	cmd.Dir = "../.."
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	dec := json.NewDecoder(strings.NewReader(string(out)))
	n := 0
	for dec.More() {
		var p pkg
		if err := dec.Decode(&p); err != nil {
			t.Fatal(err)
		}
		n++
		from := strings.TrimPrefix(p.ImportPath, module)
		for _, to := range p.Imports {
			to, _, _ = strings.Cut(to, " ") // "chat [.../cmd/bot.test]" in a test's build
			if why := problem(from, to); why != "" {
				t.Errorf("%s imports %s: %s", from, strings.TrimPrefix(to, module), why)
			}
		}
	}
	if n < 20 {
		t.Fatalf("go list found %d packages: not the module's root?", n)
	}
}

// TestProblem: the rule refuses the imports the design forbids and takes
// those it allows.
func TestProblem(t *testing.T) {
	for _, c := range []struct {
		from, to string
		ok       bool
	}{
		{"adapters/web", module + "adapters/telegram", false},
		{"adapters/web", module + "adapters/identity", true},
		{"adapters/telegram", module + "chat", true},
		{"adapters/telegram/telegramtest", module + "adapters/telegram", true},
		{"ops", module + "chat", false},
		{"ops", module + "sessions", true},
		{"chat", module + "adapters/discord", false},
		{"sessions", module + "chat", false},
		{"sessions", module + "render", false},
		{"render", module + "sessions", false},
		{"rules", module + "sessions", false},
		{"rules/draughts", "github.com/fogleman/gg", false},
		{"rules/draughts", "math/bits", true},
		{"storage/etcdstore", module + "storage/bolt", false},
		{"storage/etcdstore", module + "storage/dump", true},
		{"storage/bolt", module + "sessions", true},
		{"cmd/bot", module + "adapters/telegram", true},
		{"sessions/sessionstest", module + "sessions", true},
	} {
		if got := problem(c.from, c.to) == ""; got != c.ok {
			t.Errorf("%s importing %s: allowed %v, want %v (%s)", c.from, c.to, got, c.ok, problem(c.from, c.to))
		}
	}
}
