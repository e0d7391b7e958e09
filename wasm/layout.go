//go:build js && wasm

package main

//lint:file-ignore U1000 used by the WebAssembly exports in main.go

import (
	"errors"
	"fmt"
	"strings"
	"unsafe"

	"gradbook/engine"
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
	hCodeOff         // int32 ×5 a node (engine.Encoded.Code)
	hNodes           // how many nodes
	hKOff            // float64 a node
	hIDsOff          // int32 a value: name id or -1
	hValues          // how many values
	hXsOff           // float64 a value
	hExtraOff        // names of the values whose id is -1, joined by NUL
	hExtraLen        //
	hExtraN          //
	hOutID           // backward: the output's name id, or -1
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

var (
	in, out []byte
	// The tape of the last graph, reused while the wrapper says the graph
	// is unchanged.
	lastTape *engine.Tape
	lastID   int32
)

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

func (r *request) tape() (*engine.Tape, error) {
	if id := r.h[hTape]; id != 0 {
		if id != lastID || lastTape == nil {
			return nil, errResend
		}
		r.h[hTapeOut] = id
		return lastTape, nil
	}
	n := int(r.h[hNodes])
	if n > engine.MaxNodes {
		return nil, fmt.Errorf("%w: the graph has %d nodes; at most %d are allowed", engine.ErrTooLarge, n, engine.MaxNodes)
	}
	e := engine.Encoded{
		Names: split(r.bytes(hNamesOff, hNamesLen), int(r.h[hNamesN])),
		Ops:   split(r.bytes(hOpsOff, hOpsLen), int(r.h[hOpsN])),
		Code:  view[int32](r.section(hCodeOff, 20*n)),
		K:     view[float64](r.section(hKOff, 8*n)),
	}
	if e.Names == nil || e.Ops == nil {
		return nil, fmt.Errorf("%w: a name contains a NUL character", engine.ErrSyntax)
	}
	t, err := engine.CompileEncoded(e)
	if err != nil {
		return nil, err
	}
	lastID++
	lastTape = t
	r.h[hTapeOut] = lastID
	return t, nil
}

// section returns size bytes at the offset in header word off.
func (r *request) section(off, size int) []byte {
	o := int(r.h[off])
	if o < 0 || size < 0 || o+size > len(in) {
		panic(fmt.Sprintf("section %d is out of the buffer", off))
	}
	return in[o : o+size]
}

func (r *request) bound() (engine.Bound, error) {
	m := int(r.h[hValues])
	b := engine.Bound{
		IDs:   view[int32](r.section(hIDsOff, 4*m)),
		Xs:    view[float64](r.section(hXsOff, 8*m)),
		Extra: split(r.bytes(hExtraOff, hExtraLen), int(r.h[hExtraN])),
	}
	if b.Extra == nil {
		return b, fmt.Errorf("%w: a leaf's name contains a NUL character", engine.ErrSyntax)
	}
	return b, nil
}

// load compiles (or reuses) the tape and loads the values given.
func (r *request) load(leavesOnly bool) (*engine.Tape, engine.Bound, []float64, error) {
	t, err := r.tape()
	if err != nil {
		return nil, engine.Bound{}, nil, err
	}
	b, err := r.bound()
	if err != nil {
		return nil, b, nil, err
	}
	vals, err := t.Load(b, leavesOnly)
	return t, b, vals, err
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
	t, b, vals, err := r.load(false)
	if err != nil {
		return err
	}
	grads, err := t.Gradients(vals, b, r.h[hOutID], string(r.bytes(hOutOff, hOutLen)), engine.Accumulate)
	if err != nil {
		return err
	}
	setFloats(grads)
	return nil
}

func (r *request) evaluateJSON() error {
	res, err := engine.EvaluateJSON(r.bytes(hJSONOff, hJSONLen), r.bytes(hJSON2Off, hJSON2Len))
	out = append(out[:0], res...)
	return err
}

func (r *request) backwardJSON() error {
	res, err := engine.BackwardJSON(r.bytes(hJSONOff, hJSONLen), r.bytes(hJSON2Off, hJSON2Len), string(r.bytes(hOutOff, hOutLen)))
	out = append(out[:0], res...)
	return err
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
