"""Gradbook's built-ins in Python, for a lesson exported as a Jupyter notebook.

A Gradbook lesson runs in the browser: its cells are Starlark, and these names
are built into the page. This module gives the same names in Python over
micrograd-style Values, so that an exported notebook runs top to bottom in
Jupyter: Value with the engine's ops and gradient rules, check, grad_check,
evaluate and backward over the list-format graphs, detach, max, show (a text
table instead of a drawing), trace (a plain call) and fail.

What does not carry over: the drawings (show prints a table), the stepper,
the quizzes' checking and the exercises' hints (the notebook has the hidden
tests as a cell after each exercise). Numbers print as Gradbook prints them.
"""

import builtins
import inspect
import math
import os
import re
import time

try:
    import torch
    import torch.nn.functional as F
    # Gradbook's tensors are float64: so are these, so that the numbers agree.
    torch.set_default_dtype(torch.float64)
except ImportError:  # the Values need no PyTorch
    torch = F = None

__all__ = [
    "Value", "check", "grad_check", "evaluate", "backward", "detach", "max",
    "show", "trace", "fail", "uniform", "cmp", "torch", "F", "names", "jvp",
    "jacobian", "plot", "scatter", "heatmap", "hist", "boundary",
]

# --- numbers, as Gradbook writes them ----------------------------------------


def _number(x):
    """A number as Gradbook's check prints it: whole numbers without a point,
    others to eight significant digits."""
    x = float(x)
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "+inf" if x > 0 else "-inf"
    if x == math.trunc(x) and abs(x) < 1e15:
        return str(int(x))
    return _go_g(x, 8)


def _go_g(x, digits):
    """Go's strconv 'g' format with the given significant digits: no padding
    zeros, an exponent of at least two digits."""
    s = "%.*g" % (digits, x)
    if "e" in s:
        mant, exp = s.split("e")
        sign = exp[0]
        exp = exp[1:].lstrip("0").rjust(2, "0")
        s = mant + "e" + sign + exp
    return s


# --- Values ------------------------------------------------------------------

_made = 0  # Values are numbered as they are made: a topological order


def _ordinal():
    global _made
    _made += 1
    return _made


# The ops: forward rule and local derivatives, as the engine's table has them.
_OPS = {
    "add": (lambda a, b, k: a + b, lambda a, b, k, y: (1.0, 1.0)),
    "sub": (lambda a, b, k: a - b, lambda a, b, k, y: (1.0, -1.0)),
    "mul": (lambda a, b, k: a * b, lambda a, b, k, y: (b, a)),
    "div": (lambda a, b, k: a / b, lambda a, b, k, y: (1.0 / b, -a / (b * b))),
    "sq": (lambda a, b, k: a * a, lambda a, b, k, y: (2.0 * a, 0.0)),
    "tanh": (lambda a, b, k: math.tanh(a), lambda a, b, k, y: (1.0 - y * y, 0.0)),
    "relu": (lambda a, b, k: a if a > 0 else 0.0, lambda a, b, k, y: (1.0 if a > 0 else 0.0, 0.0)),
    "neg": (lambda a, b, k: -a, lambda a, b, k, y: (-1.0, 0.0)),
    "exp": (lambda a, b, k: math.exp(a), lambda a, b, k, y: (y, 0.0)),
    "log": (lambda a, b, k: math.log(a), lambda a, b, k, y: (1.0 / a, 0.0)),
    "sigmoid": (lambda a, b, k: _sigmoid(a), lambda a, b, k, y: (y * (1.0 - y), 0.0)),
    "pow": (lambda a, b, k: a * a if k == 2 else math.pow(a, k),
            lambda a, b, k, y: (0.0, 0.0) if k == 0 else (k * math.pow(a, k - 1), 0.0)),
    "detach": (lambda a, b, k: a, lambda a, b, k, y: (0.0, 0.0)),
    "max": (lambda a, b, k: builtins.max(a, b), lambda a, b, k, y: (1.0, 0.0) if a >= b else (0.0, 1.0)),
}
_ARITY = {"add": 2, "sub": 2, "mul": 2, "div": 2, "max": 2}


def _sigmoid(a):
    if a >= 0:
        return 1.0 / (1.0 + math.exp(-a))
    e = math.exp(a)
    return e / (1.0 + e)


