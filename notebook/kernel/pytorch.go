package kernel

// This file extends the cells' Starlark with the two pieces of Python's
// syntax that PyTorch code leans on and Starlark lacks: the matrix
// product, a @ b (and a @= b), and subscripts of several axes with
// slices and an ellipsis, x[:, -1], logits[:, t], x[..., :3].
//
// Starlark's parser is not changed, nor copied. Before the parse, the
// source is rewritten without moving any line or column: each @ becomes
// a % (the same precedence, left-associative, and no token of two
// characters forms with it but %=), and the inside of a subscript of
// several axes becomes a 0 padded with spaces (its line breaks kept).
// After the parse, the tree is rewritten: a % at the place of an @
// becomes a call of __matmul__, and the subscript's index becomes a
// tuple of its items, each parsed apart where it stands in the source
// (syntax.FilePortion), a slice lo:hi:step being a call of __slice__ and
// ... the value __ellipsis__. So every position, in a syntax error or a
// runtime one, is the source's own.
//
// Only what Starlark refuses is rewritten: an @ outside strings and
// comments, which its scanner rejects, and a subscript whose top level
// has a comma and a slice or an ellipsis, which its parser rejects, but
// for one form it accepts and no value can use, x[a, b:c] (a slice whose
// start is the tuple (a, b)), which now means what it means in PyTorch.
// The rewrite finds both with a small scan of its own (strings,
// comments, brackets), and every place it rewrote must come back as the
// node it expects (a % at the @'s place, a subscript at the ['s): should
// the scan ever misread the source, the cell is parsed as it is, by
// Starlark alone.

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// The names the rewritten tree calls; a Session's environment holds them
// beside __set__.
const (
	matmulName   = "__matmul__"
	sliceName    = "__slice__"
	ellipsisName = "__ellipsis__"
)

// MatMul is a value that @ works on, as Python's __matmul__ and
// __rmatmul__: MatMul returns x @ y when side is starlark.Left, y @ x
// when it is starlark.Right, or (nil, nil) if it does not handle y.
type MatMul interface {
	starlark.Value
	MatMul(thread *starlark.Thread, y starlark.Value, side starlark.Side) (starlark.Value, error)
}

// matmulBuiltin is __matmul__(x, y), what x @ y runs.
func matmulBuiltin(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args) != 2 || len(kwargs) != 0 {
		return nil, fmt.Errorf("%s is Gradbook's own", matmulName)
	}
	x, y := args[0], args[1]
	if m, ok := x.(MatMul); ok {
		if z, err := m.MatMul(thread, y, starlark.Left); z != nil || err != nil {
			return z, err
		}
	}
	if m, ok := y.(MatMul); ok {
		if z, err := m.MatMul(thread, x, starlark.Right); z != nil || err != nil {
			return z, err
		}
	}
	return nil, fmt.Errorf("@ is a matrix product: use it on tensors, not on %s and %s (for numbers and Values, *)", x.Type(), y.Type())
}

// Slice is one slice of a subscript of several axes, x[lo:hi:step, …],
// as Python's slice: each bound is None where it was left out.
type Slice struct{ Start, Stop, Step starlark.Value }

var _ starlark.Value = Slice{}

func (s Slice) String() string {
	return fmt.Sprintf("slice(%s, %s, %s)", s.Start, s.Stop, s.Step)
}
func (s Slice) Type() string { return "slice" }
func (s Slice) Freeze() {
	s.Start.Freeze()
	s.Stop.Freeze()
	s.Step.Freeze()
}
func (s Slice) Truth() starlark.Bool  { return true }
func (s Slice) Hash() (uint32, error) { return 0, errors.New("unhashable type: slice") }

// sliceBuiltin is __slice__(start, stop, step).
func sliceBuiltin(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args) != 3 || len(kwargs) != 0 {
		return nil, fmt.Errorf("%s is Gradbook's own", sliceName)
	}
	return Slice{args[0], args[1], args[2]}, nil
}

