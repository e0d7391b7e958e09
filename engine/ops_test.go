package engine

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// opNamed finds every op by its name, and nothing else.
func TestOpNamed(t *testing.T) {
	if len(ops) != int(numOps) {
		t.Fatalf("%d ops in the table, %d opcodes", len(ops), numOps)
	}
	for c, o := range ops {
		if got, ok := opNamed(o.name); !ok || got != opcode(c) {
			t.Errorf("opNamed(%q) = %d, %v; want %d", o.name, got, ok, c)
		}
		for _, near := range []string{o.name[1:], o.name + "\x00", o.name + "s", strings.ToUpper(o.name), "x" + o.name[1:]} {
			if c, ok := opNamed(near); ok && ops[c].name != near {
				t.Errorf("opNamed(%q) is %s", near, ops[c].name)
			}
		}
	}
	for _, name := range []string{"", "no such op", "sigmoids", "bs", "a\x00\x00", "\x00"} {
		if c, ok := opNamed(name); ok {
			t.Errorf("opNamed(%q) is %s", name, ops[c].name)
		}
	}
}

// same reports whether x and y are the same number, or both NaN (a
// zero's sign aside: the order in which a pass adds its zeros may change
// it, and nothing that reads a gradient can tell).
func same(x, y float64) bool {
	return x == y || math.IsNaN(x) && math.IsNaN(y)
}

var modeNames = map[Mode]string{Accumulate: "Accumulate", OverwriteBug: "OverwriteBug", RecursiveBug: "RecursiveBug", TwiceBug: "TwiceBug"}

// opInputs returns the inputs the speed copies are checked at: random
// numbers of every size, zeros of both signs, negatives, the edges of
// the ops' domains (exp's overflow, log's 0), huge and tiny numbers,
// NaN and the infinities, each as a and as b.
func opInputs(r *rand.Rand) [][2]float64 {
	special := []float64{0, math.Copysign(0, -1), 1, -1, 2, 0.5, -3, 1e-300, -1e-300, 5e-324, 700, 710, -745, -800,
		1e154, 1e300, -1e300, math.MaxFloat64, -math.MaxFloat64, math.NaN(), math.Inf(1), math.Inf(-1)}
	var in [][2]float64
	for _, a := range special {
		for _, b := range special {
			in = append(in, [2]float64{a, b})
		}
	}
	for range 2000 {
		x := func() float64 { return r.NormFloat64() * math.Pow(10, float64(r.IntN(40)-20)) }
		in = append(in, [2]float64{x(), x()})
	}
	return in
}

// opConstants are the constants each op is checked with: pow's exponents,
// whole and fractional, negative, 0, 1 and 2 (which pow writes out); 0
// for the others.
func opConstants(o op) []float64 {
	if !o.konst {
		return []float64{0}
	}
	return []float64{0, 1, 2, 3, -1, -2, 0.5, -0.5, 1.5, -2.5, 1e-3, 40}
}

// The speed copies of the op table (the switches in forward and local,
// the cases that the tape's Forward and reverse pass, Value's Backward
// and the tangents write out) give exactly the table's numbers, for every
// op at every input of opInputs: the value, each input's share of a
// random upstream gradient in every mode of the reverse pass, and the
// tangent along a random direction, with two inputs and with one input
// used twice (x·x).
func TestSpeedCopiesMatchTable(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	inputs := opInputs(r)
	for c := range numOps {
		o := ops[c]
		failed := 0
		fail := func(format string, args ...any) {
			if failed++; failed <= 3 {
				t.Errorf(o.name+": "+format, args...)
			}
		}
		for _, k := range opConstants(o) {
			for _, in := range inputs {
				a, b := in[0], in[1]
				if o.arity == 1 {
					b = a // a one-input op's b is its a, in the tape and in Values
				}
				up := r.NormFloat64()
				ta, tb := r.NormFloat64(), r.NormFloat64()
				y := o.forward(a, b, k)
				da, db := o.local(a, b, k, y)
				at := fmt.Sprintf("(%v, %v, k=%v)", a, b, k)

				if got := forward(c, a, b, k); !same(got, y) {
					fail("forward%s = %v, the table %v", at, got, y)
				}
				if ga, gb := local(c, a, b, k, y); !same(ga, da) || !same(gb, db) {
					fail("local%s = (%v, %v), the table (%v, %v)", at, ga, gb, da, db)
				}
				one := o.arity == 1
				checkTape(r, fail, c, at, a, b, k, up, ta, tb, one)
				checkValues(r, fail, c, at, a, b, k, up, ta, tb, one)
				if o.arity == 2 { // one input used twice: x·x, x+x
					checkTape(r, fail, c, at+" on one input", a, a, k, up, ta, ta, true)
					checkValues(r, fail, c, at+" on one input", a, a, k, up, ta, ta, true)
				}
			}
		}
	}
}

