package engine

import (
	"errors"
	"fmt"
	"math"
)

// Node is one entry of a graph: the value called Name is Op applied to the
// values called Inputs. K is the constant exponent of a pow node, written as
// a fourth element in the list format: ["y", "pow", ["x"], 3].
type Node struct {
	Name   string
	Op     string
	Inputs []string
	K      float64
}

// Graph is a computation in forward order, as the lessons write it:
// [[name, op, [inputs...]], ...]. Every input names a leaf or an earlier node.
type Graph []Node

// Errors returned by the engine, matched with errors.Is. The error text
// always says which node, leaf or entry is at fault.
var (
	ErrSyntax       = errors.New("malformed graph")
	ErrUnknownOp    = errors.New("unknown op")
	ErrArity        = errors.New("wrong number of inputs")
	ErrUndefined    = errors.New("input not defined earlier")
	ErrDuplicate    = errors.New("duplicate name")
	ErrEmptyName    = errors.New("empty name")
	ErrNoOutput     = errors.New("output not in graph")
	ErrBadNumber    = errors.New("not a finite number")
	ErrDivByZero    = errors.New("division by zero")
	ErrLogDomain    = errors.New("log of a non-positive number")
	ErrNotFinite    = errors.New("result is not finite")
	ErrMissingValue = errors.New("missing value")
	ErrTooLarge     = errors.New("graph too large")
)

// NodeError is an error about one named node or leaf.
type NodeError struct {
	Name string // the node or leaf at fault
	Err  error  // one of the Err variables
	Why  string // what exactly is wrong, for people
}

func (e *NodeError) Error() string { return fmt.Sprintf("node %q: %s", e.Name, e.Why) }

// Unwrap returns the kind of error, for errors.Is.
func (e *NodeError) Unwrap() error { return e.Err }

func nodeErr(name string, kind error, format string, args ...any) error {
	return &NodeError{Name: name, Err: kind, Why: fmt.Sprintf(format, args...)}
}

func leafErr(name string, kind error, format string, args ...any) error {
	return fmt.Errorf("leaf %q: %w: %s", name, kind, fmt.Sprintf(format, args...))
}

// checkNumber reports whether x may be a leaf's value.
func checkNumber(name string, x float64) error {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return leafErr(name, ErrBadNumber, "its value is %v", x)
	}
	return nil
}

// Evaluate returns the value of every leaf and every node of g with the
// given leaf values.
func Evaluate(g Graph, leaves map[string]float64) (map[string]float64, error) {
	t, err := Compile(g)
	if err != nil {
		return nil, err
	}
	return t.Evaluate(leaves)
}

// Backward returns d(out)/d(name) for every name in values, leaves and
// nodes alike: 1 for out itself, 0 for every name that does not reach out.
// values holds the leaf and node values, as Evaluate returns them; the local
// derivatives are taken at those values. Every call returns a fresh map.
func Backward(g Graph, values map[string]float64, out string) (map[string]float64, error) {
	t, err := Compile(g)
	if err != nil {
		return nil, err
	}
	return t.Backward(values, out, Accumulate)
}