class Value:
    """A scalar that records how it was made, as a Gradbook cell's Value:
    + - * / with Values or numbers on either side, unary -, .relu() .tanh()
    .exp() .log() .sigmoid() .pow(k), .value (alias .data), .grad, .label,
    .op, and .backward()."""

    __slots__ = ("value", "grad", "label", "op", "_in", "_k", "_n")

    def __init__(self, x, label="", _op="", _in=(), _k=0.0):
        if isinstance(x, Value):
            x = x.value
        self.value = float(x)
        self.grad = 0.0
        self.label = label
        self.op = _op
        self._in = _in
        self._k = _k
        self._n = _ordinal()

    @property
    def data(self):
        return self.value

    @data.setter
    def data(self, x):
        self.value = float(x)

    def __repr__(self):
        if self.label:
            return 'Value(data=%s, grad=%s, label="%s")' % (_number(self.value), _number(self.grad), self.label)
        return "Value(data=%s, grad=%s)" % (_number(self.value), _number(self.grad))

    def _node(self, op, other=None, k=0.0):
        ins = (self,) if other is None else (self, other)
        b = other.value if other is not None else 0.0
        return Value(_OPS[op][0](self.value, b, k), _op=op, _in=ins, _k=k)

    @staticmethod
    def _of(x):
        if isinstance(x, Value):
            return x
        if isinstance(x, (int, float)) and not isinstance(x, bool):
            return Value(x, _op="")
        return None

    def _binary(self, op, other, right=False):
        o = Value._of(other)
        if o is None:
            return NotImplemented
        a, b = (o, self) if right else (self, o)
        if op == "div" and b.value == 0:
            raise ZeroDivisionError("division by zero: %s is 0" % (b.label or "the divisor"))
        return a._node(op, b)

    def __add__(self, o): return self._binary("add", o)
    def __radd__(self, o): return self._binary("add", o, True)
    def __sub__(self, o): return self._binary("sub", o)
    def __rsub__(self, o): return self._binary("sub", o, True)
    def __mul__(self, o): return self._binary("mul", o)
    def __rmul__(self, o): return self._binary("mul", o, True)
    def __truediv__(self, o): return self._binary("div", o)
    def __rtruediv__(self, o): return self._binary("div", o, True)
    def __neg__(self): return self._node("neg")

    def __pow__(self, k):
        return self.pow(k)

    def relu(self): return self._node("relu")
    def tanh(self): return self._node("tanh")
    def exp(self): return self._node("exp")
    def sigmoid(self): return self._node("sigmoid")

    def log(self):
        if self.value <= 0:
            raise ValueError("log of a non-positive number: %s is %s" % (self.label or "the Value", _number(self.value)))
        return self._node("log")

    def pow(self, k):
        if isinstance(k, Value) or not math.isfinite(float(k)):
            raise TypeError("pow: the exponent must be a finite number, got %r" % (k,))
        return self._node("pow", k=float(k))

    def __bool__(self):
        return self.value != 0

    def __float__(self):
        return self.value

    def __lt__(self, o): return self.value < _num(o)
    def __le__(self, o): return self.value <= _num(o)
    def __gt__(self, o): return self.value > _num(o)
    def __ge__(self, o): return self.value >= _num(o)

    def _local(self):
        a = self._in[0].value
        b = self._in[1].value if len(self._in) > 1 else 0.0
        return _OPS[self.op][1](a, b, self._k, self.value)

    def backward(self, overwrite=False, accumulate=False, recursive=False):
        """The reverse pass from this Value. It starts every gradient it
        reaches at 0 (accumulate=True adds onto them instead); overwrite=True
        and recursive=True are the two classic bugs of a first backward."""
        if overwrite and recursive:
            raise ValueError("backward: overwrite=True and recursive=True are two different bugs: show one at a time")
        nodes = _reachable(self)
        before = {id(v): v.grad for v in nodes}
        for v in nodes:
            v.grad = 0.0
        self.grad = 1.0
        if recursive:
            stack = [self]
            while stack:
                v = stack.pop()
                if not v._in:
                    continue
                da, db = v._local()
                up = v.grad
                v._in[0].grad += up * da
                if len(v._in) > 1:
                    v._in[1].grad += up * db
                    stack.append(v._in[1])
                stack.append(v._in[0])
        else:
            for v in reversed(nodes):
                if not v._in:
                    continue
                da, db = v._local()
                up = v.grad
                if overwrite:
                    v._in[0].grad = up * da
                    if len(v._in) > 1:
                        v._in[1].grad = up * db
                else:
                    v._in[0].grad += up * da
                    if len(v._in) > 1:
                        v._in[1].grad += up * db
        if accumulate:
            for v in nodes:
                v.grad += before[id(v)]


