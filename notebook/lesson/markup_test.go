package lesson

import (
	"crypto/sha256"
	"encoding/base64"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gradbook/notebook/block"
	"gradbook/notebook/lms"
)

// element is a start tag of a rendered page, with its ancestors.
type element struct {
	tag    string
	attrs  map[string]string
	parent *element
}

var (
	tagRE  = regexp.MustCompile(`<(/?)([a-zA-Z][a-zA-Z0-9-]*)((?:\s+[^\s=>]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+))?)*)\s*/?>`)
	attrRE = regexp.MustCompile(`([^\s=>]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?`)
	voids  = map[string]bool{"input": true, "br": true, "img": true, "meta": true, "link": true, "hr": true, "wbr": true}
)

// elements reads the start tags of html, which Gradbook writes well
// formed, with each one's ancestors.
func elements(html string) []*element {
	var out []*element
	var open *element
	for _, m := range tagRE.FindAllStringSubmatch(html, -1) {
		tag := strings.ToLower(m[2])
		if m[1] == "/" {
			for e := open; e != nil; e = e.parent {
				if e.tag == tag {
					open = e.parent
					break
				}
			}
			continue
		}
		e := &element{tag: tag, attrs: map[string]string{}, parent: open}
		for _, a := range attrRE.FindAllStringSubmatch(m[3], -1) {
			e.attrs[strings.ToLower(a[1])] = a[2] + a[3] + a[4]
		}
		out = append(out, e)
		if !voids[tag] && !strings.HasSuffix(m[0], "/>") {
			open = e
		}
	}
	return out
}

// compound matches one compound selector: tag, .class, #id, [attr] and
// [attr=value], as the page's selectors are written.
var partRE = regexp.MustCompile(`^([a-z0-9]*)((?:\.[\w-]+|#[\w-]+|\[[^\]]+\])*)$`)

func (e *element) matches(compound string) bool {
	m := partRE.FindStringSubmatch(compound)
	if m == nil {
		panic("unsupported selector " + compound)
	}
	if m[1] != "" && m[1] != e.tag {
		return false
	}
	for _, p := range regexp.MustCompile(`\.[\w-]+|#[\w-]+|\[[^\]]+\]`).FindAllString(m[2], -1) {
		switch p[0] {
		case '.':
			if !slices.Contains(strings.Fields(e.attrs["class"]), p[1:]) {
				return false
			}
		case '#':
			if e.attrs["id"] != p[1:] {
				return false
			}
		case '[':
			name, want, hasValue := strings.Cut(p[1:len(p)-1], "=")
			got, ok := e.attrs[name]
			if !ok || hasValue && got != strings.Trim(want, `"'`) {
				return false
			}
		}
	}
	return true
}

// find reports whether a selector (compounds, space for a descendant)
// matches an element of html.
func find(html, sel string) bool {
	parts := strings.Fields(sel)
	for _, e := range elements(html) {
		if !e.matches(parts[len(parts)-1]) {
			continue
		}
		k := len(parts) - 2
		for a := e.parent; a != nil && k >= 0; a = a.parent {
			if a.matches(parts[k]) {
				k--
			}
		}
		if k < 0 {
			return true
		}
	}
	return false
}

