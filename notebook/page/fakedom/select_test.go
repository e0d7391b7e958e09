package fakedom

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"gradbook/notebook/page"
)

const selectFixture = `<main id="m">
<section id="s1" class="cell code-cell" data-kind="python">
  <div id="bar" class="cell-bar"><button id="run" class="run primary">Run</button><button id="reset" class="reset" disabled>Reset</button></div>
  <textarea id="ed" class="editor"></textarea>
</section>
<section id="q1" class="cell quiz" data-kind="quiz" data-quiz="choice" data-name="a b">
  <fieldset id="fs"><label id="l1"><input id="r1" type="radio" name="q"> One</label><label id="l2"><input id="r2" type=radio name="q"> Two</label></fieldset>
  <ol id="hl" class="hint-list"><li id="h1" hidden>a</li><li id="h2">b<span id="sp" data-say='say "hi"'>!</span></li></ol>
</section>
</main>`

func ids(nodes []page.Node) []string {
	var out []string
	for _, n := range nodes {
		out = append(out, n.Attr("id"))
	}
	return out
}

func TestSelectors(t *testing.T) {
	doc := Parse(selectFixture)
	tests := []struct {
		sel  string
		want string // the ids of the matches, in document order
	}{
		{"section", "s1 q1"},
		{"main *", "s1 bar run reset ed q1 fs l1 r1 l2 r2 hl h1 h2 sp"},
		{"body > *", "m"},
		{"#run", "run"},
		{"#nope", ""},
		{".run", "run"},
		{".run.primary", "run"},
		{".run.reset", ""},
		{"button.reset", "reset"},
		{"div.reset", ""},
		{"[disabled]", "reset"},
		{"[hidden]", "h1"},
		{"[data-kind=quiz]", "q1"},
		{`[data-kind="quiz"]`, "q1"},
		{`[data-kind='python']`, "s1"},
		{`[data-kind="Quiz"]`, ""}, // values are case-sensitive
		{`[DATA-KIND=quiz]`, "q1"}, // names are not
		{`section.code-cell[data-kind="python"]`, "s1"},
		{`section.code-cell[data-kind="quiz"]`, ""},
		{"section[data-kind][data-quiz=choice]", "q1"},
		{"input[type=radio]", "r1 r2"},
		{`[data-name="a b"]`, "q1"},
		{`[data-name=a]`, ""},
		{`[data-say='say "hi"']`, "sp"},
		{`[ data-kind = "quiz" ]`, "q1"},
		{".hint-list li", "h1 h2"},
		{".hint-list > li", "h1 h2"},
		{"section li", "h1 h2"},
		{"section > li", ""},
		{"section > fieldset > label > input", "r1 r2"},
		{"main section .cell-bar button", "run reset"},
		{".cell-bar li", ""},
		{"section  >  div   button", "run reset"},
		{"li span, #run", "run sp"},
		{"#reset, #run, .run", "run reset"},
		{"SECTION.quiz", "q1"},
	}
	for _, tc := range tests {
		t.Run(tc.sel, func(t *testing.T) {
			got := ids(doc.QueryAll(tc.sel))
			if want := strings.Fields(tc.want); !slices.Equal(got, want) {
				t.Errorf("QueryAll(%s) = %v, want %v", tc.sel, got, want)
			}
			first := doc.Query(tc.sel)
			if (first == nil) != (len(got) == 0) || first != nil && first.Attr("id") != got[0] {
				t.Errorf("Query(%s) is not the first of QueryAll", tc.sel)
			}
		})
	}
}

func TestQueryScopeAndClosest(t *testing.T) {
	doc := Parse(selectFixture)
	bar := doc.ByID("bar")
	// A query finds what is below the node, but the selector's ancestors
	// may be above it, as in a browser.
	if got := ids(bar.QueryAll("section button")); !slices.Equal(got, []string{"run", "reset"}) {
		t.Errorf("bar.QueryAll(section button) = %v", got)
	}
	if bar.Query("div") != nil {
		t.Error("a query matched the node it started from")
	}
	if got := doc.ByID("r2").Closest("section").Attr("id"); got != "q1" {
		t.Errorf("Closest(section) = %q", got)
	}
	if got := doc.ByID("run").Closest(".run").Attr("id"); got != "run" {
		t.Errorf("Closest(.run) from #run = %q: it should be itself", got)
	}
	if doc.ByID("run").Closest(".quiz") != nil {
		t.Error("Closest found an ancestor that is not there")
	}
	if text := doc.ByID("run").FirstChild(); text.Closest("button") != nil {
		t.Error("a text node has a Closest")
	}
	if doc.Closest("main") != nil {
		t.Error("the document has a Closest")
	}
}

func TestUnsupportedSelectorsPanic(t *testing.T) {
	doc := Parse(selectFixture)
	for _, sel := range []string{"", " ", "a:hover", "li:first-child", "a::before", "a + b", "a ~ b", "[a^=b]", "[a$=b]", "[a*=b]", "[a~=b]", "[a|=b]", "[a", `[a="b]`, `[a="b\"c"]`, "a,", ",a", "a >", "> a", "#", ".", "a[b=]"} {
		t.Run(sel, func(t *testing.T) {
			defer func() {
				r := recover()
				if r == nil {
					t.Fatalf("Query(%q) did not panic", sel)
				}
				if msg, _ := r.(string); !strings.Contains(msg, "unsupported selector") || !strings.Contains(msg, fmt.Sprintf("%q", sel)) {
					t.Errorf("the panic does not say what is wrong: %v", r)
				}
			}()
			doc.Query(sel)
		})
	}
}
