# What the benchmark programs (moons.star, gpt.star) need to run as Python:
# a Value class in microgpt's style, which stores each node's local
# gradients (much faster in Python than micrograd's closure per node), and
# moons and uniform, Gradbook's built-ins for data and starting weights
# (the same shapes; Python's generator gives other numbers).
import math
import random


class Value:
    __slots__ = ("data", "grad", "_children", "_local_grads")

    def __init__(self, data, children=(), local_grads=()):
        self.data = data
        self.grad = 0.0
        self._children = children
        self._local_grads = local_grads

    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        return Value(self.data + other.data, (self, other), (1.0, 1.0))

    def __sub__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        return Value(self.data - other.data, (self, other), (1.0, -1.0))

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        return Value(self.data * other.data, (self, other), (other.data, self.data))

    def __truediv__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        return Value(self.data / other.data, (self, other), (1.0 / other.data, -self.data / (other.data * other.data)))

    def __radd__(self, other):
        return Value(other) + self

    def __rsub__(self, other):
        return Value(other) - self

    def __rmul__(self, other):
        return Value(other) * self

    def __rtruediv__(self, other):
        return Value(other) / self

    def __neg__(self):
        return Value(-self.data, (self,), (-1.0,))

    def pow(self, k):
        return Value(self.data ** k, (self,), (k * self.data ** (k - 1),))

    def exp(self):
        e = math.exp(self.data)
        return Value(e, (self,), (e,))

    def log(self):
        return Value(math.log(self.data), (self,), (1.0 / self.data,))

    def relu(self):
        return Value(self.data if self.data > 0 else 0.0, (self,), (1.0 if self.data > 0 else 0.0,))

    def tanh(self):
        t = math.tanh(self.data)
        return Value(t, (self,), (1 - t * t,))

    def backward(self):
        # Gradbook's backward: every gradient it reaches starts at 0. The
        # walk uses an explicit stack, as Gradbook's does.
        topo, seen, stack = [], {id(self)}, [(self, 0)]
        while stack:
            v, i = stack[-1]
            if i < len(v._children):
                stack[-1] = (v, i + 1)
                c = v._children[i]
                if id(c) not in seen:
                    seen.add(id(c))
                    stack.append((c, 0))
            else:
                topo.append(v)
                stack.pop()
        for v in topo:
            v.grad = 0.0
        self.grad = 1.0
        for v in reversed(topo):
            for c, g in zip(v._children, v._local_grads):
                c.grad += g * v.grad


def moons(n, noise=0.1, seed=0):
    r = random.Random(seed)
    outer, inner = n - n // 2, n // 2
    X, y = [], []
    for i in range(outer):
        t = math.pi * i / max(outer - 1, 1)
        X.append([math.cos(t) + noise * r.gauss(0, 1), math.sin(t) + noise * r.gauss(0, 1)])
        y.append(-1)
    for i in range(inner):
        t = math.pi * i / max(inner - 1, 1)
        X.append([1 - math.cos(t) + noise * r.gauss(0, 1), 0.5 - math.sin(t) + noise * r.gauss(0, 1)])
        y.append(1)
    return X, y


def uniform(n, low=-1.0, high=1.0, seed=0):
    r = random.Random(seed)
    return [r.uniform(low, high) for _ in range(n)]