def _num(x):
    return x.value if isinstance(x, Value) else float(x)


def _reachable(out):
    """Every Value out is made from, out included, in the order they were
    made: a topological order."""
    seen, nodes, stack = set(), [], [out]
    while stack:
        v = stack.pop()
        if id(v) in seen:
            continue
        seen.add(id(v))
        nodes.append(v)
        stack.extend(v._in)
    nodes.sort(key=lambda v: v._n)
    return nodes


def detach(v):
    """A stop-gradient: the value passes on, no gradient comes back."""
    v = Value._of(v)
    return v._node("detach")


def max(*args, **kwargs):
    """Python's max; over Values, a Value made of the engine's max op, whose
    whole gradient goes to the largest input (the first on a tie)."""
    xs = args[0] if len(args) == 1 else args
    xs = list(xs)
    if not builtins.any(isinstance(x, Value) for x in xs):
        return builtins.max(*args, **kwargs)
    top = Value._of(xs[0])
    for x in xs[1:]:
        top = top._node("max", Value._of(x))
    return top


# --- seeded numbers, as Gradbook draws them -----------------------------------

_M64 = (1 << 64) - 1


class _PCG:
    """Go's math/rand/v2 PCG (a 128-bit LCG with the DXSM output), so that
    uniform gives the page's numbers."""

    def __init__(self, seed1, seed2):
        self.hi, self.lo = seed1 & _M64, seed2 & _M64

    def uint64(self):
        state = ((self.hi << 64) | self.lo) * ((2549297995355413924 << 64) | 4865540595714422341)
        state = (state + ((6364136223846793005 << 64) | 1442695040888963407)) & ((1 << 128) - 1)
        self.hi, self.lo = state >> 64, state & _M64
        hi = self.hi
        hi ^= hi >> 32
        hi = (hi * 0xda942042e4dd58b5) & _M64
        hi ^= hi >> 48
        return (hi * (self.lo | 1)) & _M64

    def float64(self):
        return (self.uint64() & ((1 << 53) - 1)) / float(1 << 53)


def uniform(n, low=-1.0, high=1.0, seed=0):
    """n numbers drawn uniformly from [low, high), seeded: the page's
    numbers for the same arguments."""
    if not (low < high) or math.isinf(high - low):
        raise ValueError("uniform: want finite low < high, got %r and %r" % (low, high))
    r = _PCG(seed, 0x756e69666f726d)  # "uniform"
    return [low + (high - low) * r.float64() for _ in range(n)]


# --- checks ------------------------------------------------------------------


def _first_arg():
    """The text of check's first argument, read from the line that calls it
    (Jupyter keeps each cell's source), as Gradbook labels a check."""
    try:
        frame = inspect.stack()[2]
        code = "".join(frame.code_context or [])
    except Exception:
        return "check"
    m = re.search(r"\bcheck\(", code)
    if not m:
        return "check"
    depth, start = 0, m.end()
    for i in range(start, len(code)):
        c = code[i]
        if c in "([{":
            depth += 1
        elif c in ")]}":
            if depth == 0:
                return code[start:i].strip()
            depth -= 1
        elif c == "," and depth == 0:
            return code[start:i].strip()
    return code[start:].strip()


def _short(x):
    if isinstance(x, float):
        return _number(x)
    if isinstance(x, str):
        return '"%s"' % x
    return repr(x)


def _as_float(x):
    if isinstance(x, Value):
        return x.value
    if isinstance(x, (int, float)) and not isinstance(x, bool):
        return float(x)
    if hasattr(x, "dim") and hasattr(x, "item") and x.dim() == 0:
        return float(x.item())
    return None


