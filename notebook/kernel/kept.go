package kernel

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"go.starlark.net/starlark"

	"gradbook/internal/words"
)

// A run's state after a cell is its environment (env.go). It is kept,
// keyed by the sources of the cells up to that cell, so that running a
// cell whose cells above are unchanged starts from there instead of
// running them again: the plot under a training cell does not train
// again. Two rules keep that invisible, so that a result never depends on
// what ran before:
//
//   - When a cell ends, every value in the environment is frozen: a later
//     cell cannot append to a list or change a dict that a cell above made
//     (it gets an error saying so; it can make a copy).
//   - Values and tensors stay changeable (a training step sets .value,
//     backward sets .grad), so a kept state records, through the parts
//     they belong to (parts.go), the number, gradient and label of every
//     Value it can reach and the numbers of every tensor, and puts them
//     back when a run starts from it.

// lineage is what the cells of one chain share across the runs of a
// Session: the environment, one map read by every function they define,
// and the parts of other packages (parts.go).
type lineage struct {
	env   starlark.StringDict
	parts []Part
}

func (s *Session) newLineage() *lineage {
	env := make(starlark.StringDict, len(s.builtins)+4)
	// Starlark's str, repr and print, writing nested values without
	// recursion (format.go).
	env["str"] = starlark.NewBuiltin("str", strBuiltin)
	env["repr"] = starlark.NewBuiltin("repr", reprBuiltin)
	env["print"] = starlark.NewBuiltin("print", printBuiltin)
	for k, v := range s.builtins {
		env[k] = v
	}
	env[setName] = starlark.NewBuiltin(setName, setBuiltin)
	for k, v := range dialect { // @ and subscripts of several axes (pytorch.go)
		env[k] = v
	}
	l := &lineage{env: env}
	if s.newParts != nil {
		l.parts = s.newParts()
	}
	return l
}

// snapshot is the state after a cell, with the results of every cell up
// to it: a run from it needs no other snapshot, so that dropping the
// state after an early cell (a data set's) does not lose the states after
// the cells below it.
type snapshot struct {
	srcs  []string     // the sources of the cells up to this one
	res   []CellResult // the results of the cells up to this one
	drawn []bool       // whether each of res holds its cell's drawings
	lin   *lineage
	env   starlark.StringDict
	parts []func() error // what puts each of lin.parts back (Part.Keep)
	cost  int            // what it holds, in numbers: the parts' cost
}

// restore puts the lineage back as it was after the cell, or says why it
// cannot: a part found that what it did not copy has changed since.
func (s *snapshot) restore() error {
	clear(s.lin.env)
	for k, v := range s.env {
		s.lin.env[k] = v
	}
	for _, restore := range s.parts {
		if err := restore(); err != nil {
			return err
		}
	}
	return nil
}

// take freezes the environment and records it, with what each part
// keeps of the changeable values it reaches (freeze); res and drawn are
// the results of the cells up to it. It fails as freeze does, keeping
// nothing.
func take(lin *lineage, srcs []string, res []CellResult, drawn []bool) (*snapshot, *nestedError) {
	held, err := freeze(lin)
	if err != nil {
		return nil, err
	}
	s := &snapshot{srcs: slices.Clone(srcs), res: slices.Clone(res), drawn: slices.Clone(drawn), lin: lin, env: maps.Clone(lin.env)}
	s.parts = make([]func() error, len(lin.parts))
	for i, p := range lin.parts {
		var cost int
		s.parts[i], cost = p.Keep(held[i])
		s.cost += cost
	}
	return s, nil
}

// nestedError is why a global cannot be frozen: it nests deeper than
// MaxNesting, or holds the same tuples or functions too many times over.
type nestedError struct {
	name string
	msg  string
}

// maxReexpansions is how many times over freeze walks into tuples and
// functions it has walked into before (Starlark's Freeze does, since
// they have no mark of their own): a tuple that holds one tuple twice,
// forty times over, is a thousand billion walks.
const maxReexpansions = 1_000_000

