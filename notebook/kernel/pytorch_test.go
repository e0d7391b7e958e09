package kernel

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// dump writes the calls of the dialect (@, slices, ...) in a parsed
// cell with their positions, and the position of every name, as a
// learner's error would place them.
func dump(n syntax.Node) string {
	var b strings.Builder
	syntax.Walk(n, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.CallExpr:
			if id, ok := n.Fn.(*syntax.Ident); ok && (id.Name == matmulName || id.Name == sliceName) {
				fmt.Fprintf(&b, "%s@%d:%d(%d) ", id.Name, n.Lparen.Line, n.Lparen.Col, len(n.Args))
				for _, a := range n.Args {
					syntax.Walk(a, func(n syntax.Node) bool {
						if id, ok := n.(*syntax.Ident); ok && id.Name != matmulName && id.Name != sliceName {
							fmt.Fprintf(&b, "%s@%d:%d ", id.Name, id.NamePos.Line, id.NamePos.Col)
						}
						return true
					})
				}
				b.WriteString("; ")
			}
		case *syntax.TupleExpr:
			fmt.Fprintf(&b, "tuple(%d) ", len(n.List))
		case *syntax.Ident:
			if n.Name == ellipsisName {
				fmt.Fprintf(&b, "...@%d:%d ", n.NamePos.Line, n.NamePos.Col)
			}
		}
		return true
	})
	return strings.TrimSpace(b.String())
}

// parseCases are cells in the new syntax, each with the dump of its
// tree or its syntax error.
var parseCases = []struct{ src, want string }{
	{"y = a @ b", "__matmul__@1:7(2) a@1:5 b@1:9 ;"},
	// Python's precedence: @ is *'s, left-associative; unary - binds tighter.
	{"y = a @ b @ c", "__matmul__@1:11(2) a@1:5 b@1:9 c@1:13 ; __matmul__@1:7(2) a@1:5 b@1:9 ;"},
	{"y = 2 * a @ b + c", "__matmul__@1:11(2) a@1:9 b@1:13 ;"},
	{"y = -a @ b", "__matmul__@1:8(2) a@1:6 b@1:10 ;"},
	{"x @= W", "__matmul__@1:3(2) x@1:1 W@1:6 ;"},
	{"ys = [a @ b for a in c]", "__matmul__@1:9(2) a@1:7 b@1:11 ;"},
	{"f = lambda a: a @ a", "__matmul__@1:17(2) a@1:15 a@1:19 ;"},
	{"y = x[:, 0]", "tuple(2) __slice__@1:7(3) None@1:7 None@1:7 None@1:7 ;"},
	{"y = x[:, -1, :]", "tuple(3) __slice__@1:7(3) None@1:7 None@1:7 None@1:7 ; __slice__@1:14(3) None@1:14 None@1:14 None@1:14 ;"},
	{"y = logits[:, t]", "tuple(2) __slice__@1:12(3) None@1:12 None@1:12 None@1:12 ;"},
	{"y = x[..., :3]", "tuple(2) ...@1:7 __slice__@1:12(3) None@1:12 None@1:12 ;"},
	{"y = x[...]", "...@1:7"},
	{"y = x[a:b:c, 0]", "tuple(2) __slice__@1:8(3) a@1:7 b@1:9 c@1:11 ;"},
	{"y = x[0, 1:3]", "tuple(2) __slice__@1:11(3) None@1:11 ;"},
	{"y = x[:, 0,]", "tuple(2) __slice__@1:7(3) None@1:7 None@1:7 None@1:7 ;"},
	{"y = x[:, a @ b]", "tuple(2) __slice__@1:7(3) None@1:7 None@1:7 None@1:7 ; __matmul__@1:12(2) a@1:10 b@1:14 ;"},
	{"y = x[:, i[:, 0]]", "tuple(2) __slice__@1:7(3) None@1:7 None@1:7 None@1:7 ; tuple(2) __slice__@1:12(3) None@1:12 None@1:12 None@1:12 ;"},
	// Over several lines, each piece stays on its own.
	{"y = x[\n    :,\n    a +\n    1]", "tuple(2) __slice__@2:5(3) None@2:5 None@2:5 None@2:5 ;"},
	{"s = 'é@'; y = x[:, 'é'.find('@') : n]", "tuple(2) __slice__@1:17(3) None@1:17 None@1:17 None@1:17 ; __slice__@1:34(3) find@1:24 n@1:36 None@1:34 ;"},
	// Starlark's own: left as it is.
	{"y = x[1:3]", ""},
	{"y = d[1, 2]", "tuple(2)"},
	{"s = 'a @ b[:, 0]'  # c @ d[:, 0]", ""},
	{"y = [a[:], b[1:2]]", ""},
	{"s = '''x @ y\n[:, 0]'''", ""},
	// A syntax error in the new syntax, at its line and column, in the
	// source's terms.
	{"y = a @ @ b", "error: " + "cell 1:1:9: got '@', want primary expression"},
	{"@f\ndef g():\n    pass", "error: " + "cell 1:1:1: got '@', want primary expression"},
	{"y = x[:, 1:2:3:4]", "error: " + "cell 1:1:15: a slice has at most two colons, start:stop:step"},
	{"y = x[:, 0 @]", "error: " + "cell 1:1:13: got ']', want primary expression"},
	{"y = x[:, ]\nz = x[:,, 0]", "error: " + "cell 1:2:9: an index is missing before this ','"},
	{"y = x[:,\n   a +]", "error: " + "cell 1:2:7: got ']', want primary expression"},
	{"x.a @= W", "error: " + "cell 1:1:5: @= needs a name on its left: write a = a @ b"},
	{"y = a @ b\nz = (c @ d", "error: " + "cell 1:2:11: got end of file, want ')'"},
	{"y = a @ b\nz = x[:, 'é' +]", "error: " + "cell 1:2:15: got ']', want primary expression"},
}