def _compare(actual, expected, tol, depth=0):
    if depth > 64:
        raise ValueError("check: the values are nested more than 64 deep (does a list hold itself?)")
    if hasattr(actual, "tolist") and not isinstance(actual, (list, tuple)):
        actual = actual.tolist()
    if hasattr(expected, "tolist") and not isinstance(expected, (list, tuple)):
        expected = expected.tolist()
    e = _as_float(expected)
    if e is not None:
        a = _as_float(actual)
        if a is None:
            return "got %s, a %s, expected the number %s" % (_short(actual), type(actual).__name__, _number(e))
        if a == e or (math.isnan(a) and math.isnan(e)) or abs(a - e) <= tol * builtins.max(1.0, abs(e)):
            return ""
        return "got %s, expected %s" % (_number(a), _number(e))
    if isinstance(expected, str):
        return "" if actual == expected else "got %s, expected %s" % (_short(actual), _short(expected))
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return "got a %s, expected a dict" % type(actual).__name__
        for k, v in expected.items():
            if k not in actual:
                return "%s is missing" % _short(k)
            p = _compare(actual[k], v, tol, depth + 1)
            if p:
                return "at %s: %s" % (_short(k), p)
        return ""
    if isinstance(expected, (list, tuple)):
        if not isinstance(actual, (list, tuple)):
            return "got a %s, expected a %s" % (type(actual).__name__, type(expected).__name__)
        if len(actual) != len(expected):
            return "got %d items, expected %d" % (len(actual), len(expected))
        for i, (a, b) in enumerate(zip(actual, expected)):
            p = _compare(a, b, tol, depth + 1)
            if p:
                return "at [%d]: %s" % (i, p)
        return ""
    return "" if actual == expected else "got %s, expected %s" % (_short(actual), _short(expected))


def _checked(x):
    f = _as_float(x)
    return _number(f) if f is not None else _short(x)


def check(actual, expected, tol=1e-9, label=None):
    """Prints ✓ or ✗: whether actual is within tol of expected (relative to
    |expected| above 1). Numbers and Values compare as numbers, dicts by the
    keys of expected, lists and tuples element by element."""
    if not label:
        label = _first_arg()
    problem = _compare(actual, expected, tol)
    if problem.startswith("at "):
        problem += " (the whole: got %s, expected %s)" % (_short(actual), _short(expected))
    if problem:
        global _checks_failed
        _checks_failed += 1
        print("✗ %s: %s" % (label, problem))
        return False
    print("✓ %s = %s" % (label, _checked(actual)))
    return True


def fail(*args):
    """Stops the cell with a message, as Starlark's fail."""
    raise AssertionError(" ".join(str(a) for a in args))


_DEFAULT_STEPS = (1e-2, 1e-4, 1e-6)


def _differences(f, x, analytic, steps):
    base = f(x)
    rows = []
    for h in steps:
        lo, hi = f(x - h), f(x + h)
        r = {"step": h, "left": (base - lo) / h, "right": (hi - base) / h, "central": (hi - lo) / (2 * h)}
        r["abs_err"] = abs(r["central"] - analytic)
        scale = builtins.max(abs(r["central"]), abs(analytic))
        r["rel_err"] = r["abs_err"] / scale if scale > 0 else 0.0
        rows.append(r)
    return {"analytic": analytic, "rows": rows, "kink": _kink(rows),
            "left": rows[-1]["left"], "right": rows[-1]["right"], "central": rows[-1]["central"]}


def _kink(rows):
    last = builtins.min(rows, key=lambda r: r["step"])
    gap = abs(last["left"] - last["right"])
    if gap <= 1e-3 * builtins.max(1.0, abs(last["central"])):
        return False
    for r in rows:
        if r["step"] > last["step"] and gap < 0.5 * abs(r["left"] - r["right"]):
            return False
    return True


def _table(c):
    has = not math.isnan(c["analytic"])
    lines = ["%-8s %14s %14s %14s" % ("step", "left", "right", "central") + (" %12s %12s" % ("abs error", "rel error") if has else "")]
    for r in c["rows"]:
        line = "%-8s %14s %14s %14s" % (repr(r["step"]), _go_g(r["left"], 10), _go_g(r["right"], 10), _go_g(r["central"], 10))
        if has:
            line += " %12s %12s" % (_go_g(r["abs_err"], 3), _go_g(r["rel_err"], 3))
        lines.append(line)
    if has:
        lines.append("backward gives %s" % _number(c["analytic"]))
    if c["kink"]:
        lines.append("kink: the left and right differences tend to %s and %s, so there is no derivative here; the central difference (%s) is neither one-sided limit."
                     % (_go_g(c["left"], 10), _go_g(c["right"], 10), _go_g(c["central"], 10)))
    return "\n".join(lines)


