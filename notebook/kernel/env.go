package kernel

import (
	"fmt"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// Cells run one at a time, each as its own Starlark file, over one shared
// environment: a map that holds the built-ins and every global a cell
// assigns. Starlark would make a name assigned at a file's top level a
// global of that file alone, so that a function defined in one cell would
// never see a later cell's new value for it. So, before a cell is
// compiled, its top-level assignments are rewritten into calls of the
// built-in __set__, which writes the environment, and every other name is
// read from the environment when the code runs, as in Python:
//
//	x = f(1)            →  __set__("x", f(1))
//	a, b = 1, 2         →  __set__(("a", "b"), (1, 2))
//	x += 1              →  __set__("x", x + 1, "+=")
//	for i in xs: …      →  for __for1 in xs: __set__("i", __for1); …
//	def f(): …          →  def f(): …; __set__("f", f)
//
// Because the environment after each cell is, with the parts of other
// packages, all there is of a run's state, it can be kept (kept.go).

// setName is the built-in that writes the environment.
const setName = "__set__"

// rewrite turns a cell's top-level bindings into writes of the
// environment (see above).
func rewrite(f *syntax.File) {
	loops := 0
	f.Stmts = rewriteStmts(f.Stmts, &loops)
}

func rewriteStmts(stmts []syntax.Stmt, loops *int) []syntax.Stmt {
	if stmts == nil {
		return nil // an if without else stays without: its Span needs that
	}
	out := make([]syntax.Stmt, 0, len(stmts))
	for _, s := range stmts {
		switch s := s.(type) {
		case *syntax.AssignStmt:
			names, ok := targetNames(s.LHS)
			if !ok {
				out = append(out, s)
				continue
			}
			if s.Op == syntax.EQ {
				out = append(out, setCall(s.OpPos, names, s.RHS))
				continue
			}
			// The old value is told of the augmented assignment (Augmented).
			set := setCall(s.OpPos, names, &syntax.BinaryExpr{X: s.LHS, OpPos: s.OpPos, Op: augmented[s.Op], Y: s.RHS})
			call := set.(*syntax.ExprStmt).X.(*syntax.CallExpr)
			call.Args = append(call.Args, &syntax.Literal{Token: syntax.STRING, TokenPos: s.OpPos, Raw: fmt.Sprintf("%q", s.Op.String()), Value: s.Op.String()})
			out = append(out, set)
		case *syntax.ForStmt:
			s.Body = rewriteStmts(s.Body, loops)
			if names, ok := targetNames(s.Vars); ok {
				*loops++
				tmp := &syntax.Ident{NamePos: s.For, Name: fmt.Sprintf("__for%d", *loops)}
				s.Body = append([]syntax.Stmt{setCall(s.For, names, &syntax.Ident{NamePos: s.For, Name: tmp.Name})}, s.Body...)
				s.Vars = tmp
			}
			out = append(out, s)
		case *syntax.WhileStmt:
			s.Body = rewriteStmts(s.Body, loops)
			out = append(out, s)
		case *syntax.IfStmt:
			s.True = rewriteStmts(s.True, loops)
			s.False = rewriteStmts(s.False, loops)
			out = append(out, s)
		case *syntax.DefStmt:
			out = append(out, s, setCall(s.Def, &syntax.Literal{Token: syntax.STRING, TokenPos: s.Def, Raw: fmt.Sprintf("%q", s.Name.Name), Value: s.Name.Name}, &syntax.Ident{NamePos: s.Name.NamePos, Name: s.Name.Name}))
		default:
			out = append(out, s)
		}
	}
	return out
}

var augmented = map[syntax.Token]syntax.Token{
	syntax.PLUS_EQ: syntax.PLUS, syntax.MINUS_EQ: syntax.MINUS, syntax.STAR_EQ: syntax.STAR,
	syntax.SLASH_EQ: syntax.SLASH, syntax.SLASHSLASH_EQ: syntax.SLASHSLASH, syntax.PERCENT_EQ: syntax.PERCENT,
	syntax.AMP_EQ: syntax.AMP, syntax.PIPE_EQ: syntax.PIPE, syntax.CIRCUMFLEX_EQ: syntax.CIRCUMFLEX,
	syntax.LTLT_EQ: syntax.LTLT, syntax.GTGT_EQ: syntax.GTGT,
}

// targetNames returns the names an assignment's left side binds, as a
// string literal or a nested tuple of them, if it binds names only.
func targetNames(e syntax.Expr) (syntax.Expr, bool) {
	switch e := e.(type) {
	case *syntax.Ident:
		return &syntax.Literal{Token: syntax.STRING, TokenPos: e.NamePos, Raw: fmt.Sprintf("%q", e.Name), Value: e.Name}, true
	case *syntax.ParenExpr:
		return targetNames(e.X)
	case *syntax.TupleExpr:
		return tupleNames(e.Lparen, e.List)
	case *syntax.ListExpr:
		return tupleNames(e.Lbrack, e.List)
	}
	return nil, false
}

func tupleNames(pos syntax.Position, list []syntax.Expr) (syntax.Expr, bool) {
	t := &syntax.TupleExpr{Lparen: pos, Rparen: pos}
	for _, x := range list {
		n, ok := targetNames(x)
		if !ok {
			return nil, false
		}
		t.List = append(t.List, n)
	}
	if len(t.List) == 0 {
		return nil, false
	}
	return t, true
}

func setCall(pos syntax.Position, names, value syntax.Expr) syntax.Stmt {
	return &syntax.ExprStmt{X: &syntax.CallExpr{Fn: &syntax.Ident{NamePos: pos, Name: setName}, Lparen: pos, Args: []syntax.Expr{names, value}, Rparen: pos}}
}

// BoundNames returns the names the top level of a cell binds, by
// assignment, for or def, in order.
func BoundNames(f *syntax.File) []string {
	var names []string
	var walk func(stmts []syntax.Stmt)
	var add func(e syntax.Expr)
	add = func(e syntax.Expr) {
		switch e := e.(type) {
		case *syntax.Ident:
			names = append(names, e.Name)
		case *syntax.ParenExpr:
			add(e.X)
		case *syntax.TupleExpr:
			for _, x := range e.List {
				add(x)
			}
		case *syntax.ListExpr:
			for _, x := range e.List {
				add(x)
			}
		}
	}
	walk = func(stmts []syntax.Stmt) {
		for _, s := range stmts {
			switch s := s.(type) {
			case *syntax.AssignStmt:
				add(s.LHS)
			case *syntax.ForStmt:
				add(s.Vars)
				walk(s.Body)
			case *syntax.WhileStmt:
				walk(s.Body)
			case *syntax.IfStmt:
				walk(s.True)
				walk(s.False)
			case *syntax.DefStmt:
				names = append(names, s.Name.Name)
			}
		}
	}
	walk(f.Stmts)
	return names
}

// assignedNames returns the names a cell surely assigns: those bound by
// its top-level assignment statements, to label the Values it leaves in
// its drawings.
func assignedNames(f *syntax.File) []string {
	var names []string
	seen := map[string]bool{}
	var add func(e syntax.Expr)
	add = func(e syntax.Expr) {
		switch e := e.(type) {
		case *syntax.Ident:
			if !seen[e.Name] {
				seen[e.Name] = true
				names = append(names, e.Name)
			}
		case *syntax.TupleExpr:
			for _, x := range e.List {
				add(x)
			}
		case *syntax.ParenExpr:
			add(e.X)
		case *syntax.ListExpr:
			for _, x := range e.List {
				add(x)
			}
		}
	}
	for _, stmt := range f.Stmts {
		if a, ok := stmt.(*syntax.AssignStmt); ok && a.Op == syntax.EQ {
			add(a.LHS)
		}
	}
	return names
}

// Augmented is a value that a top-level augmented assignment of its name
// (W -= x, which rebinds W to W - x) is told of before the name is
// rebound, and may refuse: where a Python library would change the value
// in place (a PyTorch parameter), rebinding it instead can silently
// break what the learner meant.
type Augmented interface {
	starlark.Value
	// Augmented returns why name op … must not rebind name, or nil.
	Augmented(name, op string) error
}

// setBuiltin is __set__(names, value) or, for an augmented assignment,
// __set__(name, value, op): it binds a name, or unpacks value into a
// nested tuple of names, in the environment.
func setBuiltin(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	r := RunOf(thread)
	if r == nil || len(args) < 2 || len(args) > 3 {
		return nil, fmt.Errorf("%s is Gradbook's own", setName)
	}
	if len(args) == 3 {
		name, _ := args[0].(starlark.String)
		op, _ := args[2].(starlark.String)
		if old, ok := r.lin.env[string(name)].(Augmented); ok {
			if err := old.Augmented(string(name), string(op)); err != nil {
				return nil, err
			}
		}
	}
	return starlark.None, bind(r.lin.env, args[0], args[1])
}

func bind(env starlark.StringDict, names, value starlark.Value) error {
	if name, ok := names.(starlark.String); ok {
		env[string(name)] = value
		return nil
	}
	targets := names.(starlark.Tuple)
	it, ok := value.(starlark.Iterable)
	if !ok {
		return fmt.Errorf("got %s in sequence assignment", value.Type())
	}
	var items []starlark.Value
	iter := it.Iterate()
	defer iter.Done()
	var x starlark.Value
	for iter.Next(&x) {
		items = append(items, x)
		if len(items) > len(targets) {
			return fmt.Errorf("too many values to unpack (got more than %d, want %d)", len(targets), len(targets))
		}
	}
	if len(items) < len(targets) {
		return fmt.Errorf("too few values to unpack (got %d, want %d)", len(items), len(targets))
	}
	for i, t := range targets {
		if err := bind(env, t, items[i]); err != nil {
			return err
		}
	}
	return nil
}

// bindingLine returns the line of the last statement of a rewritten cell
// that binds name at its top level (a __set__ call), or 0.
func bindingLine(f *syntax.File, name string) int {
	line := 0
	syntax.Walk(f, func(n syntax.Node) bool {
		c, ok := n.(*syntax.CallExpr)
		if !ok {
			return true
		}
		if fn, ok := c.Fn.(*syntax.Ident); ok && fn.Name == setName && len(c.Args) == 2 && binds(c.Args[0], name) {
			line = int(c.Lparen.Line)
		}
		return true
	})
	return line
}

// binds reports whether the names of a __set__ call, a string literal or
// a nested tuple of them, include name.
func binds(names syntax.Expr, name string) bool {
	switch e := names.(type) {
	case *syntax.Literal:
		return e.Value == name
	case *syntax.TupleExpr:
		for _, x := range e.List {
			if binds(x, name) {
				return true
			}
		}
	}
	return false
}