// renders are every block kind and page, rendered as the build does.
func renders(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{"cell": block.CodeCellHTML("c", 1, "x = 1")}
	quizzes := map[string]string{
		"quiz choice":  "Which?\n--- choice\nOne.\n--- feedback\nNo.\n--- choice correct\nTwo.\n--- feedback\nYes.",
		"quiz numeric": "dL/dw?\n--- given\nw = 2.0\n--- answer dL/dw\nw * 3\n--- explain\nIt is 6.",
		"quiz open":    "Why?\n--- model\nBecause.",
	}
	for name, body := range quizzes {
		q, err := block.ParseQuiz("q", body)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out[name] = q.HTML()
	}
	e, err := block.ParseExplore("e", "L = w·x\n--- graph\n[[\"L\", \"mul\", [\"w\", \"x\"]]]\n--- out L\n--- leaf w 2 -5 5 0.5\n--- leaf x 3 -5 5 0.5\n--- task big L > 10\nMake L large.")
	if err != nil {
		t.Fatal(err)
	}
	out["explore"] = e.HTML()
	x, err := block.ParseExercise("x", "def f():\n    return 0\n--- test f\ncheck(f(), 1)\n--- hint\nReturn 1.\n--- solution\ndef f():\n    return 1")
	if err != nil {
		t.Fatal(err)
	}
	out["exercise"] = x.HTML()
	dir := t.TempDir()
	lessons, problems := Load("testdata/markup")
	if len(problems) > 0 {
		t.Fatal(problems)
	}
	if err := Build(dir, lessons, 0); err != nil {
		t.Fatal(err)
	}
	for name, file := range map[string]string{"lesson": "lessons/sample.html", "index": "index.html", "scratch": "scratch.html", "frame": "embed.html"} {
		b, err := os.ReadFile(filepath.Join(dir, file))
		if err != nil {
			t.Fatal(err)
		}
		out[name] = string(b)
	}
	page, err := SCORMPage(lessons[0], lms.SCORM2004, 0.8)
	if err != nil {
		t.Fatal(err)
	}
	out["scorm"] = string(page)
	return out
}

// Every selector the page reads is written where the page looks for it.
func TestPageFindsWhatTheBuildWrites(t *testing.T) {
	r := renders(t)
	for _, s := range block.Selectors {
		for _, where := range s.In {
			html, ok := r[where]
			if !ok {
				t.Fatalf("%s: no render called %q", s.Sel, where)
			}
			if !find(html, s.Sel) {
				t.Errorf("the page looks for %s in the %s, which has none", s.Sel, where)
			}
		}
	}
}

// The matcher itself: it must be able to fail.
func TestFind(t *testing.T) {
	html := `<section class="cell code-cell" data-kind="python"><div class="cell-bar"><button class="run">Run</button></div><ol class="hint-list"><li hidden>a</li></ol><input type="radio"></section>`
	for sel, want := range map[string]bool{
		"section.code-cell": true, "button.run": true, "button.reset": false, ".hint-list li": true,
		`section[data-kind="python"]`: true, `section[data-kind="quiz"]`: false, "input[type=radio]": true,
		".cell-bar li": false, "div.run": false,
	} {
		if got := find(html, sel); got != want {
			t.Errorf("find(%s) = %v, want %v", sel, got, want)
		}
	}
}

// The page's code names no selector, class, id or attribute as a string
// of its own, nor builds one by concatenation: it uses block's names (or
// its own, for what it makes itself), so that a rename is one edit that
// the test above checks, and data never becomes part of a selector.
func TestPageCodeUsesDeclaredNames(t *testing.T) {
	calls := map[string]bool{
		"Query": true, "QueryAll": true, "ByID": true, "Closest": true,
		"Attr": true, "HasAttr": true, "RemoveAttr": true,
	}
	files, err := filepath.Glob("../page/*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("no page code: %v", err)
	}
	for _, file := range files {
		if strings.HasSuffix(file, "_test.go") {
			continue
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, file, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) == 0 {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if !calls[sel.Sel.Name] {
				return true
			}
			switch arg := call.Args[0].(type) {
			case *ast.BasicLit:
				v, _ := strconv.Unquote(arg.Value)
				if arg.Kind == token.STRING && !plainAttr[v] {
					t.Errorf("%s: %s(%s): use a name declared in notebook/block/markup.go (or the page's own, in notebook/page/markup.go)", fset.Position(arg.Pos()), sel.Sel.Name, arg.Value)
				}
			case *ast.BinaryExpr:
				t.Errorf("%s: %s builds its selector by concatenation: declare it in notebook/block/markup.go", fset.Position(arg.Pos()), sel.Sel.Name)
			}
			return true
		})
	}
}

// plainAttr are HTML's own attributes, which are no contract of ours.
var plainAttr = map[string]bool{"hidden": true, "disabled": true, "class": true, "role": true, "aria-label": true, "aria-busy": true, "aria-describedby": true, "href": true, "download": true, "id": true, "for": true}