def _number_of(x, what):
    f = _as_float(x)
    if f is None:
        raise TypeError("grad_check: %s must return a number or a Value, got %s" % (what, type(x).__name__))
    return f


def grad_check(*args, steps=None, analytic=None, **kwargs):
    """Left, right and central differences at steps 1e-2, 1e-4, 1e-6, with
    the absolute and relative error and a flag where left and right
    disagree (a kink):
        grad_check(f, at, analytic=None)
        grad_check(graph, leaves, out, names)"""
    hs = list(steps) if steps else list(_DEFAULT_STEPS)
    if args and callable(args[0]):
        f, at = args[0], float(args[1])
        a = math.nan if analytic is None else float(_as_float(analytic))
        c = _differences(lambda x: _number_of(f(x), "f"), at, a, hs)
        print(_table(c))
        return c
    graph, leaves, out, names = args[:4]
    leaves = _leaves(leaves)
    vals = evaluate(graph, leaves)
    grads = backward(graph, vals, out)
    res = {}
    for name in names:
        if name not in leaves:
            raise ValueError("grad_check: %s cannot be checked: it is not a leaf" % name)

        def f(x, name=name):
            shifted = dict(leaves)
            shifted[name] = x
            return evaluate(graph, shifted)[out]
        c = _differences(f, leaves[name], grads[name], hs)
        print("d%s/d%s:\n%s" % (out, name, _table(c)))
        res[name] = c
    return res


# --- graphs in the list format -----------------------------------------------


def _leaves(values):
    if isinstance(values, dict):
        return {k: _num(v) for k, v in values.items()}
    return {k: _num(v) for k, v in values}


def _entries(graph):
    for e in graph:
        name, op, ins = e[0], e[1], list(e[2])
        k = float(e[3]) if len(e) > 3 else 0.0
        if op not in _OPS:
            raise ValueError("node %s: unknown op %r (known: %s)" % (name, op, ", ".join(_OPS)))
        want = _ARITY.get(op, 1)
        if len(ins) != want:
            raise ValueError("node %s: %s takes %d input%s, got %d" % (name, op, want, "" if want == 1 else "s", len(ins)))
        yield name, op, ins, k


def evaluate(graph, leaves):
    """Every value of a graph in the list format, from its leaves: a dict of
    name to number, leaves included."""
    vals = dict(_leaves(leaves))
    for name, op, ins, k in _entries(graph):
        for i in ins:
            if i not in vals:
                raise ValueError("node %s: input %s is neither a leaf nor an earlier node" % (name, i))
        a = vals[ins[0]]
        b = vals[ins[1]] if len(ins) > 1 else 0.0
        vals[name] = _OPS[op][0](a, b, k)
    return vals


def backward(graph, values, out):
    """d out / d name for every name in values (a graph's values, as
    evaluate returns them), by one reverse pass over the graph."""
    vals = dict(_leaves(values))
    entries = list(_entries(graph))
    names = [e[0] for e in entries]
    if out not in vals and out not in names:
        raise ValueError("backward: %s is not a node of the graph" % out)
    grads = {k: 0.0 for k in vals}
    for n in names:
        grads.setdefault(n, 0.0)
    grads[out] = 1.0
    upto = names.index(out) if out in names else -1
    for name, op, ins, k in reversed(entries[:upto + 1]):
        a = vals[ins[0]]
        b = vals[ins[1]] if len(ins) > 1 else 0.0
        da, db = _OPS[op][1](a, b, k, vals[name])
        grads[ins[0]] += grads[name] * da
        if len(ins) > 1:
            grads[ins[1]] += grads[name] * db
    return {k: grads[k] for k in vals}


# --- drawing and tracing, as text and plain calls ----------------------------