// freeze checks that Starlark can freeze every global, then freezes
// them, so that a later cell cannot change what this one left; and it
// hands each Changeable value the globals reach to the part it belongs
// to (held[i] for lin.parts[i]).
//
// Starlark's Freeze recurses once per level of nesting, with no bound,
// and a stack overflow kills the browser's WebAssembly runtime, not the
// cell: so freeze first walks the globals as Freeze will, with a stack of
// its own, marking lists, dicts and sets as Freeze marks them frozen and
// walking into tuples and functions each time, as Freeze does. A global
// whose walk goes deeper than MaxNesting (a list in a list twenty
// thousand times, a function whose closure holds itself) or into the
// same tuples too many times is refused, before anything recurses.
func freeze(lin *lineage) (held [][]Changeable, _ *nestedError) {
	held = make([][]Changeable, len(lin.parts))
	seen := map[starlark.Value]bool{}    // lists, dicts, sets and functions walked into
	tuples := map[*starlark.Value]bool{} // tuples walked into, by their first element
	type frame struct {
		list  *starlark.List // read in place: a list may be long
		items []starlark.Value
		next  int
	}
	names := slices.Sorted(maps.Keys(lin.env))
	again := 0
	for _, name := range names {
		stack := []frame{{items: []starlark.Value{lin.env[name]}}}
		for len(stack) > 0 {
			f := &stack[len(stack)-1]
			var x starlark.Value
			switch {
			case f.list != nil && f.next < f.list.Len():
				x = f.list.Index(f.next)
			case f.list == nil && f.next < len(f.items):
				x = f.items[f.next]
			default:
				stack = stack[:len(stack)-1]
				continue
			}
			f.next++
			var list *starlark.List
			var items []starlark.Value
			switch x := x.(type) {
			case Changeable:
				p := x.KeptBy()
				for i := range lin.parts {
					if lin.parts[i] == p {
						held[i] = append(held[i], x)
					}
				}
				continue
			case *starlark.List:
				if seen[x] {
					continue
				}
				seen[x] = true
				list = x
			case *starlark.Dict:
				if seen[x] {
					continue
				}
				seen[x] = true
				for _, kv := range x.Items() {
					items = append(items, kv[0], kv[1])
				}
			case *starlark.Set:
				if seen[x] {
					continue
				}
				seen[x] = true
				it := x.Iterate()
				var e starlark.Value
				for it.Next(&e) {
					items = append(items, e)
				}
				it.Done()
			case starlark.Tuple:
				if len(x) == 0 {
					continue
				}
				if tuples[&x[0]] {
					again++
				}
				tuples[&x[0]] = true
				items = x
			case *starlark.Function:
				if seen[x] {
					again++
				}
				seen[x] = true
				for i := range x.NumParams() {
					if d := x.ParamDefault(i); d != nil {
						items = append(items, d)
					}
				}
				for i := range x.NumFreeVars() {
					_, v := x.FreeVar(i)
					items = append(items, v)
				}
			case *starlark.Builtin:
				if r := x.Receiver(); r != nil {
					items = []starlark.Value{r} // a bound method freezes its list
				}
			}
			if len(items) == 0 && (list == nil || list.Len() == 0) {
				continue
			}
			if len(stack) >= MaxNesting {
				return nil, &nestedError{name, fmt.Sprintf("%s is nested more than %s deep (a list in a list in a list…, or a function whose closure holds itself): a cell can leave data at most that deep, so that it can be kept, shown and compared; keep it flatter, such as a list of the items instead of a chain of lists", name, words.Int(MaxNesting))}
			}
			if again > maxReexpansions {
				return nil, &nestedError{name, fmt.Sprintf("%s holds the same tuples or functions more than %s times over (a tuple that holds one tuple twice, many times over): too many to keep", name, words.Int(maxReexpansions))}
			}
			stack = append(stack, frame{list: list, items: items})
		}
	}
	for _, name := range names {
		lin.env[name].Freeze() // as deep as the walk above went, at most
	}
	return held, nil
}

// keptStates are a Session's latest snapshots, within limits.
type keptStates struct {
	list    []*snapshot // oldest first
	saved   int         // numbers recorded, over all snapshots
	dropped []string    // the keys of the latest snapshots dropped for their size
}

// key is a snapshot's sources as one string.
func key(srcs []string) string { return strings.Join(srcs, "\x00") }

// wasDropped reports whether the state after one of the cells above the
// last of srcs was kept, then dropped for the limits.
func (c *keptStates) wasDropped(srcs []string) bool {
	for k := len(srcs) - 1; k >= 1; k-- {
		if slices.Contains(c.dropped, key(srcs[:k])) {
			return true
		}
	}
	return false
}

// Limits of what a Session keeps: it holds the graphs of its snapshots.
const (
	maxSnapshots = 64
	maxSaved     = 2_000_000
)

// longest returns the kept snapshot after the most cells of srcs, at
// most upTo of them, whose first maxCells cells were drawn if drawn is
// set (Run all shows every cell's drawings), or nil.
func (c *keptStates) longest(srcs []string, upTo int, drawn bool) *snapshot {
	var best *snapshot
	for _, s := range c.list {
		k := len(s.srcs)
		if k < 1 || k > upTo || k > len(srcs) || (best != nil && k <= len(best.srcs)) || !slices.Equal(s.srcs, srcs[:k]) {
			continue
		}
		if drawn && slices.Contains(s.drawn, false) {
			continue
		}
		best = s
	}
	if best != nil {
		c.touch(best)
	}
	return best
}

// drop forgets s, whose state could not be put back.
func (c *keptStates) drop(s *snapshot) {
	if i := slices.Index(c.list, s); i >= 0 {
		c.saved -= s.cost
		c.list = slices.Delete(c.list, i, i+1)
	}
}

func (c *keptStates) touch(s *snapshot) {
	if i := slices.Index(c.list, s); i >= 0 {
		c.list = append(append(c.list[:i:i], c.list[i+1:]...), s)
	}
}

func (c *keptStates) put(s *snapshot) {
	c.list = slices.DeleteFunc(c.list, func(t *snapshot) bool {
		if slices.Equal(t.srcs, s.srcs) {
			c.saved -= t.cost
			return true
		}
		return false
	})
	c.list = append(c.list, s)
	c.saved += s.cost
	for len(c.list) > 1 && (len(c.list) > maxSnapshots || c.saved > maxSaved) {
		c.saved -= c.list[0].cost
		if c.dropped = append(c.dropped, key(c.list[0].srcs)); len(c.dropped) > maxSnapshots {
			c.dropped = c.dropped[1:]
		}
		c.list = c.list[1:]
	}
}

// forget drops every kept state: the next run computes everything again.
func (c *keptStates) forget() {
	c.list, c.saved, c.dropped = nil, 0, nil
}
