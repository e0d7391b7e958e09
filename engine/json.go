package engine

import (
	"fmt"
	"math"
	"strconv"

	"gradbook/internal/jsontext"
)

// ParseGraph decodes a graph from JSON in the lessons' list format:
// [["p", "mul", ["a", "b"]], ["y", "pow", ["p"], 2], ...]. It checks the
// shape only; Compile checks the meaning. Errors say which entry is wrong.
func ParseGraph(data []byte) (Graph, error) {
	d := decoder{data: data}
	if k := d.kind(); k != "a list" {
		return nil, fmt.Errorf("%w: the graph must be a list of [name, op, [inputs]] entries, got %s", ErrSyntax, k)
	}
	d.pos++
	g := Graph{}
	for i := 0; ; i++ {
		if d.ws() == ']' && i == 0 {
			d.pos++
			break
		}
		n, err := d.entry(i)
		if err != nil {
			return nil, err
		}
		g = append(g, n)
		c, err := d.next("graph", "',' or ']' after entry "+strconv.Itoa(i+1))
		if err != nil {
			return nil, err
		}
		if c == ']' {
			break
		}
	}
	if d.ws() != 0 {
		return nil, fmt.Errorf("%w: unexpected text after the graph at byte %d", ErrSyntax, d.pos+1)
	}
	return g, nil
}

// UnmarshalJSON decodes g with ParseGraph.
func (g *Graph) UnmarshalJSON(data []byte) error {
	x, err := ParseGraph(data)
	if err != nil {
		return err
	}
	*g = x
	return nil
}

// ParseValues decodes a JSON object of names and numbers, {"a": 2, "b": 3},
// keeping the order in which the names appear. Every value must be a finite
// number; a repeated name is an error.
func ParseValues(data []byte) (names []string, vals []float64, err error) {
	d := decoder{data: data}
	if k := d.kind(); k != "an object" {
		return nil, nil, fmt.Errorf("%w: the values must be an object of names and numbers, like {\"a\": 2}, got %s", ErrSyntax, k)
	}
	d.pos++
	seen := map[string]bool{}
	for i := 0; ; i++ {
		if d.ws() == '}' && i == 0 {
			d.pos++
			break
		}
		if d.kind() != "a string" {
			return nil, nil, fmt.Errorf("%w: expected a name in quotes at byte %d", ErrSyntax, d.pos+1)
		}
		name, err := d.str()
		if err != nil {
			return nil, nil, err
		}
		if _, err := d.next("leaf "+strconv.Quote(name), "':'"); err != nil {
			return nil, nil, err
		}
		if name == "" {
			return nil, nil, fmt.Errorf("a leaf has an empty name: %w", ErrEmptyName)
		}
		if seen[name] {
			return nil, nil, leafErr(name, ErrDuplicate, "given twice")
		}
		seen[name] = true
		if k := d.kind(); k != "a number" {
			if k == "null" {
				return nil, nil, leafErr(name, ErrBadNumber, "got null (NaN and Infinity arrive as null)")
			}
			return nil, nil, leafErr(name, ErrBadNumber, "got %s", k)
		}
		x, err := d.num()
		if err != nil {
			return nil, nil, leafErr(name, ErrBadNumber, "%v", err)
		}
		if err := checkNumber(name, x); err != nil {
			return nil, nil, err
		}
		names = append(names, name)
		vals = append(vals, x)
		c, err := d.next("values", "',' or '}' after leaf "+strconv.Quote(name))
		if err != nil {
			return nil, nil, err
		}
		if c == '}' {
			break
		}
	}
	if d.ws() != 0 {
		return nil, nil, fmt.Errorf("%w: unexpected text after the values at byte %d", ErrSyntax, d.pos+1)
	}
	return names, vals, nil
}

type decoder struct {
	data []byte
	pos  int
}

// ws skips white space and returns the next byte, or 0 at the end.
func (d *decoder) ws() byte {
	for d.pos < len(d.data) {
		switch c := d.data[d.pos]; c {
		case ' ', '\t', '\n', '\r':
			d.pos++
		default:
			return c
		}
	}
	return 0
}

// next consumes the separator after a value and returns it.
func (d *decoder) next(where, want string) (byte, error) {
	c := d.ws()
	switch c {
	case ',', ']', '}', ':':
		if (want == "':'") != (c == ':') {
			break
		}
		d.pos++
		return c, nil
	}
	if c == 0 {
		return 0, fmt.Errorf("%w: %s: the text ends where %s was expected", ErrSyntax, where, want)
	}
	return 0, fmt.Errorf("%w: %s: expected %s at byte %d, got %q", ErrSyntax, where, want, d.pos+1, c)
}