def show(v, values=None, out=None):
    """Gradbook draws a graph; here it is a table: every value it is made
    of, in the order they were made, with its op, inputs, value and
    gradient."""
    if values is not None:
        vals = evaluate(v, values)
        grads = backward(v, vals, out) if out else {}
        print("%-10s %-8s %-16s %14s %14s" % ("name", "op", "inputs", "value", "grad"))
        for k, x in vals.items():
            op, ins = "leaf", ""
            for name, o, i, _ in _entries(v):
                if name == k:
                    op, ins = o, ", ".join(i)
            print("%-10s %-8s %-16s %14s %14s" % (k, op, ins, _go_g(x, 5), _go_g(grads.get(k, 0.0), 5)))
        return
    if torch is not None and isinstance(v, torch.Tensor):
        # Gradbook draws a small tensor computation as the scalar Values it
        # stands for; here it is its operations, from the output back.
        print("tensor of shape %s, made by:" % (tuple(v.shape),))
        seen, stack = set(), [(v.grad_fn, 0)]
        while stack:
            fn, depth = stack.pop()
            if fn is None or fn in seen:
                continue
            seen.add(fn)
            print("  " * depth + type(fn).__name__.replace("Backward0", "").replace("Backward", ""))
            stack.extend((g, depth + 1) for g, _ in reversed(fn.next_functions))
        return
    nodes = _reachable(Value._of(v))
    index = {id(n): i for i, n in enumerate(nodes)}

    def name(n):
        return n.label or "v%d" % index[id(n)]
    print("%-10s %-8s %-16s %14s %14s" % ("value", "op", "inputs", "data", "grad"))
    for n in nodes:
        print("%-10s %-8s %-16s %14s %14s" % (name(n), n.op or "leaf", ", ".join(name(i) for i in n._in), _go_g(n.value, 5), _go_g(n.grad, 5)))


def trace(f, *inputs):
    """Gradbook records f's graph once as a tape and replays it; here each
    call runs f again: it returns f's number and sets the inputs' .grad by
    a backward pass, as the replay does."""
    def call(*args):
        out = f(*args)
        if isinstance(out, (list, tuple)):
            return [_num(o) for o in out]
        out = Value._of(out)
        out.backward()
        return out.value
    return call


# --- tensors ------------------------------------------------------------------


def cmp(name, mine, t):
    """The backprop ninja's cmp: compares a gradient worked out by hand with
    the one autograd left in t.grad, and prints whether they are exactly
    equal, close (torch.allclose) and their largest difference."""
    global _checks_failed
    if t.grad is None:
        raise ValueError("cmp: %s has no gradient to compare with: call .retain_grad() before loss.backward()" % name)
    if tuple(mine.shape) != tuple(t.shape):
        _checks_failed += 1
        print("✗ %-15s | shape %s, but the gradient has its tensor's shape %s" % (name, tuple(mine.shape), tuple(t.shape)))
        return False
    exact = bool(torch.equal(mine, t.grad))
    approx = bool(torch.allclose(mine, t.grad))
    diff = (mine - t.grad).abs().max().item() if mine.numel() else 0.0
    if not approx:
        _checks_failed += 1
    print("%s %-15s | exact: %-5s | approximate: %-5s | maxdiff: %s" % ("✓" if approx else "✗", name, exact, approx, _number(diff)))
    return approx


def names():
    """The 32,033 first names of makemore's names.txt, lower case: the file
    data/names.txt beside the notebook, as the export writes it."""
    with open(os.path.join("data", "names.txt"), encoding="utf-8") as f:
        return [line.strip() for line in f if line.strip()]


# --- forward mode ---------------------------------------------------------------


def _tangents(nodes, seed):
    """Pushes tangents forward through Values in the order they were made:
    each op combines its inputs' tangents with its local derivatives, the
    same table backward uses. seed maps a Value's id to its tangent."""
    t = {}
    for v in nodes:
        if not v._in:
            t[id(v)] = seed.get(id(v), 0.0)
            continue
        da, db = v._local()
        dt = da * t[id(v._in[0])]
        if len(v._in) > 1:
            dt += db * t[id(v._in[1])]
        t[id(v)] = dt
    return t


def _values_of(xs):
    if isinstance(xs, (list, tuple)):
        return [_values_of(x) for x in xs]
    return Value(xs)


