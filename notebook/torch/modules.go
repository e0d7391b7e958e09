package torch

// This file is the modules torch and F: making tensors, and the
// functions PyTorch has outside its tensors.

import (
	"fmt"
	"slices"
	"strings"

	"go.starlark.net/starlark"

	"gradbook/notebook/kernel"
	"gradbook/notebook/values"
	"gradbook/tensor"
)

// Builtins returns the built-ins of tensors.
func Builtins() []kernel.Builtin { return builtins }

// builtins are the package's built-ins, under the file that defines each
// (README's "Where things go" names it, and a test checks it).
var builtins = []kernel.Builtin{
	// modules.go: the torch and F modules.
	{Name: "torch", Members: torchModuleMembers},
	{Name: "F", Members: functionalModuleMembers},
	// cmp.go: the backprop ninja's check of a gradient by hand.
	{Name: "cmp", Fn: cmpBuiltin},
}

// NewPart returns the part of a new chain of cells that their tensors
// share (part.go): a Session of the cell language makes one for each.
func NewPart() kernel.Part { return new(torchPart) }

// Wrap returns t as a cell's tensor, made in the run thread runs.
func Wrap(thread *starlark.Thread, t *tensor.Tensor) *Tensor {
	return kernel.PartOf[*torchPart](thread).wrap(t)
}

// torchModuleMembers are the cell language's torch: making tensors, and the
// functions PyTorch has outside its tensors.
var torchModuleMembers = slices.Concat([]kernel.Builtin{
	{Name: "tensor", Fn: torchTensor},
	{Name: "zeros", Fn: torchFill},
	{Name: "ones", Fn: torchFill},
	{Name: "randn", Fn: torchFill},
	{Name: "rand", Fn: torchFill},
	{Name: "zeros_like", Fn: torchLike},
	{Name: "ones_like", Fn: torchLike},
	{Name: "randint", Fn: torchRandint},
	{Name: "arange", Fn: torchArange},
	{Name: "cat", Fn: torchJoin},
	{Name: "stack", Fn: torchJoin},
	{Name: "tril", Fn: torchTril},
	{Name: "matmul", Fn: torchMatmul},
	{Name: "manual_seed", Fn: kernel.SeedBuiltin((*torchPart).seed)},
	{Name: "multinomial", Fn: torchMultinomial},
	{Name: "exp", Fn: asMethod},
	{Name: "log", Fn: asMethod},
	{Name: "transpose", Fn: asMethod},
	{Name: "masked_fill", Fn: asMethod},
}, torchAndFunctional)

// functionalModuleMembers are F, torch.nn.functional's functions here.
var functionalModuleMembers = slices.Concat([]kernel.Builtin{
	{Name: "embedding", Fn: functionalEmbedding},
	{Name: "dropout", Fn: functionalDropout},
}, torchAndFunctional)

// torchAndFunctional are the functions that torch and F both have, as
// PyTorch has torch.softmax and F.softmax.
var torchAndFunctional = []kernel.Builtin{
	{Name: "one_hot", Fn: torchOneHot},
	{Name: "cross_entropy", Fn: torchCrossEntropy},
	{Name: "softmax", Fn: asMethod},
	{Name: "tanh", Fn: asMethod},
	{Name: "relu", Fn: asMethod},
	{Name: "sigmoid", Fn: asMethod},
}

// asMethod is a function of torch or F that is also a tensor's method of
// the same name, as PyTorch has both: torch.exp(x) is x.exp(),
// F.softmax(x, dim=1) is x.softmax(dim=1).
func asMethod(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args) == 0 {
		return nil, fmt.Errorf("%s: give the tensor first, as in %s(x)", b.Name(), b.Name())
	}
	method := b.Name()[strings.LastIndexByte(b.Name(), '.')+1:] // torch.exp: exp
	x, ok := args[0].(*Tensor)
	if !ok {
		return nil, fmt.Errorf("%s: want a tensor first, got %s (for a Value v, v.%s())", b.Name(), args[0].Type(), method)
	}
	m, err := x.Attr(method)
	if err != nil || m == nil {
		return nil, fmt.Errorf("%s: a tensor has no .%s (please report it)", b.Name(), method)
	}
	return starlark.Call(thread, m, args[1:], kwargs)
}

