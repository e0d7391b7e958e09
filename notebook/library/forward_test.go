package library_test

import (
	"testing"

	"gradbook/notebook/internal/celltest"
)

// jvp on Values and on tensors, checked against the reverse gradient's dot
// with the tangent and against central differences; jacobian both ways,
// with its passes.
func TestJVPAndJacobian(t *testing.T) {
	celltest.Prints(t, `def f(x):
    return x * x + x
y, dy = jvp(f, [3.0], [1.0])
print(y, dy)
def g(a, b):
    return (a * b).tanh() + a.exp() / b
y, dy = jvp(g, [0.5, 2.0], [0.3, -0.7])
a, b = Value(0.5), Value(2.0)
L = g(a, b)
L.backward()
check(dy, a.grad * 0.3 + b.grad * -0.7, tol=1e-12, label="jvp = grad · tangent")
h = 1e-6
check(dy, (g(Value(0.5 + 0.3 * h), Value(2.0 - 0.7 * h)).value - g(Value(0.5 - 0.3 * h), Value(2.0 + 0.7 * h)).value) / (2 * h), tol=1e-6, label="jvp = central difference")
W = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
out, dout = jvp(lambda x: x.matmul(W).tanh().sum(), [torch.tensor([[0.1, 0.2]])], [torch.tensor([[1.0, 0.0]])])
x = torch.tensor([[0.1, 0.2]], requires_grad=True)
x.matmul(W).tanh().sum().backward()
check(dout.item(), x.grad[0, 0].item(), tol=1e-12, label="tensor jvp = grad · tangent")
def many(xs):
    return sum([xs[i] * xs[(i + 1) % len(xs)] for i in range(len(xs))])
def wide(xs):
    return [xs[0].pow(k) for k in range(1, 6)]
for mode in ["forward", "reverse"]:
    J = jacobian(many, [1.0, 2.0, 3.0, 4.0], mode=mode)
    K = jacobian(wide, [2.0], mode=mode)
    print(mode, J["matrix"], J["passes"], K["matrix"], K["passes"], J["visits"] > 0)`,
		"12.0 7.0",
		"✓ jvp = grad · tangent",
		"✓ jvp = central difference",
		"✓ tensor jvp = grad · tangent",
		"forward [[6.0, 4.0, 6.0, 4.0]] 4 [[1.0], [4.0], [12.0], [32.0], [80.0]] 1 True",
		"reverse [[6.0, 4.0, 6.0, 4.0]] 1 [[1.0], [4.0], [12.0], [32.0], [80.0]] 5 True",
	)
}

// Forward mode refuses a tangent that is not a finite number, as Values
// refuse such a number, naming the op (issue 34, finding 8): the
// derivative of x.pow(0.5) at 0 is infinite.
func TestForwardModeRefusesNonFiniteTangents(t *testing.T) {
	celltest.Cases(t, []celltest.Case{
		{Name: "jvp", Src: "y, dy = jvp(lambda x: x.pow(0.5), [0.0], [1.0])\nprint(dy)", Err: "jvp: the tangent of pow(0) is not a finite number"},
		{Name: "jvp along 0", Src: "y, dy = jvp(lambda x: x.pow(0.5) + x, [0.0], [0.0])\nprint(dy)", Err: "the tangent of pow(0) is not a finite number"},
		{Name: "jacobian", Src: "J = jacobian(lambda xs: [xs[0].pow(0.5)], [0.0], mode=\"forward\")", Err: "jacobian: the tangent of pow(0) is not a finite number"},
		{Name: "tensor jvp", Src: "y, dy = jvp(lambda x: x.pow(0.5), [torch.tensor([1.0, 0.0])], [torch.tensor([1.0, 1.0])])", Err: "jvp: element 1 of the tangent is +inf"},
		{Name: "finite", Src: "y, dy = jvp(lambda x: x.pow(0.5), [4.0], [1.0])\nprint(dy)", Want: []string{"0.25"}},
	})
}