// declaredNames are the values of the constants in block's markup.go.
func declaredNames(t *testing.T) map[string]bool {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "../block/markup.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		if v, ok := n.(*ast.ValueSpec); ok {
			for _, x := range v.Values {
				if lit, ok := x.(*ast.BasicLit); ok && lit.Kind == token.STRING {
					s, _ := strconv.Unquote(lit.Value)
					names[s] = true
				}
			}
		}
		return true
	})
	return names
}

// The page's scripts read the build's markup by declared names too.
func TestScriptsUseDeclaredNames(t *testing.T) {
	names := declaredNames(t)
	query := regexp.MustCompile(`querySelector(?:All)?\(\s*"([^"]+)"`)
	parts := regexp.MustCompile(`[.#]([\w-]+)|\[([\w-]+)`)
	dataset := regexp.MustCompile(`dataset\.(\w+)`)
	for _, file := range []string{"../../site/gradbook.js", "../../site/embed.js"} {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		src := string(b)
		for _, m := range query.FindAllStringSubmatch(src, -1) {
			for _, p := range parts.FindAllStringSubmatch(m[1], -1) {
				name := p[1] + p[2]
				if !names[name] && !plainAttr[name] && !scriptOwn[name] {
					t.Errorf("%s reads %q (in %q), which notebook/block/markup.go does not declare", file, name, m[1])
				}
			}
		}
		for _, m := range dataset.FindAllStringSubmatch(src, -1) {
			attr := "data-" + regexp.MustCompile(`[A-Z]`).ReplaceAllStringFunc(m[1], func(s string) string { return "-" + strings.ToLower(s) })
			if !names[attr] {
				t.Errorf("%s reads the attribute %s, which notebook/block/markup.go does not declare", file, attr)
			}
		}
	}
}

// scriptOwn are names the scripts make and read themselves.
var scriptOwn = map[string]bool{"aria-busy": true}

// A page's inline scripts are the ones the CSP allows by hash, and the
// CSP allows no other: every page with cells starts gradbook.wasm's
// download from its head, before its stylesheet and any other script.
func TestInlineScriptsAreTheCSPs(t *testing.T) {
	allowed := map[string]bool{}
	for _, m := range regexp.MustCompile(`'sha256-([^']+)'`).FindAllStringSubmatch(CSP, -1) {
		allowed[m[1]] = false
	}
	script := regexp.MustCompile(`(?s)<script([^>]*)>(.*?)</script>`)
	for name, html := range renders(t) {
		if !strings.HasPrefix(html, "<!doctype html>") {
			continue // a block's markup, not a page
		}
		var inline int
		for _, m := range script.FindAllStringSubmatchIndex(html, -1) {
			attrs, body := html[m[2]:m[3]], html[m[4]:m[5]]
			if strings.Contains(attrs, " src=") || strings.Contains(attrs, `type="application/json"`) {
				continue // a file, or data (which runs nowhere)
			}
			inline++
			sum := sha256.Sum256([]byte(body))
			hash := base64.StdEncoding.EncodeToString(sum[:])
			if _, ok := allowed[hash]; !ok {
				t.Errorf("the %s page's inline script (sha256-%s) is not in the CSP: put 'sha256-%s' in lesson.CSP and site/engine.html", name, hash, hash)
				continue
			}
			allowed[hash] = true
			if !strings.Contains(attrs, `data-wasm="`) || !strings.HasSuffix(attrs, `gradbook.wasm"`) {
				t.Errorf("the %s page's inline script has no data-wasm: %s", name, attrs)
			}
			if style := strings.Index(html, `rel="stylesheet"`); style < m[0] || strings.Index(html, "<script") < m[0] {
				t.Errorf("the %s page's inline script comes after its stylesheet or another script", name)
			}
		}
		if inline != 1 {
			t.Errorf("the %s page has %d inline scripts, not the one that fetches gradbook.wasm", name, inline)
		}
	}
	for hash, used := range allowed {
		if !used {
			t.Errorf("the CSP allows 'sha256-%s', which no page's script has", hash)
		}
	}
}