// want returns what the table says a node op(a, b) with the constant k
// gives in mode: its value, the gradients its inputs hold after the node
// passes the upstream gradient up on to them, from g0a and g0b before,
// and its tangent along (ta, tb). one says the node has one input: a
// one-input op's, or a two-input op's used twice (a = b, ta = tb), whose
// gradient is ga.
func want(c opcode, a, b, k, up, g0a, g0b, ta, tb float64, one bool, mode Mode) (y, ga, gb, tangent float64) {
	o := ops[c]
	y = o.forward(a, b, k)
	da, db := o.local(a, b, k, y)
	if mode == OverwriteBug {
		g0a, g0b = 0, 0 // the bug: '=' where '+=' belongs
	}
	if o.arity == 1 {
		ga = g0a + up*da
		if mode == TwiceBug {
			ga += ga
		}
		return y, ga, 0, da * ta
	}
	ga, gb, tangent = g0a+up*da, g0b+up*db, da*ta+db*tb
	if one {
		ga += up * db
		if mode == OverwriteBug {
			ga = up * db // assigned last
		}
	}
	if mode == TwiceBug {
		ga, gb = ga+ga, gb+gb
	}
	return y, ga, gb, tangent
}

// checkTape checks the tape's loops on one node op(a, b): its inputs in
// slots 0 and 1, or 0 alone if it has one, the node in the next.
func checkTape(r *rand.Rand, fail func(string, ...any), c opcode, at string, a, b, k, up, ta, tb float64, one bool) {
	o := ops[c]
	t := &Tape{leaves: 2, code: []instr{{op: c, a: 0, b: 1, k: k}}}
	vals, d := []float64{a, b, 0}, []float64{ta, tb, 0}
	if one {
		t = &Tape{leaves: 1, code: []instr{{op: c, a: 0, b: 0, k: k}}}
		vals, d = []float64{a, 0}, []float64{ta, 0}
	}
	out := t.leaves
	g := make([]float64, len(vals))
	grads := func() string { return fmt.Sprint(g[:out]) }
	g0a, g0b := r.NormFloat64(), r.NormFloat64() // what other uses passed on before
	if one {
		g0b = g0a
	}
	y, ga, gb, tangent := want(c, a, b, k, up, g0a, g0b, ta, tb, one, Accumulate)
	_ = t.Forward(vals) // a value that is not finite is an error, and still the value
	if !same(vals[out], y) {
		fail("the tape's Forward%s = %v, the table %v", at, vals[out], y)
		return
	}
	if up != 0 { // a gradient of 0 passes nothing on
		g[0], g[out-1], g[out] = g0a, g0b, up
		reverse(t.code, vals, g, t.leaves)
		if !same(g[0], ga) || !one && !same(g[1], gb) {
			fail("the tape's reverse%s from %v gives %v, the table %v, %v", at, up, grads(), ga, gb)
		}
	}
	// Reverse's other modes start from 1, and from 0 for the inputs.
	for _, mode := range []Mode{OverwriteBug, RecursiveBug, TwiceBug} {
		_, ga, gb, _ := want(c, a, b, k, 1, 0, 0, ta, tb, one, mode)
		t.Reverse(vals, g, out, mode)
		if !same(g[0], ga) || !one && !same(g[1], gb) {
			fail("the tape's Reverse in mode %s%s gives %v, the table %v, %v", modeNames[mode], at, grads(), ga, gb)
		}
	}
	da, db := o.local(a, b, k, y)
	if got := t.LocalGrad(vals, out, 0); !same(got, da) {
		fail("LocalGrad%s of input 1 = %v, the table %v", at, got, da)
	}
	if got := t.LocalGrad(vals, out, 1); o.arity == 2 && !same(got, db) {
		fail("LocalGrad%s of input 2 = %v, the table %v", at, got, db)
	}
	t.Tangents(vals, d)
	if !same(d[out], tangent) {
		fail("the tape's Tangents%s along (%v, %v) = %v, the table %v", at, ta, tb, d[out], tangent)
	}
}