def _flat(xs):
    if isinstance(xs, (list, tuple)):
        return [y for x in xs for y in _flat(x)]
    return [xs]


def jvp(f, primals, tangents):
    """Forward mode, JAX's name: f at the primals, and its derivative along
    the tangents, in one pass. Numbers and lists of numbers become Values;
    tensors go through torch.autograd.functional.jvp."""
    if torch is not None and builtins.any(isinstance(p, torch.Tensor) for p in primals):
        out, dout = torch.autograd.functional.jvp(lambda *a: f(*a), tuple(primals), tuple(tangents))
        return out, dout
    args = _values_of(list(primals))
    seed = {id(v): float(d) for v, d in zip(_flat(args), _flat(list(tangents)))}
    out = f(*args)
    outs = out if isinstance(out, (list, tuple)) else [out]
    outs = [Value._of(o) for o in outs]
    nodes = sorted({id(n): n for o in outs for n in _reachable(o)}.values(), key=lambda v: v._n)
    t = _tangents(nodes, seed)
    vals = [o.value for o in outs]
    ds = [t[id(o)] for o in outs]
    if isinstance(out, (list, tuple)):
        return vals, ds
    return vals[0], ds[0]


def jacobian(f, xs, mode="reverse"):
    """The Jacobian of f (a function of a list of Values returning a Value or
    a list of them) at the numbers xs: a column per forward pass, or a row
    per reverse pass. Returns {"matrix", "passes", "visits", "mode", "ms"}."""
    if mode not in ("forward", "reverse"):
        raise ValueError('jacobian: mode must be "forward" or "reverse", got %r' % (mode,))
    start = time.perf_counter()
    args = [Value(x) for x in xs]
    out = f(args)
    outs = [Value._of(o) for o in (out if isinstance(out, (list, tuple)) else [out])]
    nodes = sorted({id(n): n for o in outs for n in _reachable(o)}.values(), key=lambda v: v._n)
    matrix = [[0.0] * len(args) for _ in outs]
    visits = 0
    if mode == "forward":
        for j, a in enumerate(args):
            t = _tangents(nodes, {id(a): 1.0})
            visits += len(nodes)
            for i, o in enumerate(outs):
                matrix[i][j] = t[id(o)]
        passes = len(args)
    else:
        for i, o in enumerate(outs):
            reached = _reachable(o)
            o.backward()
            visits += len(reached)
            for j, a in enumerate(args):
                matrix[i][j] = a.grad if builtins.any(r is a for r in reached) else 0.0
        passes = len(outs)
    return {"matrix": matrix, "passes": passes, "visits": visits, "mode": mode,
            "ms": round((time.perf_counter() - start) * 1000, 3)}


# --- plots, with matplotlib ---------------------------------------------------


def _numbers(xs):
    if torch is not None and isinstance(xs, torch.Tensor):
        return [float(x) for x in xs.detach().reshape(-1).tolist()]
    return [_num(x) for x in xs]


def _pyplot():
    import matplotlib.pyplot as plt
    return plt


def plot(ys, title="", xlabel="step", ylabel=""):
    """A line plot of a list of numbers, or of each list in a dict."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(6, 3.5))
    series = ys if isinstance(ys, dict) else {"": ys}
    for name, s in series.items():
        ax.plot(_numbers(s), label=name or None)
    if isinstance(ys, dict):
        ax.legend()
    ax.set(title=title, xlabel=xlabel, ylabel=ylabel)
    plt.show()


def scatter(points, classes, title=""):
    """2-D points, coloured by class."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(4.5, 4.5))
    xs, ys = [_num(p[0]) for p in points], [_num(p[1]) for p in points]
    ax.scatter(xs, ys, c=[_num(c) for c in classes], cmap="coolwarm", s=14)
    ax.set(title=title)
    plt.show()


