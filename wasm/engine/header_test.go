package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// jsName is the JavaScript name of a Go name without its h: the leading
// capitals in lower case, but the last of them where it starts a word
// ("KOff" is "kOff", "JSON2Len" is "json2Len", "NamesN" is "namesN").
func jsName(goName string) string {
	r := []rune(goName)
	n := 0
	for n < len(r) && unicode.IsUpper(r[n]) {
		n++
	}
	if n > 1 && n < len(r) && unicode.IsLower(r[n]) {
		n--
	}
	for i := range n {
		r[i] = unicode.ToLower(r[i])
	}
	return string(r)
}

// TestHeaderMatchesJS checks that site/autodiff.js numbers the request
// header's words as layout.go declares them: h<Name> there is <name> in
// the H table there, and headerWords is H.words. The header is declared
// once, in Go; this test keeps the JavaScript copy honest.
func TestHeaderMatchesJS(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "layout.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{}
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.CONST || len(gd.Specs) == 0 {
			continue
		}
		first := gd.Specs[0].(*ast.ValueSpec)
		if len(first.Names) != 1 || first.Names[0].Name != "hNamesOff" {
			continue
		}
		for i, s := range gd.Specs {
			name := s.(*ast.ValueSpec).Names[0].Name
			if name == "headerWords" {
				want["words"] = i
				continue
			}
			want[jsName(strings.TrimPrefix(name, "h"))] = i
		}
	}
	if len(want) == 0 {
		t.Fatal("layout.go declares no header words")
	}

	src, err := os.ReadFile("../../site/autodiff.js")
	if err != nil {
		t.Fatal(err)
	}
	table := regexp.MustCompile(`(?s)const H = \{(.*?)\};`).FindSubmatch(src)
	if table == nil {
		t.Fatal("autodiff.js has no `const H = {...};` table")
	}
	got := map[string]int{}
	for _, m := range regexp.MustCompile(`(\w+):\s*(\d+)`).FindAllSubmatch(table[1], -1) {
		got[string(m[1])], _ = strconv.Atoi(string(m[2]))
	}
	for name, i := range want {
		if j, ok := got[name]; !ok {
			t.Errorf("autodiff.js's H lacks %s (word %d in layout.go)", name, i)
		} else if i != j {
			t.Errorf("H.%s is %d in autodiff.js, %d in layout.go", name, j, i)
		}
	}
	for name := range got {
		if _, ok := want[name]; !ok {
			t.Errorf("autodiff.js's H has %s, which layout.go does not declare", name)
		}
	}
}
