package torch_test

import (
	"strings"
	"testing"
	"time"

	"gradbook/notebook"
	"gradbook/notebook/internal/celltest"

	"gradbook/notebook/kernel"
)

// A layer in tensors, its gradients by autograd and by hand, as the
// lesson's cells write them.
func TestTensorLayer(t *testing.T) {
	celltest.Prints(t, `torch.manual_seed(1)
x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
W = torch.randn(3, 2, requires_grad=True)
b = torch.zeros(2, requires_grad=True)
out = x.matmul(W) + b
out.retain_grad()
loss = out.tanh().sum()
loss.backward()
dout = out.grad
print(x.shape, W.shape, out.shape, dout.shape)
cmp("dW", x.T.matmul(dout), W)
cmp("db", dout.sum(0), b)
cmp("db wrong", dout, b)
cmp("dW wrong", dout.T.matmul(x), W)
print(len(x), x[1], x[1, 2], x[0:1])
print(x.sum(1, keepdim=True), x.max(1).values, x.max(1).indices, x.mean())
v, i = x.max(0)
print(v, i)
print(torch.tensor([[1, 2], [3, 4]])[range(2), [1, 0]])`,
		"(2, 3) (3, 2) (2, 2) (2, 2)",
		"✓ dW              | exact: True  | approximate: True  | maxdiff: 0",
		"✓ db              | exact: True",
		"✗ db wrong        | shape (2, 2), but the gradient has its tensor's shape (2,): larger — the tensor was broadcast",
		"✗ dW wrong        | shape (2, 3), but the gradient has its tensor's shape (3, 2): transposed",
		"2 tensor([4, 5, 6]) tensor(6) tensor([[1, 2, 3]])",
		"tensor([[6], [15]]) tensor([3, 6]) tensor([2, 2]) tensor(3.5)",
		"tensor([4, 5, 6]) tensor([1, 1, 1])",
		"tensor([2, 3])",
	)
}

// Setting elements, as the ninja's dC[ix] += demb[k, j] and
// dlogits[range(n), Yb] -= 1.
func TestTensorSetItem(t *testing.T) {
	r := celltest.One(t, `d = torch.zeros(3, 2)
d[1] += torch.tensor([1.0, 2.0])
d[1] += torch.tensor([1.0, 2.0])
d[range(3), [0, 1, 0]] -= 1
d[2, 1] = 7
print(d)
p = torch.zeros(2, requires_grad=True)
p[0] = 1`)
	if r.Err == nil || !strings.Contains(r.Err.Msg, "cannot assign into a tensor that requires a gradient") {
		t.Fatalf("error %v", r.Err)
	}
	if !strings.Contains(r.Output, "tensor([[-1, 0], [2, 3], [-1, 7]])") {
		t.Errorf("output %q", r.Output)
	}
}

// show(loss) of a small tensor computation draws its scalar graph: each
// element of W a leaf named W[i,j], with the gradients autograd gives.
func TestShowTensorDrawsScalars(t *testing.T) {
	r := celltest.One(t, `x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
W = torch.tensor([[0.1, 0.2], [0.3, 0.4], [0.5, 0.6]], requires_grad=True)
b = torch.tensor([0.0, 1.0], requires_grad=True)
loss = (x.matmul(W) + b).sum()
loss.backward()
show(loss)`)
	if r.Err != nil || len(r.Drawings) != 1 {
		t.Fatalf("%v, %d drawings", r.Err, len(r.Drawings))
	}
	d := r.Drawings[0]
	grads := map[string]float64{}
	for _, n := range d.Nodes {
		grads[n.Label] = n.Grad
	}
	// dW = x.T @ ones: each W[i,j] gets the sum of column i of x.
	for label, want := range map[string]float64{"W[0,0]": 5, "W[1,1]": 7, "W[2,0]": 9, "b[0]": 2, "b[1]": 2} {
		if g, ok := grads[label]; !ok || g != want {
			t.Errorf("%s: grad %v (drawn: %v), want %v", label, g, ok, want)
		}
	}
	big := celltest.One(t, `show(torch.randn(40, 40, requires_grad=True).matmul(torch.randn(40, 40)).sum())`)
	if big.Err == nil || !strings.Contains(big.Err.Msg, "more than the 2000 a drawing shows") {
		t.Errorf("a big computation: %v", big.Err)
	}
}

