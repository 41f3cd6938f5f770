package webtest

import (
	"fmt"
	"strings"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// Violation is one rule of axe-core a page breaks, with the elements
// that break it.
type Violation struct {
	ID      string   `json:"id"`
	Impact  string   `json:"impact"`
	Help    string   `json:"help"`
	Targets []string `json:"targets"`
	Summary string   `json:"summary"`
}

func (v Violation) String() string {
	return fmt.Sprintf("%s (%s, %s): %s; %s", v.ID, v.Impact, v.Help, strings.Join(v.Targets, " "), v.Summary)
}

// Axe runs axe-core (its script's source: axe.min.js) on the page as it
// is now, every rule, and returns the violations. The script is
// evaluated through the DevTools protocol, which the page's Content
// Security Policy does not restrict.
func (p *Page) Axe(script string) []Violation {
	p.t.Helper()
	var out []Violation
	p.Run(chromedp.Evaluate(script+"\n;true", nil),
		chromedp.Evaluate(`axe.run(document, {resultTypes: ['violations']}).then(r => r.violations.map(v => ({
			id: v.id, impact: v.impact || '', help: v.help,
			targets: v.nodes.map(n => n.target.join(' ')),
			summary: (v.nodes[0] && v.nodes[0].failureSummary || '').replace(/\s+/g, ' ')})))`, &out,
			func(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) }))
	return out
}
