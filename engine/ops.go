package engine

import (
	"math"
	"sort"
	"strings"
)

// opcode identifies an operation: its index in ops.
type opcode uint8

// An op is one operation, micrograd style: its forward rule and its local
// derivatives, side by side. forward computes the op's value from its
// inputs a and b (b is unused by one-input ops) and its constant k (pow's
// exponent); local returns d(op)/da and d(op)/db at those inputs, given
// the op's own value y (which saves recomputing tanh, exp and sigmoid).
type op struct {
	name    string
	arity   int
	konst   bool // takes a constant: ["y", "pow", ["x"], 3]
	forward func(a, b, k float64) float64
	local   func(a, b, k, y float64) (da, db float64)
}

// The ops, one entry each, keyed by their opcodes: the only place that
// names them. Adding an op is adding an entry here and its opcode below,
// and a line to the table in doc.go; the tests check it by itself.
var ops = [...]op{
	opAdd: {"add", 2, false,
		func(a, b, _ float64) float64 { return a + b },
		func(_, _, _, _ float64) (float64, float64) { return 1, 1 }},
	opSub: {"sub", 2, false,
		func(a, b, _ float64) float64 { return a - b },
		func(_, _, _, _ float64) (float64, float64) { return 1, -1 }},
	opMul: {"mul", 2, false,
		func(a, b, _ float64) float64 { return a * b },
		func(a, b, _, _ float64) (float64, float64) { return b, a }},
	opDiv: {"div", 2, false,
		func(a, b, _ float64) float64 { return a / b },
		func(a, b, _, _ float64) (float64, float64) { return 1 / b, -a / (b * b) }},
	opSq: {"sq", 1, false,
		func(a, _, _ float64) float64 { return a * a },
		func(a, _, _, _ float64) (float64, float64) { return 2 * a, 0 }},
	opTanh: {"tanh", 1, false,
		func(a, _, _ float64) float64 { return math.Tanh(a) },
		func(_, _, _, y float64) (float64, float64) { return 1 - y*y, 0 }},
	opRelu: {"relu", 1, false,
		func(a, _, _ float64) float64 { return relu(a) },
		func(a, _, _, _ float64) (float64, float64) { return step(a), 0 }}, // 0 at exactly 0
	opNeg: {"neg", 1, false,
		func(a, _, _ float64) float64 { return -a },
		func(_, _, _, _ float64) (float64, float64) { return -1, 0 }},
	opExp: {"exp", 1, false,
		func(a, _, _ float64) float64 { return math.Exp(a) },
		func(_, _, _, y float64) (float64, float64) { return y, 0 }},
	opLog: {"log", 1, false,
		func(a, _, _ float64) float64 { return math.Log(a) },
		func(a, _, _, _ float64) (float64, float64) { return 1 / a, 0 }},
	opSigmoid: {"sigmoid", 1, false,
		func(a, _, _ float64) float64 { return sigmoid(a) },
		func(_, _, _, y float64) (float64, float64) { return y * (1 - y), 0 }},
	opPow: {"pow", 1, true,
		func(a, _, k float64) float64 {
			if k == 2 {
				// Faster, and what math.Pow gives but for results
				// below 2⁻¹⁰²², where a·a is the closer.
				return a * a
			}
			return math.Pow(a, k)
		},
		func(a, _, k, _ float64) (float64, float64) {
			if k == 0 {
				return 0, 0
			}
			return k * math.Pow(a, k-1), 0
		}},
	opDetach: {"detach", 1, false, // a stop-gradient: the value passes, no gradient goes upstream
		func(a, _, _ float64) float64 { return a },
		func(_, _, _, _ float64) (float64, float64) { return 0, 0 }},
	opMax: {"max", 2, false, // the larger input passes, and gets the whole gradient (a on a tie)
		func(a, b, _ float64) float64 { return math.Max(a, b) },
		func(a, b, _, _ float64) (float64, float64) {
			if a >= b {
				return 1, 0
			}
			return 0, 1
		}},
}

