//go:build js && wasm

package main

//lint:file-ignore U1000 used by the WebAssembly exports in main.go

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"unsafe"

	"gradbook/engine"
	"gradbook/internal/jsontext"
)

// The input buffer starts with a header of int32 words; the words give
// the byte offset and size of each section that follows it.
const (
	hNamesOff = iota // names joined by NUL, UTF-8
	hNamesLen        // bytes
	hNamesN          // how many names
	hOpsOff          // op names joined by NUL
	hOpsLen          //
	hOpsN            //
	hCodeOff         // int32 ×5 a node (encoded.code)
	hNodes           // how many nodes
	hKOff            // float64 a node
	hIdsOff          // int32 a value: name id or -1
	hValues          // how many values
	hXsOff           // float64 a value
	hExtraOff        // names of the values whose id is -1, joined by NUL
	hExtraLen        //
	hExtraN          //
	hOutOff          // backward: the output's name
	hOutLen          //
	hTape            // a tape id from an earlier call to reuse, or 0
	hTapeOut         // set by the engine: the id of the tape it used
	hJSONOff         // JSON requests: graph text
	hJSONLen         //
	hJSON2Off        // JSON requests: values text
	hJSON2Len        //
	headerWords
)

// errResend asks the wrapper to send the graph again: the tape it names is
// gone.
var errResend = errors.New("autodiff: send the graph again")

var in, out []byte

func addr(b []byte) uintptr {
	if cap(b) == 0 {
		return 0
	}
	return uintptr(unsafe.Pointer(unsafe.SliceData(b)))
}

func grow(b *[]byte, n int) uintptr {
	if n < 0 {
		n = 0
	}
	if cap(*b) < n || cap(*b) == 0 {
		*b = make([]byte, n, max(n, 64))
	}
	*b = (*b)[:n]
	return addr(*b)
}

// run decodes the request in the input buffer, calls f, and turns an error
// or a panic into status 1 with the message as output.
func run(f func(r *request) error) (status int32) {
	defer func() {
		if p := recover(); p != nil {
			out = append(out[:0], fmt.Sprintf("autodiff: bad call: %v", p)...)
			status = 1
		}
	}()
	r, err := decode()
	if err == nil {
		err = f(r)
	}
	if err == errResend {
		return 2
	}
	if err != nil {
		out = append(out[:0], err.Error()...)
		return 1
	}
	return 0
}

type request struct {
	h []int32
}

func decode() (*request, error) {
	if len(in) < 4*headerWords {
		return nil, errors.New("autodiff: bad call: no request")
	}
	return &request{h: view[int32](in[:4*headerWords])}, nil
}

// bytes returns the section at header words off and size.
func (r *request) bytes(off, size int) []byte {
	o, n := int(r.h[off]), int(r.h[size])
	if o < 0 || n < 0 || o+n > len(in) {
		panic(fmt.Sprintf("section %d is out of the buffer", off))
	}
	return in[o : o+n]
}

// encoded is a graph with its names numbered, as autodiff.js writes it:
// names[id] is a name and ops[id] an op's name; code holds five numbers for
// each node, in forward order: the id of its name, the id of its op, its
// number of inputs and the ids of its first two inputs (-1 where there is
// none). k holds each node's constant.
type encoded struct {
	names []string
	ops   []string
	code  []int32
	k     []float64
}

// graph turns the numbered form back into the engine's Graph.
func (e encoded) graph() (engine.Graph, error) {
	n := len(e.k)
	g := make(engine.Graph, n)
	ins := make([]string, 2*n)
	name := func(id int32) (string, bool) {
		if id < 0 || int(id) >= len(e.names) {
			return "", false
		}
		return e.names[id], true
	}
	for i := range g {
		c := e.code[5*i : 5*i+5]
		nm, ok := name(c[0])
		if !ok || c[1] < 0 || int(c[1]) >= len(e.ops) || c[2] < 0 || c[2] > 2 {
			return nil, fmt.Errorf("%w: encoded graph: entry %d refers to a name or op that does not exist", engine.ErrSyntax, i+1)
		}
		in := ins[2*i : 2*i+int(c[2])]
		for p := range in {
			if in[p], ok = name(c[3+p]); !ok {
				return nil, fmt.Errorf("%w: encoded graph: node %q has an input that does not exist", engine.ErrSyntax, nm)
			}
		}
		g[i] = engine.Node{Name: nm, Op: e.ops[c[1]], Inputs: in, K: e.k[i]}
	}
	return g, nil
}

