package torch_test

import (
	"strings"
	"testing"

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
	want := "28 [\"T\", \"data\", \"grad\", \"ndim\", \"requires_grad\", \"shape\"]\ntensor([[1, 0]]) tensor([-1]) (2, 1) 2 True\n"
	if r.Output != want {
		t.Errorf("output %q, want %q", r.Output, want)
	}
	if r.Err == nil || r.Err.Msg != "Tensor has no settable field .shape (.data, .grad, .requires_grad and .label can be set)" {
		t.Errorf("error %v", r.Err)
	}
}