// A kept state keeps a tensor's numbers and gradient: the cell under a
// training step gives the same output whether the step ran again or not.
func TestTensorKeptState(t *testing.T) {
	cells := []string{
		"torch.manual_seed(4)\nW = torch.randn(2, 2, requires_grad=True)\nX = torch.randn(3, 2)",
		"loss = X.matmul(W).tanh().sum()\nloss.backward()\nW.data += -0.1 * W.grad\nW.grad = None",
		"print(W, torch.randn(1))",
	}
	fresh := notebook.NewSession().Run(kernel.Request{Cells: cells}).Last()
	if fresh.Err != nil {
		t.Fatal(fresh.Err)
	}
	s := notebook.NewSession()
	first := s.Run(kernel.Request{Cells: cells}).Last().Output
	again := s.Run(kernel.Request{Cells: cells}).Last().Output
	s.Run(kernel.Request{Cells: cells[:2]})
	third := s.Run(kernel.Request{Cells: cells}).Last().Output
	if first != fresh.Output || again != fresh.Output || third != fresh.Output {
		t.Errorf("runs differ: %q, %q, %q, %q", fresh.Output, first, again, third)
	}
}

// Shape errors say both shapes, with the cell and the line.
func TestTensorErrors(t *testing.T) {
	celltest.Fails(t, map[string]string{
		"a = torch.zeros(2, 3)\nb = a.matmul(torch.zeros(2, 3))":                                    "matmul: shapes (2, 3) and (2, 3) do not fit: 3 ≠ 2",
		"a = torch.zeros(2, 3) + torch.zeros(4)":                                                    "(2, 3) and (4,)",
		"a = torch.zeros(2, 3)\nprint(a[5])":                                                        "index",
		"a = torch.zeros(2, 3).view(4, 2)":                                                          "reshape",
		"a = torch.zeros(100000, 100000)":                                                           "elements",
		"x = torch.zeros(2)\ny = x * Value(1.0)":                                                    "a tensor's elements are not Values",
		"W = torch.zeros(2, 2, requires_grad=True)\ncmp('dW', W, W)":                                "W has no gradient to compare with yet",
		"W = torch.zeros(2, 2, requires_grad=True)\nh = W * 2\nh.sum().backward()\ncmp('dh', h, h)": "call h.retain_grad() before",
		"a = torch.tensor([[1, 2], [3]])":                                                           "",
		"a = torch.tensor([1, -1.0]).log()":                                                         "log needs positive numbers",
		// An empty tensor's other dimensions count (issue 34, finding 7).
		"print('before')\na = torch.zeros(0, 1 << 29).sum(0)":             "even empty, its other dimensions must hold at most 33,554,432 elements",
		"a = torch.zeros(0, 65536, 65536, 65536, 65536).sum(0)\nprint(a)": "even empty",
		"a = torch.zeros(0, 4).view(0, 65536, 65536, 65536, 65536)":       "even empty",
		"a = torch.zeros(0, 1, 4096) + torch.zeros(8193, 1)":              "even empty",
		"a = torch.zeros(1).view(*([1] * 20000))":                         "20,000 dimensions are more than a tensor may have (32)",
		// An index past every int is out of range, not 0 (finding 8).
		"a = torch.arange(10)[1 << 70]":      "index 1180591620717411303424 is out of range",
		"a = torch.arange(10)[1 << 70, 0]":   "index 1180591620717411303424 is out of range",
		"a = torch.arange(10)[[1, 1 << 70]]": "out of range",
	})
}

// multinomial without replacement draws each category at most once, never
// one whose weight is 0, and says when a row has too few to draw from.
func TestMultinomialWithoutReplacement(t *testing.T) {
	r := celltest.One(t, `torch.manual_seed(3)
rows = [sorted(torch.multinomial(torch.tensor([[0.1, 0.0, 0.5, 0.4], [1.0, 1.0, 0.0, 1.0]]), 3, replacement=False).tolist()[r]) for k in range(20) for r in range(2)]
print(rows[0], rows[1], all([rows[i] == rows[i % 2] for i in range(40)]))`)
	if r.Err != nil || r.Output != "[0.0, 2.0, 3.0] [0.0, 1.0, 3.0] True\n" {
		t.Fatalf("output %q, error %v", r.Output, r.Err)
	}
	celltest.Fails(t, map[string]string{
		"torch.multinomial(torch.tensor([0.5, 0.0, 0.5]), 3, replacement=False)":  "row 0 has only 2 categories to draw without replacement",
		"torch.multinomial(torch.tensor([0.5, 0.5]), 3, replacement=False)":       "row 0 has only 2 categories to draw without replacement",
		"torch.multinomial(torch.tensor([0.5, -1.0, 0.5]), 3, replacement=False)": "weight 1 is -1",
	})
}

