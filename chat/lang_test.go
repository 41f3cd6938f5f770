package chat

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/boardgamebot/bot/rules"
	"github.com/boardgamebot/bot/rules/games"
	"golang.org/x/text/feature/plural"
)

// readCatalogues reads the embedded catalogues: language to message id to
// message (a language's files merged).
func readCatalogues(t *testing.T) map[string]map[string]*message {
	t.Helper()
	cats, err := loadCatalogues(locales, nil)
	if err != nil {
		t.Fatal(err)
	}
	return cats
}

// readCatalogue reads one language's catalogue: message id to message.
func readCatalogue(t *testing.T, lang string) map[string]*message {
	t.Helper()
	c := readCatalogues(t)[lang]
	if c == nil {
		t.Fatalf("no catalogue %s", lang)
	}
	return c
}

// TestCataloguesAgree: every language's catalogue has every message of the
// English one, no other, and each with the same placeholders; every English
// message says where it shows, for translators.
func TestCataloguesAgree(t *testing.T) {
	cats := readCatalogues(t)
	en := cats["en"]
	if en == nil {
		t.Fatal("no catalogue en")
	}
	for id, m := range en {
		if strings.TrimSpace(m.Description) == "" {
			t.Errorf("en %s: want a description", id)
		}
		// English has a one form wherever a count is named.
		if slices.Contains(m.placeholders(), "Count") && m.forms[plural.One] == nil {
			t.Errorf("en %s: names a Count but has no one form", id)
		}
	}
	for f, c := range cats {
		if f == "en" {
			continue
		}
		for id, m := range en {
			tm, ok := c[id]
			switch {
			case !ok:
				t.Errorf("%s: no message %s", f, id)
			case !slices.Equal(tm.placeholders(), m.placeholders()):
				t.Errorf("%s %s: placeholders %v, want %v (as in en)", f, id, tm.placeholders(), m.placeholders())
			}
		}
		for id := range c {
			if en[id] == nil {
				t.Errorf("%s: message %s is not in en", f, id)
			}
		}
	}
}

// TestEveryMessageIDInCatalogue: every message id the code words exists in
// the English catalogue, and every English message is used.
func TestEveryMessageIDInCatalogue(t *testing.T) {
	en := readCatalogue(t, "en")
	ids := regexp.MustCompile(`(?:\bT|\badd|\bpick|\bMaybe)\("([A-Z]\w*[A-Za-z0-9])"[,)]|Problem: "([A-Z]\w*)"`)
	literal := regexp.MustCompile(`"([A-Z]\w+)"`)
	used := map[string]bool{}
	srcs, _ := filepath.Glob("*.go") // chat and every adapter word from the catalogue
	adapters, _ := filepath.Glob("../adapters/*/*.go")
	srcs = append(srcs, adapters...)
	for _, f := range srcs {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		// An id passed around before it is worded ("DiscordOptGame").
		for _, m := range literal.FindAllStringSubmatch(string(b), -1) {
			if en[m[1]] != nil {
				used[m[1]] = true
			}
		}
		for _, m := range ids.FindAllStringSubmatch(string(b), -1) {
			if m[1] == "" {
				m[1] = m[2]
			}
			used[m[1]] = true
			if strings.Contains(string(b), `pick("`+m[1]+`"`) {
				used[m[1]+"Why"] = true
			}
		}
	}
	for _, r := range reasonIDs() {
		used[r] = true
	}
	for _, r := range rulesIDs() { // the rules' codes
		used[r] = true
	}
	// The games' names, summaries and options; the seats and colours of
	// the rules and pictures.
	for _, g := range games.List() {
		used["GameName_"+g.ID], used["GameSummary_"+g.ID] = true, true
		for _, o := range g.Options {
			used["GameOption_"+g.ID+"_"+o.Key] = true
		}
		if gm, err := games.New(g.ID, nil); err == nil {
			for _, seat := range gm.Seats() {
				if !strings.HasPrefix(seat, "Player ") {
					used["Seat"+seat] = true
				}
			}
		}
	}
	for _, c := range []string{"white", "black", "red", "blue", "green", "yellow"} {
		used["Colour_"+c] = true
	}
	// The console's files.
	for _, what := range []string{"Picture", "Replay", "File"} {
		used["ConsoleWritten"+what], used["ConsoleNotWritten"+what] = true, true
	}
	// Each command has its usage and one line, and may have more.
	for _, c := range commandTable() {
		used["CmdUsage_"+c.name], used["CmdShort_"+c.name] = true, true
		if en["CmdLong_"+c.name] != nil {
			used["CmdLong_"+c.name] = true
		}
	}
	for id := range used {
		if en[id] == nil {
			t.Errorf("the code words %s, which en.yaml lacks", id)
		}
	}
	for id := range en {
		if !used[id] {
			t.Errorf("en.yaml has %s, which no code words", id)
		}
	}
}