// The opcodes, one per entry of ops (which is keyed by them).
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
	opMax
	numOps
)

// opSlots indexes the ops by name, open-addressed: an op's name hashes
// (nameHash) to a slot, or to the first free one after it, which holds
// its opcode plus 1; a free slot holds 0. A quarter of the slots are
// taken, so most names are found at the first.
var opSlots = func() (slots [numSlots]opcode) {
	for c, o := range ops {
		h := nameHash(o.name)
		for slots[h] != 0 {
			h = (h + 1) % numSlots
		}
		slots[h] = opcode(c) + 1
	}
	return slots
}()

// numSlots is the size of opSlots.
const numSlots = 4 * uint(numOps)

// nameHash is the slot of opSlots a name that is not empty hashes to,
// from its length and its first and last bytes.
func nameHash(name string) uint {
	return (uint(len(name))*7 + uint(name[0])*3 + uint(name[len(name)-1])) % numSlots
}

// opNamed returns the op called name. It runs for every Value a cell makes
// (Value.Make), so it looks in opSlots: a map costs several times as much
// in WebAssembly.
func opNamed(name string) (opcode, bool) {
	if name == "" {
		return 0, false
	}
	for h := nameHash(name); opSlots[h] != 0; h = (h + 1) % numSlots {
		if c := opSlots[h] - 1; ops[c].name == name {
			return c, true
		}
	}
	return 0, false
}

// forward is the forward rule of op, with the commonest ops in a switch,
// for the tape's loops and Value's methods: a switch is faster than a call
// through the table's function values, which stay the rules' statement.
// These switches, and the cases the tape's loops and Value's Backward
// write out, are speed copies of the table: TestSpeedCopiesMatchTable
// checks every one of them against it, for every op.
func forward(op opcode, a, b, k float64) float64 {
	switch op {
	case opAdd:
		return a + b
	case opSub:
		return a - b
	case opMul:
		return a * b
	}
	return ops[op].forward(a, b, k)
}

// local is the local derivatives of op, as forward is its rule.
func local(op opcode, a, b, k, y float64) (da, db float64) {
	switch op {
	case opAdd:
		return 1, 1
	case opSub:
		return 1, -1
	case opMul:
		return b, a
	}
	return ops[op].local(a, b, k, y)
}

func relu(a float64) float64 {
	if a > 0 {
		return a
	}
	return 0
}

// step is relu's derivative: 1 above 0, else 0.
func step(a float64) float64 {
	if a > 0 {
		return 1
	}
	return 0
}

func sigmoid(a float64) float64 {
	if a >= 0 {
		return 1 / (1 + math.Exp(-a))
	}
	e := math.Exp(a)
	return e / (1 + e)
}

// Rule returns the forward rule and the local derivatives of the op
// called name, as its entry in the op table writes them: forward(a, b, k)
// is the op's value at the inputs a and b with the constant k (pow's
// exponent, else 0), and local(a, b, k, y) its derivatives with respect
// to a and b, given that value y. A one-input op reads only a (pass a as
// b too, as the engine does) and its db is 0. It is for code that applies
// the engine's rules element by element (package tensor), so that each
// rule is written once.
func Rule(name string) (forward func(a, b, k float64) float64, local func(a, b, k, y float64) (da, db float64), ok bool) {
	c, ok := opNamed(name)
	if !ok {
		return nil, nil, false
	}
	return ops[c].forward, ops[c].local, true
}

// OpNames returns the names of every operation, sorted.
func OpNames() []string {
	names := make([]string, 0, len(ops))
	for _, o := range ops {
		names = append(names, o.name)
	}
	sort.Strings(names)
	return names
}

// Arity reports how many inputs the named operation takes, and whether it
// exists.
func Arity(name string) (n int, ok bool) {
	c, ok := opNamed(name)
	if !ok {
		return 0, false
	}
	return ops[c].arity, true
}

func knownOps() string { return strings.Join(OpNames(), ", ") }