// made wraps a new tensor of a torch function, marked as a parameter
// when requires_grad=True was given.
func madeTensor(thread *starlark.Thread, t *tensor.Tensor, err error, grad bool) (starlark.Value, error) {
	if err != nil {
		return nil, err
	}
	t.SetRequiresGrad(grad)
	return kernel.PartOf[*torchPart](thread).wrap(t), nil
}

// splitGrad takes requires_grad out of kwargs.
func splitGrad(name string, kwargs []starlark.Tuple) ([]starlark.Tuple, bool, error) {
	var rest []starlark.Tuple
	grad := false
	for _, kv := range kwargs {
		if k, _ := starlark.AsString(kv[0]); k == "requires_grad" {
			b, ok := kv[1].(starlark.Bool)
			if !ok {
				return nil, false, fmt.Errorf("%s: requires_grad must be True or False, got %s", name, kv[1].Type())
			}
			grad = bool(b)
			continue
		}
		rest = append(rest, kv)
	}
	return rest, grad, nil
}

func torchTensor(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	kwargs, grad, err := splitGrad(b.Name(), kwargs)
	if err != nil {
		return nil, err
	}
	var data starlark.Value
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 1, &data); err != nil {
		return nil, err
	}
	t, err := asTensor(b.Name(), data)
	if err != nil {
		return nil, err
	}
	if x, ok := data.(*Tensor); ok {
		t, _ = tensor.New(x.t.Data(), x.t.Shape()...)
	}
	return madeTensor(thread, t, nil, grad)
}

// generatorOf returns the run's generator of random tensors, seeded with
// 0 at every run's start until torch.manual_seed.
func generatorOf(thread *starlark.Thread, name string) (*tensor.Generator, error) {
	p := kernel.PartOf[*torchPart](thread)
	if p == nil {
		return nil, fmt.Errorf("%s: random tensors are drawn in a cell's run", name)
	}
	if p.trng == nil {
		p.trng = tensor.NewGenerator(0)
	}
	return p.trng, nil
}

// seed is torch.manual_seed(n): it starts the generator of random
// tensors again from n.
func (p *torchPart) seed(n int64) { p.trng = tensor.NewGenerator(uint64(n)) }

func torchFill(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	kwargs, grad, err := splitGrad(b.Name(), kwargs)
	if err != nil {
		return nil, err
	}
	shape, err := shapeArgs(b.Name(), args, kwargs)
	if err != nil {
		return nil, err
	}
	var t *tensor.Tensor
	switch b.Name() {
	case "torch.zeros":
		t, err = tensor.Zeros(shape...)
	case "torch.ones":
		t, err = tensor.Ones(shape...)
	default:
		g, gerr := generatorOf(thread, b.Name())
		if gerr != nil {
			return nil, gerr
		}
		if b.Name() == "torch.randn" {
			t, err = g.Randn(shape...)
		} else {
			t, err = g.Rand(shape...)
		}
	}
	return madeTensor(thread, t, err, grad)
}

func torchLike(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	kwargs, grad, err := splitGrad(b.Name(), kwargs)
	if err != nil {
		return nil, err
	}
	var x *Tensor
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 1, &x); err != nil {
		return nil, err
	}
	t := tensor.ZerosLike(x.t)
	if b.Name() == "torch.ones_like" {
		t = tensor.OnesLike(x.t)
	}
	return madeTensor(thread, t, nil, grad)
}

func torchRandint(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var low, high int
	var size starlark.Value
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "low", &low, "high", &high, "size", &size); err != nil {
		return nil, err
	}
	shape, err := shapeArgs(b.Name(), starlark.Tuple{size}, nil)
	if err != nil {
		return nil, err
	}
	g, err := generatorOf(thread, b.Name())
	if err != nil {
		return nil, err
	}
	t, err := g.RandInt(low, high, shape...)
	return madeTensor(thread, t, err, false)
}

