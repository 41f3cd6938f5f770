package chat

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/boardgamebot/bot/rules/games"
	"github.com/nicksnyder/go-i18n/v2/i18n"
	"go.yaml.in/yaml/v3"
	"golang.org/x/text/language"
)

// catalogue reads one catalogue file: message id to message.
func catalogue(t *testing.T, path string) map[string]*i18n.Message {
	t.Helper()
	buf, err := fs.ReadFile(locales, path)
	if err != nil {
		t.Fatal(err)
	}
	b := i18n.NewBundle(language.English)
	b.RegisterUnmarshalFunc("yaml", yaml.Unmarshal)
	mf, err := b.ParseMessageFileBytes(buf, path)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	out := map[string]*i18n.Message{}
	for _, m := range mf.Messages {
		out[m.ID] = m
	}
	return out
}

var placeholder = regexp.MustCompile(`\{\{\s*\.(\w+)\s*\}\}`)

// placeholders lists the named placeholders of every form of a message.
func placeholders(m *i18n.Message) []string {
	var out []string
	for _, form := range []string{m.Zero, m.One, m.Two, m.Few, m.Many, m.Other} {
		for _, p := range placeholder.FindAllStringSubmatch(form, -1) {
			if !slices.Contains(out, p[1]) {
				out = append(out, p[1])
			}
		}
	}
	slices.Sort(out)
	return out
}

// TestCataloguesAgree: every language's catalogue has every message of the
// English one, no other, and each with the same placeholders; every English
// message says where it shows, for translators.
func TestCataloguesAgree(t *testing.T) {
	files, err := fs.Glob(locales, "locales/*.yaml")
	if err != nil || !slices.Contains(files, "locales/en.yaml") {
		t.Fatalf("catalogues %v (%v): want locales/en.yaml among them", files, err)
	}
	en := catalogue(t, "locales/en.yaml")
	for id, m := range en {
		if strings.TrimSpace(m.Description) == "" || m.Other == "" {
			t.Errorf("en %s: want a description and an other form", id)
		}
	}
	for _, f := range files {
		if f == "locales/en.yaml" {
			continue
		}
		c := catalogue(t, f)
		for id, m := range en {
			tm, ok := c[id]
			switch {
			case !ok:
				t.Errorf("%s: no message %s", f, id)
			case !slices.Equal(placeholders(tm), placeholders(m)):
				t.Errorf("%s %s: placeholders %v, want %v (as in en)", f, id, placeholders(tm), placeholders(m))
			case tm.Other == "":
				t.Errorf("%s %s: no other form", f, id)
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
	en := catalogue(t, "locales/en.yaml")
	ids := regexp.MustCompile(`(?:\bT|\badd|\bpick|\bMaybe)\("([A-Z]\w*[A-Za-z0-9])"[,)]|Problem: "([A-Z]\w*)"`)
	literal := regexp.MustCompile(`"([A-Z]\w+)"`)
	used := map[string]bool{}
	srcs, _ := filepath.Glob("../*/*.go") // every adapter words from the catalogue
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