// A tensor's attributes come from one table: every name dir() lists can
// be read, methods are bound to their tensor, and a field that cannot be
// set says which can.
func TestTensorAttributes(t *testing.T) {
	r := celltest.One(t, `x = torch.tensor([[1.0, -2.0]])
names = dir(x)
print(len(names), [n for n in names if type(getattr(x, n)) != "builtin_function_or_method"])
print(x.relu(), x.sum(1), x.view(2, 1).shape, x.size(1), x.float() == x)
x.shape = 3`)
	want := "33 [\"T\", \"data\", \"grad\", \"mT\", \"ndim\", \"requires_grad\", \"shape\"]\ntensor([[1, 0]]) tensor([-1]) (2, 1) 2 True\n"
	if r.Output != want {
		t.Errorf("output %q, want %q", r.Output, want)
	}
	if r.Err == nil || r.Err.Msg != "Tensor has no settable field .shape (.data, .grad, .requires_grad and .label can be set)" {
		t.Errorf("error %v", r.Err)
	}
}

// cmp's hint names the sums along the dimensions a gradient was left
// stretched: the ninja's counts_sum_inv, a column (32, 1) stretched
// along dim 1, sums over dim 1 with keepdim, not over dim 0.
func TestCmpNamesTheStretchedDim(t *testing.T) {
	r := celltest.One(t, `x = torch.ones(4, 3, requires_grad=True)
c = torch.ones(4, 1, requires_grad=True)
(x * c).sum().backward()
cmp("c", x.detach(), c)`)
	if want := "✗ c               | shape (4, 3), but the gradient has its tensor's shape (4, 1): larger — the tensor was broadcast in the forward pass, so its gradient sums over the dimensions it was stretched along (.sum(1, keepdim=True))"; !strings.Contains(r.Output, want) {
		t.Errorf("cmp says\n%s\nwant\n%s", r.Output, want)
	}
}

// PyTorch's functional forms are the tensor's methods: F.softmax,
// torch.softmax, F.relu, torch.exp, torch.tanh, …, with the same numbers
// and gradients.
func TestFunctionalForms(t *testing.T) {
	r := celltest.One(t, `x = torch.tensor([[1.0, 2.0, 3.0], [0.0, 0.0, 0.0]], requires_grad=True)
p = F.softmax(x, dim=1)
print([round(v, 6) for v in p[0].tolist()], p[1].tolist())
check(torch.softmax(x, 1).tolist(), x.softmax(dim=-1).tolist(), label="torch.softmax is x.softmax")
(p * torch.tensor([[1.0, 0.0, 0.0], [0.0, 0.0, 0.0]])).sum().backward()
print([round(v, 6) for v in x.grad[0].tolist()])
check(F.relu(torch.tensor([-1.0, 2.0])).tolist(), [0.0, 2.0], label="F.relu")
check(torch.exp(torch.tensor([0.0])).tolist(), [1.0], label="torch.exp")
check(torch.tanh(torch.tensor([0.0])).tolist(), [0.0], label="torch.tanh")
check(torch.relu(torch.tensor([-1.0])).tolist(), [0.0], label="torch.relu")
check(F.sigmoid(torch.tensor([0.0])).tolist(), [0.5], label="F.sigmoid")
check(torch.log(torch.tensor([1.0])).tolist(), [0.0], label="torch.log")`)
	if r.Err != nil {
		t.Fatal(r.Err)
	}
	for _, want := range []string{
		"[0.090031, 0.244728, 0.665241] [0.3333333333333333, 0.3333333333333333, 0.3333333333333333]",
		// d p0/d x = p0 (1 − p0), −p0 p1, −p0 p2
		"[0.081925, -0.022033, -0.059892]",
	} {
		if !strings.Contains(r.Output, want) {
			t.Errorf("output lacks %q:\n%s", want, r.Output)
		}
	}
	if !r.Passed() {
		t.Errorf("a check failed:\n%s", r.Output)
	}
}