func torchArange(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var a, c starlark.Value
	stop := starlark.Value(nil)
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 1, &a, &stop, &c); err != nil {
		return nil, err
	}
	f := func(v starlark.Value) (float64, error) {
		x, ok := values.AsFloat(v)
		if !ok {
			return 0, fmt.Errorf("%s: want numbers, got %s", b.Name(), v.Type())
		}
		return x, nil
	}
	start, end, step := 0.0, 0.0, 1.0
	var err error
	if stop == nil {
		if end, err = f(a); err != nil {
			return nil, err
		}
	} else {
		if start, err = f(a); err != nil {
			return nil, err
		}
		if end, err = f(stop); err != nil {
			return nil, err
		}
		if c != nil {
			if step, err = f(c); err != nil {
				return nil, err
			}
		}
	}
	t, err := tensor.Arange(start, end, step)
	return madeTensor(thread, t, err, false)
}

// torchJoin is torch.cat(tensors, dim=0), along an axis they have, and
// torch.stack(tensors, dim=0), along a new one.
func torchJoin(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var list starlark.Iterable
	dim := 0
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "tensors", &list, "dim?", &dim); err != nil {
		return nil, err
	}
	ts, err := tensorsOf(b.Name(), list)
	if err != nil {
		return nil, err
	}
	join := tensor.Cat
	if b.Name() == "torch.stack" {
		join = tensor.Stack
	}
	t, err := join(dim, ts...)
	if err != nil {
		return nil, err
	}
	return kernel.PartOf[*torchPart](thread).wrap(t), nil
}

func torchMatmul(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var x, y *Tensor
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 2, &x, &y); err != nil {
		return nil, err
	}
	return x.wrapErr(budgetOf(thread).Matmul(x.t, y.t))
}

// torchMultinomial draws one index per row of probabilities (weights),
// as torch.multinomial(probs, num_samples=1): the next token.
func torchMultinomial(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var p *Tensor
	samples := 1
	replacement := true
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "input", &p, "num_samples?", &samples, "replacement?", &replacement); err != nil {
		return nil, err
	}
	if samples < 1 || samples > 1<<16 {
		return nil, fmt.Errorf("%s: num_samples must be from 1 to 65,536, got %d", b.Name(), samples)
	}
	shape := p.t.Shape()
	if len(shape) != 1 && len(shape) != 2 {
		return nil, fmt.Errorf("%s: want a row of probabilities, or rows of them, got shape %s", b.Name(), tensor.ShapeString(shape))
	}
	g, err := generatorOf(thread, b.Name())
	if err != nil {
		return nil, err
	}
	rows, cols := 1, shape[len(shape)-1]
	if len(shape) == 2 {
		rows = shape[0]
	}
	out := make([]float64, 0, rows*samples)
	for r := range rows {
		w := p.t.Data()[r*cols : (r+1)*cols]
		if !replacement {
			w = slices.Clone(w) // each category drawn is taken out of the row
		}
		for k := range samples {
			i, err := g.Choice(w)
			if err != nil && k > 0 {
				// The weights were good for the first draw: what is left
				// adds up to 0.
				return nil, fmt.Errorf("%s: row %d has only %d categories to draw without replacement", b.Name(), r, k)
			}
			if err != nil {
				return nil, err
			}
			out = append(out, float64(i))
			if !replacement {
				w[i] = 0
			}
		}
	}
	oshape := []int{samples}
	if len(shape) == 2 {
		oshape = []int{rows, samples}
	}
	t, err := tensor.New(out, oshape...)
	return madeTensor(thread, t, err, false)
}

func torchOneHot(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var x *Tensor
	classes := 0
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "tensor", &x, "num_classes", &classes); err != nil {
		return nil, err
	}
	t, err := tensor.OneHot(x.t, classes)
	return madeTensor(thread, t, err, false)
}

func torchCrossEntropy(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var logits, targets *Tensor
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 2, &logits, &targets); err != nil {
		return nil, err
	}
	return logits.wrapErr(tensor.CrossEntropy(logits.t, targets.t))
}