// Ellipsis is ... in a subscript: every axis the other items leave.
type Ellipsis struct{}

func (Ellipsis) String() string        { return "Ellipsis" }
func (Ellipsis) Type() string          { return "ellipsis" }
func (Ellipsis) Freeze()               {}
func (Ellipsis) Truth() starlark.Bool  { return true }
func (Ellipsis) Hash() (uint32, error) { return 0, nil }

// dialect is the environment's own names besides __set__.
var dialect = starlark.StringDict{
	matmulName:   starlark.NewBuiltin(matmulName, matmulBuiltin),
	sliceName:    starlark.NewBuiltin(sliceName, sliceBuiltin),
	ellipsisName: Ellipsis{},
}

// errMisread is the scan's misreading of a source, found after the
// parse: the source is then parsed as it is.
var errMisread = errors.New("the scan for @ and subscripts misread the source")

// Parse parses src as a cell, in the cells' dialect of Starlark (with @
// and subscripts of several axes: see above); name is the file name its
// positions carry.
func Parse(name, src string) (*syntax.File, error) {
	x := &extension{name: name, src: src}
	return x.parse(x.scan(0, len(src)))
}

// parse parses the source with what the scan found rewritten.
func (x *extension) parse(found found) (*syntax.File, error) {
	name, src := x.name, x.src
	if found.empty() {
		return fileOptions.Parse(name, src, 0)
	}
	f, err := fileOptions.Parse(name, x.rewrite(0, len(src), found), 0)
	if err == nil {
		err = x.apply(f, found)
	} else {
		err = x.syntaxError(err, found)
	}
	if err != nil {
		// What Starlark takes as it is, it gets as it is, should the scan
		// have misread it.
		if plain, perr := fileOptions.Parse(name, src, 0); perr == nil || errors.Is(err, errMisread) {
			return plain, perr
		}
		return nil, err
	}
	return f, nil
}

// extension parses one source with @ and subscripts of several axes.
type extension struct {
	name, src string
	lines     []int // the offset where each line starts, once pos needs them
}

// found is what the scan of a stretch of source found to rewrite: the
// offsets of its @s and its subscripts of several axes (the outermost:
// a subscript inside one is rewritten when its item is parsed).
type found struct {
	ats  []int
	subs []subscript
}

func (f found) empty() bool { return len(f.ats) == 0 && len(f.subs) == 0 }

// subscript is x[…] with several axes: the offsets of its brackets and
// its items.
type subscript struct {
	open, close int
	items       []item
	tuple       bool // a comma at its top level: the index is a tuple
}

// item is one item of a subscript: its stretch of source and the offsets
// of the colons at its top level.
type item struct {
	start, end int
	colons     []int
}

// frame is an open bracket during the scan.
type frame struct {
	open      int
	subscript bool
	items     []item
	cur       item
	commas    int
	lambda    bool
}

// keywords are Starlark's keywords and reserved words: a [ after one
// opens a list, not a subscript.
var keywords = map[string]bool{
	"and": true, "break": true, "continue": true, "def": true, "elif": true, "else": true, "for": true,
	"if": true, "in": true, "lambda": true, "load": true, "not": true, "or": true, "pass": true, "return": true,
	"while": true, "as": true, "assert": true, "async": true, "await": true, "class": true, "del": true,
	"except": true, "finally": true, "from": true, "global": true, "import": true, "is": true,
	"nonlocal": true, "raise": true, "try": true, "with": true, "yield": true,
}