// compiled is the tape of the last graph, kept while the wrapper says the
// graph is unchanged, with the slot of each of its name ids.
type compiled struct {
	tape   *engine.Tape
	slotOf []int32
	id     int32
}

var last compiled

func (r *request) tape() (*compiled, error) {
	if id := r.h[hTape]; id != 0 {
		if id != last.id || last.tape == nil {
			return nil, errResend
		}
		r.h[hTapeOut] = id
		return &last, nil
	}
	n := int(r.h[hNodes])
	if n > engine.MaxNodes {
		return nil, fmt.Errorf("%w: the graph has %d nodes; at most %d are allowed", engine.ErrTooLarge, n, engine.MaxNodes)
	}
	e := encoded{
		names: split(r.bytes(hNamesOff, hNamesLen), int(r.h[hNamesN])),
		ops:   split(r.bytes(hOpsOff, hOpsLen), int(r.h[hOpsN])),
		code:  view[int32](r.section(hCodeOff, 20*n)),
		k:     view[float64](r.section(hKOff, 8*n)),
	}
	if e.names == nil || e.ops == nil {
		return nil, fmt.Errorf("%w: a name contains a NUL character", engine.ErrSyntax)
	}
	g, err := e.graph()
	if err != nil {
		return nil, err
	}
	t, err := engine.Compile(g)
	if err != nil {
		return nil, err
	}
	slotOf := make([]int32, len(e.names))
	for id, name := range e.names {
		slotOf[id] = -1
		if s, ok := t.Slot(name); ok {
			slotOf[id] = int32(s)
		}
	}
	last = compiled{tape: t, slotOf: slotOf, id: last.id + 1}
	r.h[hTapeOut] = last.id
	return &last, nil
}

// section returns size bytes at the offset in header word off.
func (r *request) section(off, size int) []byte {
	o := int(r.h[off])
	if o < 0 || size < 0 || o+size > len(in) {
		panic(fmt.Sprintf("section %d is out of the buffer", off))
	}
	return in[o : o+size]
}

// slots is reused from call to call: the values of a request with their
// name ids turned into slots.
var slots []int32

// inputs reads the values of a request: for each, a name id of the graph
// or -1, and a number; the names of the values with id -1 follow, in order.
// The numbers are used where they lie in the buffer.
func (r *request) inputs(c *compiled) (engine.Values, error) {
	m := int(r.h[hValues])
	ids := view[int32](r.section(hIdsOff, 4*m))
	v := engine.Values{
		Xs:    view[float64](r.section(hXsOff, 8*m)),
		Extra: split(r.bytes(hExtraOff, hExtraLen), int(r.h[hExtraN])),
	}
	if v.Extra == nil {
		return v, fmt.Errorf("%w: a leaf's name contains a NUL character", engine.ErrSyntax)
	}
	if cap(slots) < m {
		slots = make([]int32, m)
	}
	v.Slots = slots[:m]
	for i, id := range ids {
		v.Slots[i] = -1
		if id >= 0 && int(id) < len(c.slotOf) {
			v.Slots[i] = c.slotOf[id]
		}
	}
	return v, nil
}

// load compiles (or reuses) the tape and loads the values given.
func (r *request) load(leavesOnly bool) (*engine.Tape, engine.Values, []float64, error) {
	c, err := r.tape()
	if err != nil {
		return nil, engine.Values{}, nil, err
	}
	v, err := r.inputs(c)
	if err != nil {
		return nil, v, nil, err
	}
	vals, err := c.tape.Load(v, leavesOnly)
	return c.tape, v, vals, err
}

func (r *request) evaluate() error {
	t, _, vals, err := r.load(true)
	if err != nil {
		return err
	}
	if err := t.Forward(vals); err != nil {
		return err
	}
	setFloats(vals[t.NumLeaves():])
	return nil
}