// kind describes the next value without consuming it.
func (d *decoder) kind() string {
	switch c := d.ws(); {
	case c == '[':
		return "a list"
	case c == '{':
		return "an object"
	case c == '"':
		return "a string"
	case c == '-' || c >= '0' && c <= '9':
		return "a number"
	case c == 'n':
		return "null"
	case c == 't' || c == 'f':
		return "a boolean"
	case c == 0:
		return "nothing"
	default:
		return fmt.Sprintf("%q", c)
	}
}

func (d *decoder) str() (string, error) {
	start := d.pos
	d.pos++
	escaped := false
	for d.pos < len(d.data) {
		switch d.data[d.pos] {
		case '\\':
			escaped = true
			d.pos += 2
			continue
		case '"':
			d.pos++
			if !escaped {
				return string(d.data[start+1 : d.pos-1]), nil
			}
			s, ok := unescape(d.data[start+1 : d.pos-1])
			if !ok {
				return "", fmt.Errorf("%w: bad escape in the string at byte %d", ErrSyntax, start+1)
			}
			return s, nil
		}
		d.pos++
	}
	return "", fmt.Errorf("%w: a string starting at byte %d never ends", ErrSyntax, start+1)
}

func (d *decoder) num() (float64, error) {
	start := d.pos
	for d.pos < len(d.data) {
		c := d.data[d.pos]
		if c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E' || c >= '0' && c <= '9' {
			d.pos++
			continue
		}
		break
	}
	x, err := strconv.ParseFloat(string(d.data[start:d.pos]), 64)
	if err != nil {
		return 0, fmt.Errorf("%w: bad number %q at byte %d", ErrSyntax, d.data[start:d.pos], start+1)
	}
	return x, nil
}

// entry decodes [name, op, [inputs...]] or [name, op, [inputs...], k].
func (d *decoder) entry(i int) (Node, error) {
	var n Node
	where := fmt.Sprintf("entry %d", i+1)
	if k := d.kind(); k != "a list" {
		return n, fmt.Errorf("%w: %s: expected [name, op, [inputs]], got %s", ErrSyntax, where, k)
	}
	d.pos++
	if d.ws() == ']' {
		return n, fmt.Errorf("%w: %s: expected [name, op, [inputs]], got an empty list", ErrSyntax, where)
	}
	if k := d.kind(); k != "a string" {
		return n, fmt.Errorf("%w: %s: the name must be a string, got %s", ErrSyntax, where, k)
	}
	var err error
	if n.Name, err = d.str(); err != nil {
		return n, err
	}
	if n.Name != "" {
		where = "node " + strconv.Quote(n.Name)
	}
	short := func() error {
		return fmt.Errorf("%w: %s: expected [name, op, [inputs]], but the entry ends early", ErrSyntax, where)
	}
	if c, err := d.next(where, "','"); err != nil || c != ',' {
		return n, short()
	}
	if k := d.kind(); k != "a string" {
		return n, fmt.Errorf("%w: %s: the op must be a string, got %s", ErrSyntax, where, k)
	}
	if n.Op, err = d.str(); err != nil {
		return n, err
	}
	if c, err := d.next(where, "','"); err != nil || c != ',' {
		return n, short()
	}
	if k := d.kind(); k != "a list" {
		return n, fmt.Errorf("%w: %s: the inputs must be a list of names, got %s", ErrSyntax, where, k)
	}
	d.pos++
	n.Inputs = make([]string, 0, 2)
	for p := 0; ; p++ {
		if d.ws() == ']' && p == 0 {
			d.pos++
			break
		}
		if k := d.kind(); k != "a string" {
			return n, fmt.Errorf("%w: %s: input %d must be a name in quotes, got %s", ErrSyntax, where, p+1, k)
		}
		in, err := d.str()
		if err != nil {
			return n, err
		}
		n.Inputs = append(n.Inputs, in)
		c, err := d.next(where, "',' or ']' in the inputs")
		if err != nil {
			return n, err
		}
		if c == ']' {
			break
		}
	}
	c, err := d.next(where, "',' or ']'")
	if err != nil {
		return n, err
	}
	if c == ']' {
		return n, nil
	}
	if k := d.kind(); k != "a number" {
		return n, fmt.Errorf("%w: %s: the fourth element (pow's exponent) must be a number, got %s", ErrSyntax, where, k)
	}
	if n.K, err = d.num(); err != nil {
		return n, err
	}
	if c, err := d.next(where, "']'"); err != nil || c != ']' {
		return n, fmt.Errorf("%w: %s: an entry has at most four elements: [name, op, [inputs], exponent]", ErrSyntax, where)
	}
	return n, nil
}

