package torch_test

import (
	"strings"
	"testing"

	"gradbook/notebook/internal/celltest"
)

// TestPyTorchSyntax runs what a transformer's PyTorch code writes: @,
// subscripts of several axes, and the functions of attention, each with
// the numbers a learner reads.
func TestPyTorchSyntax(t *testing.T) {
	const xw = "x = torch.tensor([[1.0, 2.0], [3.0, 4.0]])\nW = torch.tensor([[1.0, 0.0], [1.0, 1.0]])\n"
	const cube = "x = torch.arange(24).view(2, 3, 4)\n"
	celltest.Cases(t, []celltest.Case{
		{Name: "@", Src: xw + "print(x @ W)\nprint(x @ W @ W)\nprint(2 * x @ W + 1)\nprint(-x @ W)\nv = torch.tensor([1.0, 2.0, 3.0])\nprint(v @ v)",
			Want: []string{"tensor([[3, 2], [7, 4]])", "tensor([[5, 2], [11, 4]])", "tensor([[7, 5], [15, 9]])", "tensor([[-3, -2], [-7, -4]])", "tensor(14)"}},
		{Name: "@=", Src: xw + "y = x\ny @= W\nprint(y)\ndef f(a):\n    a @= W\n    return a\nprint(f(x))",
			Want: []string{"tensor([[3, 2], [7, 4]])\ntensor([[3, 2], [7, 4]])"}},
		{Name: "@ backward", Src: "x = torch.tensor([[1.0, 2.0], [3.0, 4.0]])\nW = torch.tensor([[1.0, 0.0], [1.0, 1.0]], requires_grad=True)\n(x @ W).sum().backward()\nprint(W.grad)",
			Want: []string{"tensor([[4, 4], [6, 6]])"}},
		{Name: "batched @", Src: "a = torch.ones(2, 3, 4)\nprint((a @ torch.ones(4, 5)).shape, (a @ torch.ones(2, 4, 3)).shape, (a @ torch.ones(4, 5))[1, 2, 3])\nq = torch.arange(12).view(2, 2, 3)\nprint(q @ q.transpose(-2, -1))",
			Want: []string{"(2, 3, 5) (2, 3, 3) tensor(4)", "tensor([[[5, 14], [14, 50]], [[149, 212], [212, 302]]])"}},
		{Name: "x[:, 0]", Src: cube + "print(x[:, 0])\nprint(x[:, -1, :])\nt = 2\nprint(x[:, t])",
			Want: []string{"tensor([[0, 1, 2, 3], [12, 13, 14, 15]])", "tensor([[8, 9, 10, 11], [20, 21, 22, 23]])", "tensor([[8, 9, 10, 11], [20, 21, 22, 23]])"}},
		{Name: "slices", Src: cube + "print(x[..., :3].shape, x[0, 1:3], x[:, 1, ::2], x[1, ..., -1], x[...].shape, x[:, None].shape, x[None, 0, :, 1])",
			Want: []string{"(2, 3, 3) tensor([[4, 5, 6, 7], [8, 9, 10, 11]]) tensor([[4, 6], [16, 18]]) tensor([15, 19, 23]) (2, 3, 4) (2, 1, 3, 4) tensor([[1, 5, 9]])"}},
		{Name: "slice backward", Src: "x = torch.ones(2, 3, requires_grad=True)\n(x[:, -1] * 2 + x[:, :2].sum()).sum().backward()\nprint(x.grad)",
			Want: []string{"tensor([[2, 2, 2], [2, 2, 2]])"}},
		{Name: "slice assignment", Src: "d = torch.zeros(2, 3)\nd[:, 1] = 5\nd[1, 1:] += 1\nprint(d)", Want: []string{"tensor([[0, 5, 0], [0, 6, 1]])"}},
		{Name: "tril and masked_fill", Src: "tril = torch.tril(torch.ones(3, 3))\nprint(tril)\nwei = torch.zeros(3, 3).masked_fill(tril.eq(0), float('-inf'))\nprint(wei)\nprint(F.softmax(wei, dim=-1))\nprint(torch.softmax(wei, 1)[2])\nprint(torch.tril(torch.ones(2, 3), diagonal=1))",
			Want: []string{"tensor([[1, 0, 0], [1, 1, 0], [1, 1, 1]])", "tensor([[0, -inf, -inf], [0, 0, -inf], [0, 0, 0]])", "tensor([[1, 0, 0], [0.5, 0.5, 0], [0.33333333, 0.33333333, 0.33333333]])", "tensor([0.33333333, 0.33333333, 0.33333333])", "tensor([[1, 1, 0], [1, 1, 1]])"}},
		{Name: "masked attention backward", Src: "torch.manual_seed(3)\nq = torch.randn(1, 3, 2, requires_grad=True)\nwei = (q @ q.mT).masked_fill(torch.tril(torch.ones(3, 3)).eq(0), float('-inf'))\nF.softmax(wei, -1)[:, -1, 0].sum().backward()\nprint(q.grad.shape, q.grad[0, 0].tolist() != [0.0, 0.0])",
			Want: []string{"(1, 3, 2) True"}},
		{Name: "transposes", Src: cube + "print(x.transpose(0, 2).shape, x.T.shape, x.mT.shape, torch.transpose(x, 1, 2).shape, x[0].T.shape, x[0].T[1])",
			Want: []string{"(4, 3, 2) (2, 4, 3) (2, 4, 3) (2, 4, 3) (4, 3) tensor([1, 5, 9])"}},
		{Name: "stack", Src: "a = torch.tensor([1.0, 2.0])\nb = torch.tensor([3.0, 4.0], requires_grad=True)\nprint(torch.stack([a, b]), torch.stack((a, b), dim=1))\n(torch.stack([a, b]) * torch.tensor([[1.0, 1.0], [2.0, 3.0]])).sum().backward()\nprint(b.grad)",
			Want: []string{"tensor([[1, 2], [3, 4]], requires_grad=True) tensor([[1, 3], [2, 4]], requires_grad=True)", "tensor([2, 3])"}},
		{Name: "embedding", Src: "C = torch.arange(10).view(5, 2)\nidx = torch.tensor([[0, 4], [1, 1]])\nprint(C[idx].shape, F.embedding(idx, C))\nE = torch.ones(5, 2, requires_grad=True)\nF.embedding(idx, E).sum().backward()\nprint(E.grad)",
			Want: []string{"(2, 2, 2) tensor([[[0, 1], [8, 9]], [[2, 3], [2, 3]]])", "tensor([[1, 1], [2, 2], [0, 0], [0, 0], [1, 1]])"}},
		{Name: "dropout", Src: "x = torch.ones(2, 4)\nprint(F.dropout(x, 0.5) == x, F.dropout(x, p=0.5, training=False) == x)\ntorch.manual_seed(7)\na = F.dropout(x, 0.5, training=True)\ntorch.manual_seed(7)\nb = F.dropout(x, 0.5, training=True)\nprint(a.tolist() == b.tolist(), sorted(set([v for r in a.tolist() for v in r])))",
			Want: []string{"True True", "True [0.0, 2.0]"}},
		{Name: "functions", Src: "z = torch.zeros(2)\nprint(torch.exp(z), torch.tanh(z), torch.log(torch.ones(2)), F.relu(torch.tensor([-1.0, 2.0])))",
			Want: []string{"tensor([1, 1]) tensor([0, 0]) tensor([0, 0]) tensor([0, 2])"}},
		{Name: "ones by shape", Src: "print(torch.ones(2, 3).shape, torch.zeros((4, 1)).shape, torch.ones([2]).shape)", Want: []string{"(2, 3) (4, 1) (2,)"}},
		// One head of self-attention as the lecture writes it, trained one step.
		{Name: "attention head", Src: `torch.manual_seed(1337)
B, T, C, H = 4, 8, 32, 16
x = torch.randn(B, T, C)
key, query, value = torch.randn(C, H, requires_grad=True), torch.randn(C, H, requires_grad=True), torch.randn(C, H, requires_grad=True)
k, q = x @ key, x @ query
wei = q @ k.transpose(-2, -1) * (1 / math.sqrt(H))
tril = torch.tril(torch.ones(T, T))
wei = wei.masked_fill(tril[:T, :T].eq(0), float('-inf'))
wei = F.softmax(wei, dim=-1)
out = wei @ (x @ value)
print(out.shape, wei[0, 0].tolist()[:3], round(wei[:, -1].sum().item(), 6))
loss = out[:, -1, :].pow(2).mean()
loss.backward()
print(key.grad.shape, query.grad.shape, value.grad.shape, wei[0, 0, 1:].sum().item())`,
			Want: []string{"(4, 8, 16) [1.0, 0.0, 0.0] 4.0", "(32, 16) (32, 16) (32, 16) 0.0"}},
		// Errors: what is wrong, on the learner's line.
		{Name: "@ on Values", Src: "a = Value(2.0)\nb = a @ a", Err: "@ is a matrix product: use it on tensors, not on Value and Value"},
		{Name: "@ on numbers", Src: "b = 2 @ 3", Err: "@ is a matrix product: use it on tensors, not on int and int"},
		{Name: "@ with a number", Src: "b = torch.ones(2) @ 2", Err: "@ between a Tensor and a int: @ is a matrix product of two tensors"},
		{Name: "@ shapes", Src: "b = torch.ones(2, 3) @ torch.ones(2, 3)", Err: "matmul: shapes (2, 3) and (2, 3) do not fit: 3 ≠ 2"},
		{Name: "too many indices", Src: "b = torch.ones(2, 3)[:, 0, 1]", Err: "3 indices for a tensor of shape (2, 3)"},
		{Name: "two ellipses", Src: "b = torch.ones(2, 3)[..., 0, ...]", Err: "only one ... in a subscript"},
		{Name: "slice beside a list", Src: "b = torch.ones(2, 3)[:, [0, 1]]", Err: "beside a slice, ... or None, an index is a whole number, got list"},
		{Name: "slice of floats", Src: "b = torch.ones(2, 3)[:, 0.5:]", Err: "a slice's bounds are whole numbers or None, got float"},
		{Name: "list indexed by axes", Src: "b = [1, 2][:, 0]", Err: "got tuple"},
		{Name: "mask by ==", Src: "t = torch.tril(torch.ones(2, 2))\nb = t.masked_fill(t == 0, 0)", Err: "write tril.eq(0)"},
		{Name: "mT of a vector", Src: "b = torch.ones(3).mT", Err: "mT needs at least 2 dimensions"},
		{Name: "tril of a vector", Src: "b = torch.tril(torch.ones(3))", Err: "tril needs at least 2"},
		{Name: "stack of two shapes", Src: "b = torch.stack([torch.ones(2), torch.ones(3)])", Err: "tensors 1 and 2 have shapes (2,) and (3,)"},
		{Name: "dropout p", Src: "b = F.dropout(torch.ones(2), 2.0, training=True)", Err: "from 0 to 1, got 2"},
		{Name: "embedding out of range", Src: "b = F.embedding(torch.tensor([5]), torch.ones(5, 2))", Err: "take"},
	})
}

// TestPyTorchSyntaxErrorsPlaced checks that the new syntax's errors name
// the cell's line and show its code.
func TestPyTorchSyntaxErrorsPlaced(t *testing.T) {
	for src, line := range map[string]int{
		"x = torch.ones(2, 2)\ny = x[:, 0]\nz = Value(1.0) @ x": 3,
		"x = torch.ones(2, 2)\ny = x[:,\n      1:2:3:4]":        3,
		"y = 1\nz = y @ @ y": 2,
	} {
		r := celltest.One(t, src)
		if r.Err == nil || r.Err.Line != line || r.Err.Code != strings.Split(src, "\n")[line-1] {
			t.Errorf("%q: error %+v, want it on line %d", src, r.Err, line)
		}
	}
}