// scan finds the @s and the subscripts of several axes in src[from:to],
// reading strings, comments and brackets as Starlark's scanner does.
func (x *extension) scan(from, to int) found {
	src := x.src[:to]
	var out found
	var stack []*frame
	operand := false // the token before ends an operand: a [ after it is a subscript
	top := func() *frame {
		if len(stack) == 0 {
			return nil
		}
		return stack[len(stack)-1]
	}
	for i := from; i < to; {
		c := src[i]
		switch {
		case c == '#':
			for i < to && src[i] != '\n' && src[i] != '\r' {
				i++
			}
			continue
		case c == '\n' || c == '\r':
			if len(stack) == 0 {
				operand = false
			}
			i++
			continue
		case c == ' ' || c == '\t' || c == '\\':
			i++
			continue
		case c == '"' || c == '\'':
			i = skipString(src, i)
			operand = true
			continue
		case c < utf8.RuneSelf && (c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') || c >= utf8.RuneSelf && isLetterAt(src, i):
			j := i
			for j < to {
				r, n := utf8.DecodeRuneInString(src[j:])
				if r != '_' && !unicode.IsLetter(r) && !unicode.IsDigit(r) {
					break
				}
				j += n
			}
			word := src[i:j]
			if (word == "r" || word == "b" || word == "rb") && j < to && (src[j] == '"' || src[j] == '\'') {
				i = skipString(src, j)
				operand = true
				continue
			}
			operand = !keywords[word]
			if f := top(); word == "lambda" && f != nil && f.subscript {
				f.lambda = true
			}
			i = j
			continue
		case c >= '0' && c <= '9' || c == '.' && i+1 < to && src[i+1] >= '0' && src[i+1] <= '9':
			hex := c == '0' && i+1 < to && (src[i+1] == 'x' || src[i+1] == 'X')
			j := i + 1
			for j < to {
				d := src[j]
				if d == '_' || d == '.' || d >= '0' && d <= '9' || d >= 'a' && d <= 'z' || d >= 'A' && d <= 'Z' ||
					(d == '+' || d == '-') && !hex && (src[j-1] == 'e' || src[j-1] == 'E') {
					j++
					continue
				}
				break
			}
			i = j
			operand = true
			continue
		case c == '[' || c == '(' || c == '{':
			stack = append(stack, &frame{open: i, subscript: c == '[' && operand, cur: item{start: i + 1}})
		case c == ']' || c == ')' || c == '}':
			f := top()
			if f == nil {
				return out // Starlark reports it
			}
			stack = stack[:len(stack)-1]
			if f.subscript && c == ']' {
				f.cur.end = i
				if s, ok := f.multiAxis(src, i); ok {
					out.subs = append(out.subs, s)
				}
			}
			i++
			operand = true
			continue
		case c == ',':
			if f := top(); f != nil && f.subscript {
				f.cur.end = i
				f.items = append(f.items, f.cur)
				f.cur = item{start: i + 1}
				f.commas++
			}
		case c == ':':
			if f := top(); f != nil && f.subscript {
				f.cur.colons = append(f.cur.colons, i)
			}
		case c == '@':
			out.ats = append(out.ats, i)
		}
		operand = false
		i++
	}
	// Drop what a rewritten subscript holds: its items' own parse finds it.
	keep := out.subs[:0]
	for _, s := range out.subs {
		if !inside(s.open, out.subs) {
			keep = append(keep, s)
		}
	}
	out.subs = keep
	ats := out.ats[:0]
	for _, a := range out.ats {
		if !inside(a, out.subs) {
			ats = append(ats, a)
		}
	}
	out.ats = ats
	return out
}

// inside reports whether offset p lies strictly inside one of subs.
func inside(p int, subs []subscript) bool {
	for _, s := range subs {
		if p > s.open && p < s.close {
			return true
		}
	}
	return false
}

// multiAxis returns the subscript f closes at offset end if it is one to
// rewrite: a comma at its top level and a slice or ..., or ... alone;
// never one with a lambda at its top level, whose colon is not a slice's.
func (f *frame) multiAxis(src string, end int) (subscript, bool) {
	items := append(f.items, f.cur)
	tuple := f.commas > 0
	if last := items[len(items)-1]; tuple && strings.TrimSpace(src[last.start:last.end]) == "" && len(last.colons) == 0 {
		items = items[:len(items)-1] // x[a, b,]: a trailing comma
	}
	if f.lambda {
		return subscript{}, false
	}
	slicing := false
	for _, it := range items {
		if len(it.colons) > 0 || isEllipsis(src, it) {
			slicing = true
		}
	}
	if !slicing || !tuple && len(items[0].colons) > 0 {
		return subscript{}, false // x[a:b] is Starlark's own
	}
	return subscript{open: f.open, close: end, items: items, tuple: tuple}, true
}

func isEllipsis(src string, it item) bool {
	return len(it.colons) == 0 && strings.TrimSpace(src[it.start:it.end]) == "..."
}

func isLetterAt(src string, i int) bool {
	r, _ := utf8.DecodeRuneInString(src[i:])
	return unicode.IsLetter(r)
}

// skipString returns the offset after the string literal whose quote is
// at src[i], as Starlark's scanner reads it: backslash escapes, triple
// quotes, and a single-quoted one ending at the end of its line.
func skipString(src string, i int) int {
	q := src[i]
	if strings.HasPrefix(src[i:], strings.Repeat(string(q), 3)) {
		for j := i + 3; j < len(src); j++ {
			switch {
			case src[j] == '\\':
				j++
			case strings.HasPrefix(src[j:], strings.Repeat(string(q), 3)):
				return j + 3
			}
		}
		return len(src)
	}
	for j := i + 1; j < len(src); j++ {
		switch src[j] {
		case '\\':
			j++
		case q:
			return j + 1
		case '\n', '\r':
			return j
		}
	}
	return len(src)
}

// rewrite returns src[from:to] rewritten for Starlark's parser (see
// above), with the same lines and columns.
func (x *extension) rewrite(from, to int, f found) string {
	var b strings.Builder
	b.Grow(to - from)
	i := from
	copyTo := func(j int) {
		b.WriteString(x.src[i:j])
		i = j
	}
	ats, subs := f.ats, f.subs
	for len(ats) > 0 || len(subs) > 0 {
		if len(subs) == 0 || len(ats) > 0 && ats[0] < subs[0].open {
			copyTo(ats[0])
			b.WriteByte('%')
			i++
			ats = ats[1:]
			continue
		}
		s := subs[0]
		subs = subs[1:]
		copyTo(s.open + 1)
		zero := false
		for _, r := range x.src[s.open+1 : s.close] {
			switch {
			case r == '\n' || r == '\r':
				b.WriteRune(r)
			case !zero:
				b.WriteByte('0')
				zero = true
			default:
				b.WriteByte(' ')
			}
		}
		i = s.close
	}
	copyTo(to)
	return b.String()
}

// pos returns the position of the byte at offset off, as Starlark's
// scanner counts: lines from 1 (\r\n and a lone \r end one too), columns
// in runes from 1.
func (x *extension) pos(off int) syntax.Position {
	if x.lines == nil {
		x.lines = []int{0}
		for i := 0; i < len(x.src); i++ {
			switch {
			case x.src[i] == '\r' && i+1 < len(x.src) && x.src[i+1] == '\n':
				i++
				fallthrough
			case x.src[i] == '\n' || x.src[i] == '\r':
				x.lines = append(x.lines, i+1)
			}
		}
	}
	line, _ := slices.BinarySearch(x.lines, off+1) // the lines that start at or before off
	return syntax.MakePosition(&x.name, int32(line), int32(1+utf8.RuneCountInString(x.src[x.lines[line-1]:off])))
}

// places returns the positions of offsets.
func (x *extension) places(offs []int) map[[2]int32]bool {
	m := make(map[[2]int32]bool, len(offs))
	for _, o := range offs {
		p := x.pos(o)
		m[[2]int32{p.Line, p.Col}] = true
	}
	return m
}

func placeKey(p syntax.Position) [2]int32 { return [2]int32{p.Line, p.Col} }

// syntaxError says a syntax error of the rewritten source in the
// source's terms: a % where an @ was is an @.
func (x *extension) syntaxError(err error, f found) error {
	var se syntax.Error
	if !errors.As(err, &se) || !x.places(f.ats)[placeKey(se.Pos)] {
		return err
	}
	se.Msg = strings.NewReplacer("'%='", "'@='", "'%'", "'@'", "%=", "@=", "%", "@").Replace(se.Msg)
	return se
}

// apply rewrites the tree parsed from the rewritten source (see above).
func (x *extension) apply(n syntax.Node, f found) error {
	ats := x.places(f.ats)
	subs := make(map[[2]int32]subscript, len(f.subs))
	for _, s := range f.subs {
		subs[placeKey(x.pos(s.open))] = s
	}
	var err error
	syntax.Walk(n, func(n syntax.Node) bool {
		if a, ok := n.(*syntax.AssignStmt); ok && a.Op == syntax.PERCENT_EQ && ats[placeKey(a.OpPos)] {
			delete(ats, placeKey(a.OpPos))
			id, ok := a.LHS.(*syntax.Ident)
			if !ok {
				err = syntax.Error{Pos: a.OpPos, Msg: "@= needs a name on its left: write a = a @ b"}
				return false
			}
			a.Op = syntax.EQ
			a.RHS = matmulCall(&syntax.Ident{NamePos: id.NamePos, Name: id.Name}, a.RHS, a.OpPos)
		}
		return err == nil
	})
	if err != nil {
		return err
	}
	mapExprs(reflect.ValueOf(n), func(e syntax.Expr) syntax.Expr {
		switch e := e.(type) {
		case *syntax.BinaryExpr:
			if e.Op == syntax.PERCENT && ats[placeKey(e.OpPos)] {
				delete(ats, placeKey(e.OpPos))
				return matmulCall(e.X, e.Y, e.OpPos)
			}
		case *syntax.IndexExpr:
			if s, ok := subs[placeKey(e.Lbrack)]; ok && err == nil {
				delete(subs, placeKey(e.Lbrack))
				e.Y, err = x.index(s)
			}
		}
		return e
	})
	if err != nil {
		return err
	}
	if len(ats) > 0 || len(subs) > 0 {
		return errMisread
	}
	return nil
}

func matmulCall(a, b syntax.Expr, at syntax.Position) syntax.Expr {
	return &syntax.CallExpr{Fn: &syntax.Ident{NamePos: at, Name: matmulName}, Lparen: at, Args: []syntax.Expr{a, b}, Rparen: at}
}

// index returns the index of a subscript of several axes: a tuple of its
// items (or its one item), slices as __slice__ calls, ... as
// __ellipsis__.
func (x *extension) index(s subscript) (syntax.Expr, error) {
	var list []syntax.Expr
	for _, it := range s.items {
		if isEllipsis(x.src, it) {
			start := it.start + strings.Index(x.src[it.start:it.end], "...")
			list = append(list, &syntax.Ident{NamePos: x.pos(start), Name: ellipsisName})
			continue
		}
		if len(it.colons) == 0 {
			e, err := x.expr(it.start, it.end, it.end)
			if err != nil {
				return nil, err
			}
			list = append(list, e)
			continue
		}
		if len(it.colons) > 2 {
			return nil, syntax.Error{Pos: x.pos(it.colons[2]), Msg: "a slice has at most two colons, start:stop:step"}
		}
		at := x.pos(it.colons[0])
		bounds := []syntax.Expr{nil, nil, nil}
		edges := append(append([]int{it.start}, it.colons...), it.end)
		for k := range len(edges) - 1 {
			from, to := edges[k], edges[k+1]
			if k > 0 {
				from++ // after the colon
			}
			if strings.TrimSpace(x.src[from:to]) == "" {
				continue
			}
			e, err := x.expr(from, to, to)
			if err != nil {
				return nil, err
			}
			bounds[k] = e
		}
		for k, b := range bounds {
			if b == nil {
				bounds[k] = &syntax.Ident{NamePos: at, Name: "None"}
			}
		}
		list = append(list, &syntax.CallExpr{Fn: &syntax.Ident{NamePos: at, Name: sliceName}, Lparen: at, Args: bounds, Rparen: at})
	}
	if !s.tuple {
		return list[0], nil
	}
	return &syntax.TupleExpr{List: list}, nil
}

// expr parses src[from:to], an item or a bound of a subscript, where it
// stands in the source, in the cells' dialect; sep is the offset of what
// ends it (a comma, a colon, the bracket), where an empty one is missing.
func (x *extension) expr(from, to, sep int) (syntax.Expr, error) {
	text := x.src[from:to]
	lead := len(text) - len(strings.TrimLeft(text, " \t\r\n\\"))
	if lead == len(text) {
		return nil, syntax.Error{Pos: x.pos(sep), Msg: "an index is missing before this '" + x.src[sep:sep+1] + "'"}
	}
	from += lead
	found := x.scan(from, to)
	p := x.pos(from)
	// In parentheses, as inside the subscript, so that a line break in it
	// is no statement's end; the ( stands just before it.
	e, err := fileOptions.ParseExpr(x.name, syntax.FilePortion{Content: []byte("(" + x.rewrite(from, to, found) + "\n)"), FirstLine: p.Line, FirstCol: p.Col - 1}, 0)
	if err != nil {
		var se syntax.Error
		if end := x.pos(to); errors.As(err, &se) && (se.Pos.Line > end.Line || se.Pos.Line == end.Line && se.Pos.Col >= end.Col) {
			// At the ) that closes it here: at what closes it in the source.
			return nil, syntax.Error{Pos: x.pos(sep), Msg: strings.ReplaceAll(se.Msg, "')'", "'"+x.src[sep:sep+1]+"'")}
		}
		return nil, x.syntaxError(err, found)
	}
	if err := x.apply(e, found); err != nil {
		return nil, err
	}
	if paren, ok := e.(*syntax.ParenExpr); ok {
		e = paren.X
	}
	return e, nil
}

var (
	exprType     = reflect.TypeFor[syntax.Expr]()
	positionType = reflect.TypeFor[syntax.Position]()
)

// mapExprs replaces, bottom up, every expression of the tree at v that a
// field or an element of type syntax.Expr (or syntax.Node) holds by what
// f returns for it (f returns its argument to keep it). It reads the
// tree's types, not a list of them, so that it stays whole when
// Starlark's syntax gains a node.
func mapExprs(v reflect.Value, f func(syntax.Expr) syntax.Expr) {
	switch v.Kind() {
	case reflect.Interface:
		if !v.IsNil() {
			mapExprs(v.Elem(), f)
		}
	case reflect.Pointer:
		if _, node := v.Interface().(syntax.Node); node && !v.IsNil() {
			mapExprs(v.Elem(), f)
		}
	case reflect.Struct:
		if v.Type() == positionType {
			return
		}
		for i := range v.NumField() {
			mapField(v.Field(i), f)
		}
	case reflect.Slice:
		for i := range v.Len() {
			mapField(v.Index(i), f)
		}
	}
}

func mapField(v reflect.Value, f func(syntax.Expr) syntax.Expr) {
	if !v.CanSet() {
		return // an unexported field (commentsRef): no part of the tree
	}
	mapExprs(v, f)
	// A field of type Expr, or of type Node holding one (a
	// comprehension's body).
	if v.Kind() != reflect.Interface || v.IsNil() || !exprType.AssignableTo(v.Type()) {
		return
	}
	if e, ok := v.Interface().(syntax.Expr); ok {
		v.Set(reflect.ValueOf(f(e)))
	}
}
