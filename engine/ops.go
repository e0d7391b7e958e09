package engine

import (
	"math"
	"sort"
	"strings"
)

// opcode identifies an operation in a compiled Tape.
type opcode uint8

const (
	opAdd opcode = iota
	opSub
	opMul
	opDiv
	opSq
	opTanh
	opRelu
	opNeg
	opExp
	opLog
	opSigmoid
	opPow
	opDetach
	numOps
)

// opInfo describes one operation: its name in the list format, how many
// inputs it takes, and whether it carries a constant (pow's exponent).
type opInfo struct {
	name  string
	arity int
	konst bool
	doc   string // the local derivatives, as the lessons write them
}

// ops is the table of operations, in the order of their opcodes. The
// forward rule of each is in forward, its local derivatives in local.
var ops = [numOps]opInfo{
	opAdd:     {"add", 2, false, "a+b: (1, 1)"},
	opSub:     {"sub", 2, false, "a-b: (1, -1)"},
	opMul:     {"mul", 2, false, "a*b: (b, a)"},
	opDiv:     {"div", 2, false, "a/b: (1/b, -a/b²)"},
	opSq:      {"sq", 1, false, "a²: (2a)"},
	opTanh:    {"tanh", 1, false, "tanh a: (1-t²) with t = tanh a"},
	opRelu:    {"relu", 1, false, "max(0,a): (1 if a > 0 else 0) — 0 at exactly 0"},
	opNeg:     {"neg", 1, false, "-a: (-1)"},
	opExp:     {"exp", 1, false, "eᵃ: (eᵃ)"},
	opLog:     {"log", 1, false, "ln a: (1/a), a > 0"},
	opSigmoid: {"sigmoid", 1, false, "σ(a) = 1/(1+e⁻ᵃ): (σ(1-σ))"},
	opPow:     {"pow", 1, true, "aᵏ for a constant k: (k·aᵏ⁻¹)"},
	opDetach:  {"detach", 1, false, "a, a stop-gradient: (0)"},
}

var opByName = func() map[string]opcode {
	m := make(map[string]opcode, numOps)
	for i, o := range ops {
		m[o.name] = opcode(i)
	}
	return m
}()

// OpNames returns the names of every operation, sorted.
func OpNames() []string {
	names := make([]string, 0, numOps)
	for _, o := range ops {
		names = append(names, o.name)
	}
	sort.Strings(names)
	return names
}

// Arity reports how many inputs the named operation takes, and whether it
// exists.
func Arity(op string) (n int, ok bool) {
	c, ok := opByName[op]
	if !ok {
		return 0, false
	}
	return ops[c].arity, true
}

func knownOps() string { return strings.Join(OpNames(), ", ") }

// forward computes an operation's value from its inputs a and b (b is
// unused by one-input ops) and its constant k (used by pow only).
func forward(op opcode, a, b, k float64) float64 {
	switch op {
	case opAdd:
		return a + b
	case opSub:
		return a - b
	case opMul:
		return a * b
	case opDiv:
		return a / b
	case opSq:
		return a * a
	case opTanh:
		return math.Tanh(a)
	case opRelu:
		if a > 0 {
			return a
		}
		return 0
	case opNeg:
		return -a
	case opExp:
		return math.Exp(a)
	case opLog:
		return math.Log(a)
	case opSigmoid:
		return sigmoid(a)
	case opPow:
		return math.Pow(a, k)
	case opDetach:
		return a
	}
	return math.NaN()
}

// local returns the local derivatives d(op)/da and d(op)/db at inputs a and
// b, given the op's own value y (which saves recomputing tanh, exp and
// sigmoid).
func local(op opcode, a, b, k, y float64) (da, db float64) {
	switch op {
	case opAdd:
		return 1, 1
	case opSub:
		return 1, -1
	case opMul:
		return b, a
	case opDiv:
		return 1 / b, -a / (b * b)
	case opSq:
		return 2 * a, 0
	case opTanh:
		return 1 - y*y, 0
	case opRelu:
		if a > 0 {
			return 1, 0
		}
		return 0, 0 // the derivative at exactly 0 is taken to be 0
	case opNeg:
		return -1, 0
	case opExp:
		return y, 0
	case opLog:
		return 1 / a, 0
	case opSigmoid:
		return y * (1 - y), 0
	case opPow:
		if k == 0 {
			return 0, 0
		}
		return k * math.Pow(a, k-1), 0
	case opDetach:
		return 0, 0 // a stop-gradient passes nothing upstream
	}
	return 0, 0
}

func sigmoid(a float64) float64 {
	if a >= 0 {
		return 1 / (1 + math.Exp(-a))
	}
	e := math.Exp(a)
	return e / (1 + e)
}