func (r *request) backward() error {
	t, v, vals, err := r.load(false)
	if err != nil {
		return err
	}
	grads, err := t.Gradients(vals, v, string(r.bytes(hOutOff, hOutLen)), engine.Accumulate)
	if err != nil {
		return err
	}
	setFloats(grads)
	return nil
}

// evaluateJSON is evaluate for a graph and leaves as JSON text; it answers
// a JSON object of every value: the leaves in the order given, then the
// nodes in graph order.
func (r *request) evaluateJSON() error {
	t, names, v, vals, err := loadJSON(r.bytes(hJSONOff, hJSONLen), r.bytes(hJSON2Off, hJSON2Len), true)
	if err != nil {
		return err
	}
	if err := t.Forward(vals); err != nil {
		return err
	}
	out = append(out[:0], '{')
	for i, name := range names {
		out = appendMember(out, i, name, v.Xs[i])
	}
	for i, name := range t.Names()[t.NumLeaves():] {
		out = appendMember(out, len(names)+i, name, vals[t.NumLeaves()+i])
	}
	out = append(out, '}')
	return nil
}

// backwardJSON is backward for a graph and values as JSON text; it answers
// a JSON object of gradients, one for each value, in the order given.
func (r *request) backwardJSON() error {
	t, names, v, vals, err := loadJSON(r.bytes(hJSONOff, hJSONLen), r.bytes(hJSON2Off, hJSON2Len), false)
	if err != nil {
		return err
	}
	grads, err := t.Gradients(vals, v, string(r.bytes(hOutOff, hOutLen)), engine.Accumulate)
	if err != nil {
		return err
	}
	out = append(out[:0], '{')
	for i, name := range names {
		out = appendMember(out, i, name, grads[i])
	}
	out = append(out, '}')
	return nil
}

// loadJSON parses a graph and named values, compiles the graph and loads
// the values.
func loadJSON(graph, values []byte, leavesOnly bool) (*engine.Tape, []string, engine.Values, []float64, error) {
	g, err := engine.ParseGraph(graph)
	if err != nil {
		return nil, nil, engine.Values{}, nil, err
	}
	names, xs, err := engine.ParseValues(values)
	if err != nil {
		return nil, nil, engine.Values{}, nil, err
	}
	t, err := engine.Compile(g)
	if err != nil {
		return nil, nil, engine.Values{}, nil, err
	}
	v := t.Bind(names, xs)
	vals, err := t.Load(v, leavesOnly)
	return t, names, v, vals, err
}

// appendMember appends "name": x to a JSON object, writing ±Inf as ±1e999
// (which JavaScript reads as ±Infinity) and NaN as null.
func appendMember(buf []byte, i int, name string, x float64) []byte {
	if i > 0 {
		buf = append(buf, ',')
	}
	buf = append(jsontext.AppendString(buf, name), ':')
	switch {
	case math.IsInf(x, 1):
		return append(buf, "1e999"...)
	case math.IsInf(x, -1):
		return append(buf, "-1e999"...)
	}
	return jsontext.Append(buf, x)
}

func setFloats(xs []float64) {
	grow(&out, 8*len(xs))
	copy(view[float64](out), xs)
}

// split splits b at NUL into count parts. It returns nil if there are more
// parts (a part contained a NUL).
func split(b []byte, count int) []string {
	if count == 0 {
		return []string{}
	}
	parts := strings.Split(string(b), "\x00")
	if len(parts) != count {
		return nil
	}
	return parts
}

// view reinterprets little-endian bytes (WebAssembly is little-endian) as
// a slice of T, copying only if b is not aligned for T.
func view[T int32 | float64](b []byte) []T {
	size := int(unsafe.Sizeof(T(0)))
	n := len(b) / size
	if n == 0 {
		return []T{}
	}
	if uintptr(unsafe.Pointer(&b[0]))%uintptr(size) != 0 {
		c := make([]T, n)
		copy(unsafe.Slice((*byte)(unsafe.Pointer(&c[0])), n*size), b)
		return c
	}
	return unsafe.Slice((*T)(unsafe.Pointer(&b[0])), n)
}