// checkValues checks Value's arithmetic on one node op(a, b) that Make
// makes: its Data, its reverse pass from up in both of Backward's modes
// that run on Values, and TangentsOf.
func checkValues(r *rand.Rand, fail func(string, ...any), c opcode, at string, a, b, k, up, ta, tb float64, one bool) {
	o := ops[c]
	x, w := NewValue(a, "a"), NewValue(b, "b")
	if one {
		w = x
	}
	var in2 *Value
	if o.arity == 2 {
		in2 = w
	}
	var v Value
	if !v.Make(o.name, x, in2, k) {
		fail("Make%s refused", at)
		return
	}
	y, _, _, tangent := want(c, a, b, k, up, 0, 0, ta, tb, one, Accumulate)
	if !same(v.Data, y) {
		fail("Value's Data%s = %v, the table %v", at, v.Data, y)
		return
	}
	order := Topo(&v)
	for _, mode := range []Mode{Accumulate, OverwriteBug} {
		g0a, g0b := r.NormFloat64(), r.NormFloat64() // what other uses passed on before
		if one {
			g0b = g0a
		}
		_, ga, gb, _ := want(c, a, b, k, up, g0a, g0b, ta, tb, one, mode)
		if up == 0 && mode == Accumulate {
			ga, gb = g0a, g0b // a gradient of 0 passes nothing on
		}
		x.Grad, w.Grad, v.Grad = g0a, g0b, up
		reverseValues(order, mode)
		if !same(x.Grad, ga) || !one && !same(w.Grad, gb) {
			fail("Value's reverse pass in mode %s%s from %v gives %v, %v; the table %v, %v", modeNames[mode], at, up, x.Grad, w.Grad, ga, gb)
		}
	}
	seed := map[*Value]float64{w: tb, x: ta}
	if got := TangentsOf([]*Value{&v}, func(u *Value) float64 { return seed[u] })[0]; !same(got, tangent) {
		fail("TangentsOf%s along (%v, %v) = %v, the table %v", at, ta, tb, got, tangent)
	}
}

// Make makes what the methods make, and refuses what they would not.
func TestMake(t *testing.T) {
	a, b := NewValue(0.5, "a"), NewValue(-2, "b")
	for _, c := range []struct {
		name string
		b    *Value
		k    float64
		want *Value
	}{
		{"add", b, 0, a.Add(b)},
		{"div", b, 0, a.Div(b)},
		{"relu", nil, 0, a.Relu()},
		{"pow", nil, 3, a.Pow(3)},
		{"detach", nil, 0, a.Detach()},
	} {
		var r Value
		if !r.Make(c.name, a, c.b, c.k) || r != *c.want {
			t.Errorf("Make(%s): %+v, want %+v", c.name, r, *c.want)
		}
	}
	var r Value
	for _, bad := range []struct {
		name string
		b    *Value
		k    float64
	}{{"no such op", nil, 0}, {"add", nil, 0}, {"relu", b, 0}, {"tanh", nil, 2}} {
		if r.Make(bad.name, a, bad.b, bad.k) || r != (Value{}) {
			t.Errorf("Make(%q, b=%v, k=%v) made %+v", bad.name, bad.b != nil, bad.k, r)
		}
	}
}