// A functional form without its tensor, or without softmax's dim, says
// what to give; x.numpy() says what gives the numbers.
func TestFunctionalFormsSayWhatIsWrong(t *testing.T) {
	type wrong struct{ src, says string }
	for _, w := range []wrong{
		{"F.softmax(torch.ones(2, 3))", "softmax: give dim, the dimension whose entries add up to 1"},
		{"torch.exp(2.0)", "torch.exp: want a tensor first, got float"},
		{"torch.ones(2).numpy()", "x.tolist() gives its numbers"},
		{"F.softmax(torch.ones(2, 3), 2)", "axis 2 is out of range for shape (2, 3)"},
	} {
		if r := celltest.One(t, w.src); r.Err == nil || !strings.Contains(r.Err.Msg, w.says) {
			t.Errorf("%s: %v, want an error saying %q", w.src, r.Err, w.says)
		}
	}
}

// W -= 0.1 * W.grad on a parameter is refused with the way to write it,
// since it would rebind W to a tensor backward never fills; through .data
// it trains, and other tensors and Values take augmented assignment.
func TestAugmentedAssignmentOnAParameter(t *testing.T) {
	r := celltest.One(t, `W = torch.ones(2, requires_grad=True)
(W * W).sum().backward()
W -= 0.1 * W.grad`)
	if r.Err == nil || r.Err.Line != 3 || r.Err.Msg != "W -= …: W is a parameter (requires_grad=True), and here W -= … makes W a new tensor that backward never reaches: its .grad would stay None and training would stop (PyTorch refuses it too). Change its numbers in place, as a torch.no_grad() update does: W.data -= …" {
		t.Errorf("W -= …: %+v", r.Err)
	}
	r = celltest.One(t, `W = torch.ones(2, requires_grad=True)
for step in range(2):
    (W * W).sum().backward()
    W.data -= 0.1 * W.grad
    W.grad = None
x = torch.ones(2)
x += 1
h = W * 2
h -= 1
v = Value(1.0)
v -= 0.5
print(W.tolist(), x.tolist(), h.tolist(), v.value)`)
	if r.Err != nil || r.Output != "[0.64, 0.64] [2.0, 2.0] [0.28, 0.28] 0.5\n" {
		t.Errorf("%v %q", r.Err, r.Output)
	}
}

// A long matrix product keeps to the run's time (issue 34, finding 5):
// it is refused up front when it cannot finish in the time left, or
// stopped between panels once the time is up, with the run's own
// time-limit error on the product's line; and so are its gradient,
// forward mode through it, and jacobian's passes.
func TestLongProductsKeepToTheTimeLimit(t *testing.T) {
	for _, src := range []string{
		"a = torch.ones(1500, 1500)\nb = a.matmul(a)",
		"a = torch.ones(1500, 1500)\nb = torch.matmul(a, a)",
		"a = torch.ones(1500, 1500)\ny, dy = jvp(lambda x: x.matmul(a), [a], [a])",
		"xs = [1.0] * 3000\nJ = jacobian(lambda xs: xs, xs, mode=\"forward\")",
		"xs = [1.0] * 3000\nJ = jacobian(lambda xs: xs, xs)",
	} {
		r := notebook.NewSession().Run(kernel.Request{Cells: []string{src}, Limits: kernel.Limits{Time: 5 * time.Millisecond}}).Last()
		last := strings.Count(src, "\n") + 1
		if r.Err == nil || r.Err.Stop != kernel.ErrTooLong || r.Err.Line != last {
			t.Errorf("%q: error %v, want the time limit's on line %d", src, r.Err, last)
			continue
		}
		if !strings.Contains(r.Err.Msg, "too long to compute: this needs about ") && !strings.Contains(r.Err.Msg, "the cell ran too long") {
			t.Errorf("%q: %q", src, r.Err.Msg)
		}
	}
	// The gradient of a product made in a kept cell above.
	s := notebook.NewSession()
	above := "a = torch.ones(1000, 1000, requires_grad=True)\nb = torch.ones(1000, 1000)\nc = a.matmul(b).sum()"
	if r := s.Run(kernel.Request{Cells: []string{above}}).Last(); r.Err != nil {
		t.Fatal(r.Err)
	}
	r := s.Run(kernel.Request{Cells: []string{above, "print('go')\nc.backward()"}, Limits: kernel.Limits{Time: 5 * time.Millisecond}}).Last()
	if r.Err == nil || r.Err.Stop != kernel.ErrTooLong || r.Err.Line != 2 {
		t.Errorf("c.backward(): error %v, want the time limit's on line 2", r.Err)
	}
}