// TestPluralAndPlaceholders: a count picks the CLDR plural form of the
// speaker's language; placeholders are named; a catalogue holding any other
// template syntax is refused on load.
func TestPluralAndPlaceholders(t *testing.T) {
	w, err := NewCatalogues("en")
	if err != nil {
		t.Fatal(err)
	}
	en := w.In("en")
	if got := en.T("EventChallengedSeats", "Count", 1, "By", "ann"); got != "1 seat to fill: /accept to join, /decline to refuse; ann can /cancel." {
		t.Errorf("one: %q", got)
	}
	if got := en.T("EventChallengedSeats", "Count", 3, "By", "ann"); got != "3 seats to fill: /accept to join, /decline to refuse; ann can /cancel." {
		t.Errorf("other: %q", got)
	}
	if got := en.T("NoSuchMessage"); got != "NoSuchMessage" {
		t.Errorf("a missing message: %q", got)
	}
	for _, bad := range []string{`X: {other: "{{if .A}}a{{end}}"}`, `X: {other: "{{.A"}`, `X: {one: "a"}`, `X: {othr: "a"}`} {
		if _, err := parseCatalogue([]byte(bad), nil); err == nil {
			t.Errorf("catalogue %s loaded", bad)
		}
	}
	// Polish has few and many: a catalogue gives them and the count picks.
	pl := "X:\n  one: \"{{.Count}} ruch\"\n  few: \"{{.Count}} ruchy\"\n  many: \"{{.Count}} ruchów\"\n  other: \"{{.Count}} ruchu\"\n"
	enYAML, _ := fs.ReadFile(locales, "locales/en.yaml")
	pw, err := NewCataloguesFS(fstest.MapFS{"locales/en.yaml": {Data: enYAML}, "locales/pl.yaml": {Data: []byte(pl)}}, "en")
	if err != nil {
		t.Fatal(err)
	}
	for n, want := range map[int]string{1: "1 ruch", 3: "3 ruchy", 5: "5 ruchów", 22: "22 ruchy"} {
		if got := pw.In("pl").T("X", "Count", n); got != want {
			t.Errorf("pl %d: %q, want %q", n, got, want)
		}
	}
}

// TestCataloguePartsMerged: a language's catalogue is <lang>.yaml plus its
// <lang>.<part>.yaml files; a message given in two of them, or a part of a
// language with no main file, is refused on load.
func TestCataloguePartsMerged(t *testing.T) {
	main := []byte("Hello:\n  description: d\n  other: \"hello\"\n")
	part := []byte("Bye:\n  description: d\n  other: \"bye\"\n")
	w, err := NewCataloguesFS(fstest.MapFS{"locales/en.yaml": {Data: main}, "locales/en.rules.yaml": {Data: part}}, "en")
	if err != nil {
		t.Fatal(err)
	}
	if got := w.In("en").T("Bye"); got != "bye" {
		t.Errorf("message of the part: got %q, want bye", got)
	}
	if got := w.Langs(); !slices.Equal(got, []string{"en"}) {
		t.Errorf("languages %v, want [en] (a part is no language)", got)
	}
	for name, fsys := range map[string]fstest.MapFS{
		"duplicate": {"locales/en.yaml": {Data: main}, "locales/en.rules.yaml": {Data: main}},
		"orphan":    {"locales/en.yaml": {Data: main}, "locales/es.rules.yaml": {Data: part}},
	} {
		if _, err := NewCataloguesFS(fsys, "en"); err == nil {
			t.Errorf("%s: loaded, want an error", name)
		} else {
			t.Logf("%s: %v", name, err)
		}
	}
}

// TestEveryRulesCodeWorded: each code of the rules packages has its
// message, and its words name every argument the rules give.
func TestEveryRulesCodeWorded(t *testing.T) {
	w, err := NewCatalogues("en")
	if err != nil {
		t.Fatal(err)
	}
	en := w.In("en")
	for _, c := range rules.Codes() {
		if got := en.rulesText(&rules.Error{Kind: rules.ErrIllegal, Code: c}); got == "Rules"+string(c) || got == "" {
			t.Errorf("code %s: no message (got %q)", c, got)
		}
	}
	got := en.rulesText(&rules.Error{Kind: rules.ErrIllegal, Code: rules.CodeCannotReach,
		Args: []string{"Move", "a1-h8", "Square", "a1", "To", "h8", "Squares", "b2, c3"}, Msg: "English"})
	if want := "a1-h8: a1 cannot reach h8 (it can reach b2, c3)."; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
