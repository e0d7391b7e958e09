package engine

import (
	"fmt"

	"gradbook/internal/jsontext"
)

// ParseGraph decodes a graph from JSON in the lessons' list format:
// [["p", "mul", ["a", "b"]], ["y", "pow", ["p"], 2], ...]. It checks the
// shape only; Compile checks the meaning. Errors say which entry is wrong.
func ParseGraph(data []byte) (Graph, error) {
	v, err := jsontext.DecodeOrdered(data)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrSyntax, err)
	}
	return GraphOf(v)
}

// ParseValues decodes a JSON object of names and numbers, {"a": 2, "b": 3},
// keeping the order in which the names appear. Every value must be a finite
// number; a repeated name is an error.
func ParseValues(data []byte) (names []string, xs []float64, err error) {
	v, err := jsontext.DecodeOrdered(data)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: %v", ErrSyntax, err)
	}
	return ValuesOf(v)
}

// GraphOf reads a graph in the list format from decoded JSON values
// (jsontext.DecodeOrdered's, or the same shapes built another way): a
// []any of entries, each a []any of a name, an op, a []any of input names
// and an optional exponent, with strings and float64 numbers. It checks
// the shape only; Compile checks the meaning.
func GraphOf(v any) (Graph, error) {
	list, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("%w: the graph must be a list of [name, op, [inputs]] entries, got %s", ErrSyntax, kind(v))
	}
	g := make(Graph, len(list))
	for i, e := range list {
		n, err := nodeOf(i, e)
		if err != nil {
			return nil, err
		}
		g[i] = n
	}
	return g, nil
}

// nodeOf reads [name, op, [inputs...]] or [name, op, [inputs...], k].
func nodeOf(i int, v any) (Node, error) {
	var n Node
	where := fmt.Sprintf("entry %d", i+1)
	e, ok := v.([]any)
	if !ok {
		return n, fmt.Errorf("%w: %s: expected [name, op, [inputs]], got %s", ErrSyntax, where, kind(v))
	}
	if len(e) == 0 {
		return n, fmt.Errorf("%w: %s: expected [name, op, [inputs]], got an empty list", ErrSyntax, where)
	}
	if n.Name, ok = e[0].(string); !ok {
		return n, fmt.Errorf("%w: %s: the name must be a string, got %s", ErrSyntax, where, kind(e[0]))
	}
	if n.Name != "" {
		where = fmt.Sprintf("node %q", n.Name)
	}
	if len(e) < 3 {
		return n, fmt.Errorf("%w: %s: expected [name, op, [inputs]], but the entry ends early", ErrSyntax, where)
	}
	if len(e) > 4 {
		return n, fmt.Errorf("%w: %s: an entry has at most four elements: [name, op, [inputs], exponent]", ErrSyntax, where)
	}
	if n.Op, ok = e[1].(string); !ok {
		return n, fmt.Errorf("%w: %s: the op must be a string, got %s", ErrSyntax, where, kind(e[1]))
	}
	ins, ok := e[2].([]any)
	if !ok {
		return n, fmt.Errorf("%w: %s: the inputs must be a list of names, got %s", ErrSyntax, where, kind(e[2]))
	}
	n.Inputs = make([]string, len(ins))
	for p, in := range ins {
		if n.Inputs[p], ok = in.(string); !ok {
			return n, fmt.Errorf("%w: %s: input %d must be a name in quotes, got %s", ErrSyntax, where, p+1, kind(in))
		}
	}
	if len(e) == 4 {
		if n.K, ok = e[3].(float64); !ok {
			return n, fmt.Errorf("%w: %s: the fourth element (pow's exponent) must be a number, got %s", ErrSyntax, where, kind(e[3]))
		}
	}
	return n, nil
}

// ValuesOf reads named values from a decoded JSON object (a
// jsontext.Object, whose order it keeps). Every value must be a finite
// number; a repeated name is an error.
func ValuesOf(v any) (names []string, xs []float64, err error) {
	o, ok := v.(jsontext.Object)
	if !ok {
		return nil, nil, fmt.Errorf("%w: the values must be an object of names and numbers, like {\"a\": 2}, got %s", ErrSyntax, kind(v))
	}
	seen := make(map[string]bool, len(o))
	names, xs = make([]string, len(o)), make([]float64, len(o))
	for i, m := range o {
		if m.Name == "" {
			return nil, nil, fmt.Errorf("a leaf has an empty name: %w", ErrEmptyName)
		}
		if seen[m.Name] {
			return nil, nil, leafErr(m.Name, ErrDuplicate, "given twice")
		}
		seen[m.Name] = true
		x, ok := m.Value.(float64)
		if !ok {
			if m.Value == nil {
				return nil, nil, leafErr(m.Name, ErrBadNumber, "got null (NaN and Infinity arrive as null)")
			}
			return nil, nil, leafErr(m.Name, ErrBadNumber, "got %s", kind(m.Value))
		}
		if err := checkNumber(m.Name, x); err != nil {
			return nil, nil, err
		}
		names[i], xs[i] = m.Name, x
	}
	return names, xs, nil
}

// kind names the JSON kind of a decoded value, for error messages.
func kind(v any) string {
	switch v.(type) {
	case []any:
		return "a list"
	case jsontext.Object, map[string]any:
		return "an object"
	case string:
		return "a string"
	case float64:
		return "a number"
	case nil:
		return "null"
	case bool:
		return "a boolean"
	}
	return fmt.Sprintf("a %T", v)
}