// EvaluateJSON is Evaluate on JSON text: a graph in the list format and an
// object of leaf values. It returns a JSON object of every value: the
// leaves in the order given, then the nodes in graph order.
func EvaluateJSON(graph, leaves []byte) ([]byte, error) {
	names, xs, err := EvaluateOrdered(graph, leaves)
	if err != nil {
		return nil, err
	}
	return appendObject(nil, names, xs), nil
}

// EvaluateOrdered is EvaluateJSON returning the names and values in order.
func EvaluateOrdered(graph, leaves []byte) (names []string, vals []float64, err error) {
	t, b, xs, names, err := decodeJSON(graph, leaves, true)
	if err != nil {
		return nil, nil, err
	}
	names = append(names, t.names[t.leaves:]...)
	return names, append(xs, b[t.leaves:]...), nil
}

func appendObject(buf []byte, names []string, xs []float64) []byte {
	buf = append(buf, '{')
	for i, name := range names {
		buf = appendMember(buf, i, name, xs[i])
	}
	return append(buf, '}')
}

// BackwardJSON is Backward on JSON text: a graph in the list format and an
// object of every value, as EvaluateJSON returns it. It returns a JSON
// object of gradients, one for each value, in the order given. A gradient
// that overflows is written as 1e999, which JavaScript reads as Infinity.
func BackwardJSON(graph, values []byte, out string) ([]byte, error) {
	names, grads, err := BackwardOrdered(graph, values, out)
	if err != nil {
		return nil, err
	}
	return appendObject(nil, names, grads), nil
}

// BackwardOrdered is BackwardJSON returning the names and gradients in
// order.
func BackwardOrdered(graph, values []byte, out string) (names []string, grads []float64, err error) {
	t, vals, _, names, err := decodeJSON(graph, values, false)
	if err != nil {
		return nil, nil, err
	}
	bound := t.bindNames(names, nil)
	outID := int32(-1)
	if id, ok := t.byName[out]; ok {
		outID = id
	}
	grads, err = t.Gradients(vals, bound, outID, out, Accumulate)
	if err != nil {
		return nil, nil, err
	}
	return names, grads, nil
}

// decodeJSON parses a graph and named values and loads them into a Tape:
// it returns the tape, the value of every slot (for Evaluate, after the
// forward pass), and the given values with their names.
func decodeJSON(graph, values []byte, leavesOnly bool) (t *Tape, vals, xs []float64, names []string, err error) {
	g, err := ParseGraph(graph)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	names, xs, err = ParseValues(values)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	if t, err = Compile(g); err != nil {
		return nil, nil, nil, nil, err
	}
	if vals, err = t.Load(t.bindNames(names, xs), leavesOnly); err != nil {
		return nil, nil, nil, nil, err
	}
	if leavesOnly {
		err = t.Forward(vals)
	}
	return t, vals, xs, names, err
}

// bindNames numbers the given names with t.
func (t *Tape) bindNames(names []string, xs []float64) Bound {
	b := Bound{IDs: make([]int32, len(names)), Xs: xs}
	for i, name := range names {
		b.IDs[i] = -1
		if id, ok := t.byName[name]; ok {
			b.IDs[i] = id
		} else {
			b.Extra = append(b.Extra, name)
		}
	}
	return b
}

func appendMember(buf []byte, i int, name string, x float64) []byte {
	if i > 0 {
		buf = append(buf, ',')
	}
	buf = AppendString(buf, name)
	buf = append(buf, ':')
	return AppendNumber(buf, x)
}

// AppendNumber appends x as a JSON number, writing ±Inf as ±1e999 (which
// JavaScript reads as ±Infinity) and NaN as null.
func AppendNumber(buf []byte, x float64) []byte {
	switch {
	case math.IsNaN(x):
		return append(buf, "null"...)
	case math.IsInf(x, 1):
		return append(buf, "1e999"...)
	case math.IsInf(x, -1):
		return append(buf, "-1e999"...)
	}
	return strconv.AppendFloat(buf, x, 'g', -1, 64)
}

// AppendString appends s as a JSON string.
func AppendString(buf []byte, s string) []byte { return jsontext.AppendString(buf, s) }

// unescape decodes the body of a JSON string that contains escapes.
func unescape(b []byte) (string, bool) {
	v, err := jsontext.Decode(append(append([]byte{'"'}, b...), '"'))
	s, ok := v.(string)
	return s, err == nil && ok
}