def boundary(f, points, classes, title="", steps=50):
    """Where f(x, y) is positive over a steps × steps grid, under the points."""
    plt = _pyplot()
    xs, ys = [_num(p[0]) for p in points], [_num(p[1]) for p in points]
    x0, x1 = builtins.min(xs) - 0.5, builtins.max(xs) + 0.5
    y0, y1 = builtins.min(ys) - 0.5, builtins.max(ys) + 0.5
    grid = [[_num(f([y0 + (y1 - y0) * i / (steps - 1), x0 + (x1 - x0) * j / (steps - 1)][::-1])) > 0
             for j in range(steps)] for i in range(steps)]
    fig, ax = plt.subplots(figsize=(4.5, 4.5))
    ax.imshow(grid, origin="lower", extent=(x0, x1, y0, y1), cmap="coolwarm", alpha=0.3, aspect="auto")
    ax.scatter(xs, ys, c=[_num(c) for c in classes], cmap="coolwarm", s=14)
    ax.set(title=title)
    plt.show()


def heatmap(values, rows=None, cols=None, title=""):
    """A grid of numbers, darker for larger."""
    plt = _pyplot()
    grid = [_numbers(r) for r in values]
    fig, ax = plt.subplots(figsize=(5, 4))
    im = ax.imshow(grid, cmap="Blues")
    if rows:
        ax.set_yticks(range(len(rows)), rows)
    if cols:
        ax.set_xticks(range(len(cols)), cols)
    fig.colorbar(im)
    ax.set(title=title)
    plt.show()


def hist(values, bins=50, title="", xlabel="value", saturated=None):
    """A histogram of numbers, or of each series in a dict, overlaid; with
    saturated=0.97, the share of each beyond ±0.97 is printed."""
    plt = _pyplot()
    series = values if isinstance(values, dict) else {"": values}
    fig, ax = plt.subplots(figsize=(6, 3.5))
    for name, s in series.items():
        xs = _numbers(s)
        ax.hist(xs, bins=bins, histtype="step", label=name or None)
        if saturated is not None:
            share = sum(1 for x in xs if abs(x) > saturated) / builtins.max(1, len(xs))
            print("%s: %d numbers, %.1f%% beyond ±%g" % (name or "values", len(xs), 100 * share, saturated))
    if isinstance(values, dict):
        ax.legend()
    ax.set(title=title, xlabel=xlabel)
    plt.show()


# --- the exercises' hidden tests ---------------------------------------------

_checks_failed = 0  # check() lines that printed ✗, for the tests below
_reference_backward = backward  # the engine's, before an exercise defines its own
_reference_evaluate = evaluate


def _gradbook_test(name, test):
    """Runs one hidden test of an exercise: it fails when it raises or when
    one of its check() calls prints ✗."""
    before = _checks_failed
    try:
        test()
    except Exception as e:
        print("✗ %s" % name)
        raise AssertionError("%s: %s" % (name, e)) from None
    if _checks_failed != before:
        print("✗ %s" % name)
        raise AssertionError("%s: a check failed" % name)
    print("✓ %s" % name)


def _gradbook_backward(cases, env):
    """The backward exercise's checker: the learner's backward(graph,
    values, out) on hidden graphs, every gradient compared with the
    engine's."""
    mine = env.get("backward")
    if not callable(mine) or mine is _reference_backward:
        raise AssertionError("Define a function backward(graph, values, out) in your code.")
    for name, graph, leaves, twice in cases:
        g = [tuple(e) for e in graph]
        out = g[-1][0]
        vals = _reference_evaluate(graph, leaves)
        want = _reference_backward(graph, vals, out)
        for attempt in range(2 if twice else 1):
            got = mine(g, dict(vals), out)
            if not isinstance(got, dict):
                print("✗ %s" % name)
                raise AssertionError("On %s, backward returned a %s, not a dict of gradients." % (name, type(got).__name__))
            for k, w in want.items():
                if k not in got:
                    print("✗ %s" % name)
                    raise AssertionError("On %s, the gradient of %s is missing: every name in values needs one, 0.0 where out does not depend on it." % (name, k))
                if abs(_num(got[k]) - w) > 1e-9 * builtins.max(1.0, abs(w)):
                    print("✗ %s" % name)
                    raise AssertionError("On %s, d%s/d%s is %s; the engine gives %s." % (name, out, k, _number(_num(got[k])), _number(w)))
        print("✓ %s" % name)


def _gradbook_checker(name, env, cases=None):
    if name == "backward":
        return _gradbook_backward(cases, env)
    print("This exercise is checked in the page by Gradbook's %s checker, which has no Python form yet: the tests below are the rest." % name)