// TestParsePyTorch checks what @ and subscripts of several axes parse to,
// each piece where the learner wrote it, and their syntax errors.
func TestParsePyTorch(t *testing.T) {
	for _, c := range parseCases {
		got := "error: "
		f, err := Parse("cell 1", c.src)
		if err == nil {
			got = dump(f)
		} else {
			got += err.Error()
		}
		if got != c.want {
			t.Errorf("%q:\n got %s\nwant %s", c.src, got, c.want)
		}
	}
}

// TestParseMisread checks that a scan that misread a source, finding an
// @ or a subscript where Starlark sees none, leaves the source to
// Starlark's parser.
func TestParseMisread(t *testing.T) {
	for _, c := range []struct {
		src   string
		found found
	}{
		{"s = 'a@b'", found{ats: []int{6}}},     // in a string
		{"s = 1  # a@b", found{ats: []int{10}}}, // in a comment
		{"s = f(1)", found{ats: []int{5}}},      // not an @: the rewritten source does not parse
		{"s = [0, :]", found{subs: []subscript{{open: 4, close: 9, tuple: true, items: []item{{5, 6, nil}, {7, 9, []int{8}}}}}}}, // a list
	} {
		x := &extension{name: "cell 1", src: c.src}
		got, err := x.parse(c.found)
		want, wantErr := fileOptions.Parse("cell 1", c.src, 0)
		if fmt.Sprint(err) != fmt.Sprint(wantErr) || !reflect.DeepEqual(got, want) {
			t.Errorf("%q: got %v, %v; Starlark's %v, %v", c.src, got, err, want, wantErr)
		}
	}
}

// TestMatMulOnNumbers checks @ on what is not a tensor: a runtime error,
// at the @.
func TestMatMulOnNumbers(t *testing.T) {
	f, err := Parse("cell 1", "a = 2\nb = 3\nc = a @ b")
	if err != nil {
		t.Fatal(err)
	}
	prog, err := starlark.FileProgram(f, func(name string) bool { return dialect.Has(name) })
	if err != nil {
		t.Fatal(err)
	}
	_, err = prog.Init(new(starlark.Thread), dialect)
	var ee *starlark.EvalError
	if !errors.As(err, &ee) {
		t.Fatalf("error %v", err)
	}
	if want := "@ is a matrix product: use it on tensors, not on int and int"; !strings.Contains(ee.Msg, want) {
		t.Errorf("message %q, want %q", ee.Msg, want)
	}
	if pos := ee.CallStack.At(1).Pos; pos.String() != "cell 1:3:7" {
		t.Errorf("at %s, want cell 1:3:7", pos)
	}
}

// FuzzParse parses anything: never a panic, and whatever Starlark's
// parser takes the dialect takes too.
func FuzzParse(f *testing.F) {
	for _, c := range parseCases {
		f.Add(c.src)
	}
	f.Add("s = '''\n@'''\nx[\r\n:, 'a', \"b\\\"]\" ]")
	f.Fuzz(func(t *testing.T, src string) {
		_, err := Parse("cell 1", src)
		if _, plain := ParseAsStarlark("cell 1", src); plain == nil && err != nil {
			t.Errorf("Starlark parses %q, the dialect does not: %v", src, err)
		}
	})
}
