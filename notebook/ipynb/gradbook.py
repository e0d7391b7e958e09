"""Gradbook's built-ins in Python, for a lesson exported as a Jupyter notebook.

A Gradbook lesson runs in the browser: its cells are Starlark, and these names
are built into the page. This module gives the same names in Python over
micrograd-style Values, so that an exported notebook runs top to bottom in
Jupyter: Value with the engine's ops and gradient rules, check, grad_check,
evaluate and backward over the list-format graphs, detach, max, show (a text
table instead of a drawing), trace (a recorded tape, replayed), fail, and the
seeded numbers: uniform, moons, the random module and torch's random
tensors, Go's generator and algorithms ported so that they draw the page's
numbers to the last bit.

What does not carry over: the drawings (show prints a table), the stepper,
the quizzes' checking and the exercises' hints (the notebook has the hidden
tests as a cell after each exercise). Numbers print as Gradbook prints them.
"""

import bisect
import builtins
import copy
import inspect
import math
import os
import re
import struct
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
    "show", "trace", "fail", "uniform", "cmp", "torch", "F", "names", "shakespeare", "jvp",
    "jacobian", "plot", "scatter", "heatmap", "hist", "boundary", "random",
    "moons",
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


# --- the random module and moons, as the page draws them ----------------------
#
# The cell language's random module (seed, random, uniform, gauss, randint,
# choice, choices, shuffle) and moons are Go's math/rand/v2 over a PCG: here
# are the same algorithms, to the last bit. Go's integers are 64 bits wide,
# so every sum and product of them is masked as Go wraps it; NormFloat64's
# ziggurat keeps Go's float32 tables and float32 arithmetic; and the math
# it calls (log, exp, and moons's cos and sin) is Go's own, ported, since
# the C library's may round the last bit otherwise.

_M32 = (1 << 32) - 1
_MAX_DATA_POINTS = 100000  # library.MaxDataPoints


def _f32(x):
    """x rounded to a float32, as Go's float32(x)."""
    return struct.unpack("<f", struct.pack("<f", x))[0]


def _i64(n):
    """n wrapped to a signed 64-bit integer, as Go's int64 arithmetic."""
    n &= _M64
    return n - (1 << 64) if n >> 63 else n


def _go_log(x):
    """Go's math.Log (FDLIBM's), bit for bit."""
    if math.isnan(x) or x == math.inf:
        return x
    if x < 0:
        return math.nan
    if x == 0:
        return -math.inf
    f1, ki = math.frexp(x)
    if f1 < 0.70710678118654757:  # math.Sqrt2 / 2
        f1 *= 2
        ki -= 1
    f = f1 - 1
    k = float(ki)
    s = f / (2 + f)
    s2 = s * s
    s4 = s2 * s2
    t1 = s2 * (6.666666666666735130e-01 + s4 * (2.857142874366239149e-01 + s4 * (1.818357216161805012e-01 + s4 * 1.479819860511658591e-01)))
    t2 = s4 * (3.999999999940941908e-01 + s4 * (2.222219843214978396e-01 + s4 * 1.531383769920937332e-01))
    R = t1 + t2
    hfsq = 0.5 * f * f
    return k * 6.93147180369123816490e-01 - ((hfsq - (s * (hfsq + R) + k * 1.90821492927058770002e-10)) - f)


def _go_exp(x):
    """Go's math.Exp (FDLIBM's, as Go compiles it for WebAssembly), bit for bit."""
    if math.isnan(x):
        return x
    if x > 7.09782712893383973096e+02:
        return math.inf
    if x < -7.45133219101941108420e+02:
        return 0.0
    if -1.0 / (1 << 28) < x < 1.0 / (1 << 28):
        return 1 + x
    k = 0
    if x < 0:
        k = int(1.44269504088896338700e+00 * x - 0.5)
    elif x > 0:
        k = int(1.44269504088896338700e+00 * x + 0.5)
    hi = x - k * 6.93147180369123816490e-01
    lo = k * 1.90821492927058770002e-10
    r = hi - lo
    t = r * r
    c = r - t * (1.66666666666666657415e-01 + t * (-2.77777777770155933842e-03 + t * (6.61375632143793436117e-05 + t * (-1.65339022054652515390e-06 + t * 4.13813679705723846039e-08))))
    y = 1 - ((lo - (r * c) / (2 - c)) - hi)
    return math.ldexp(y, k)


_SIN = (1.58962301576546568060e-10, -2.50507477628578072866e-8, 2.75573136213857245213e-6,
        -1.98412698295895385996e-4, 8.33333333332211858878e-3, -1.66666666666666307295e-1)
_COS = (-1.13585365213876817300e-11, 2.08757008419747316778e-9, -2.75573141792967388112e-7,
        2.48015872888517045348e-5, -1.38888888888730564116e-3, 4.16666666666665929218e-2)


def _go_sincos(x):
    """Go's math.Sin and math.Cos of x, bit for bit, for |x| < 2**29 (moons
    asks for angles from 0 to pi; beyond, Go reduces otherwise)."""
    if not abs(x) < (1 << 29):
        return math.sin(x), math.cos(x)
    if x == 0:
        return x, 1.0
    ssign = x < 0
    x = abs(x)
    j = int(x * 1.2732395447351628)  # 4 / math.Pi
    y = float(j)
    if j & 1:
        j += 1
        y += 1
    j &= 7
    z = ((x - y * 7.85398125648498535156e-1) - y * 3.77489470793079817668e-8) - y * 2.69515142907905952645e-15
    csign = False
    if j > 3:
        j -= 4
        ssign, csign = not ssign, not csign
    if j > 1:
        csign = not csign
    zz = z * z
    c = 1.0 - 0.5 * zz + zz * zz * ((((((_COS[0] * zz) + _COS[1]) * zz + _COS[2]) * zz + _COS[3]) * zz + _COS[4]) * zz + _COS[5])
    s = z + z * zz * ((((((_SIN[0] * zz) + _SIN[1]) * zz + _SIN[2]) * zz + _SIN[3]) * zz + _SIN[4]) * zz + _SIN[5])
    if j == 1 or j == 2:
        s, c = c, s
    return (-s if ssign else s), (-c if csign else c)


# Go's ziggurat for NormFloat64 (math/rand/v2/normal.go): kn, and wn and fn
# as the float32s Go keeps.
_RN = 3.442619855899
_KN = (
    0x76ad2212, 0x0, 0x600f1b53, 0x6ce447a6, 0x725b46a2,
    0x7560051d, 0x774921eb, 0x789a25bd, 0x799045c3, 0x7a4bce5d,
    0x7adf629f, 0x7b5682a6, 0x7bb8a8c6, 0x7c0ae722, 0x7c50cce7,
    0x7c8cec5b, 0x7cc12cd6, 0x7ceefed2, 0x7d177e0b, 0x7d3b8883,
    0x7d5bce6c, 0x7d78dd64, 0x7d932886, 0x7dab0e57, 0x7dc0dd30,
    0x7dd4d688, 0x7de73185, 0x7df81cea, 0x7e07c0a3, 0x7e163efa,
    0x7e23b587, 0x7e303dfd, 0x7e3beec2, 0x7e46db77, 0x7e51155d,
    0x7e5aabb3, 0x7e63abf7, 0x7e6c222c, 0x7e741906, 0x7e7b9a18,
    0x7e82adfa, 0x7e895c63, 0x7e8fac4b, 0x7e95a3fb, 0x7e9b4924,
    0x7ea0a0ef, 0x7ea5b00d, 0x7eaa7ac3, 0x7eaf04f3, 0x7eb3522a,
    0x7eb765a5, 0x7ebb4259, 0x7ebeeafd, 0x7ec2620a, 0x7ec5a9c4,
    0x7ec8c441, 0x7ecbb365, 0x7ece78ed, 0x7ed11671, 0x7ed38d62,
    0x7ed5df12, 0x7ed80cb4, 0x7eda175c, 0x7edc0005, 0x7eddc78e,
    0x7edf6ebf, 0x7ee0f647, 0x7ee25ebe, 0x7ee3a8a9, 0x7ee4d473,
    0x7ee5e276, 0x7ee6d2f5, 0x7ee7a620, 0x7ee85c10, 0x7ee8f4cd,
    0x7ee97047, 0x7ee9ce59, 0x7eea0eca, 0x7eea3147, 0x7eea3568,
    0x7eea1aab, 0x7ee9e071, 0x7ee98602, 0x7ee90a88, 0x7ee86d08,
    0x7ee7ac6a, 0x7ee6c769, 0x7ee5bc9c, 0x7ee48a67, 0x7ee32efc,
    0x7ee1a857, 0x7edff42f, 0x7ede0ffa, 0x7edbf8d9, 0x7ed9ab94,
    0x7ed7248d, 0x7ed45fae, 0x7ed1585c, 0x7ece095f, 0x7eca6ccb,
    0x7ec67be2, 0x7ec22eee, 0x7ebd7d1a, 0x7eb85c35, 0x7eb2c075,
    0x7eac9c20, 0x7ea5df27, 0x7e9e769f, 0x7e964c16, 0x7e8d44ba,
    0x7e834033, 0x7e781728, 0x7e6b9933, 0x7e5d8a1a, 0x7e4d9ded,
    0x7e3b737a, 0x7e268c2f, 0x7e0e3ff5, 0x7df1aa5d, 0x7dcf8c72,
    0x7da61a1e, 0x7d72a0fb, 0x7d30e097, 0x7cd9b4ab, 0x7c600f1a,
    0x7ba90bdc, 0x7a722176, 0x77d664e5,
)
_WN = tuple(_f32(w) for w in (
    1.7290405e-09, 1.2680929e-10, 1.6897518e-10, 1.9862688e-10,
    2.2232431e-10, 2.4244937e-10, 2.601613e-10, 2.7611988e-10,
    2.9073963e-10, 3.042997e-10, 3.1699796e-10, 3.289802e-10,
    3.4035738e-10, 3.5121603e-10, 3.616251e-10, 3.7164058e-10,
    3.8130857e-10, 3.9066758e-10, 3.9975012e-10, 4.08584e-10,
    4.1719309e-10, 4.2559822e-10, 4.338176e-10, 4.418672e-10,
    4.497613e-10, 4.5751258e-10, 4.651324e-10, 4.7263105e-10,
    4.8001775e-10, 4.87301e-10, 4.944885e-10, 5.015873e-10,
    5.0860405e-10, 5.155446e-10, 5.2241467e-10, 5.2921934e-10,
    5.359635e-10, 5.426517e-10, 5.4928817e-10, 5.5587696e-10,
    5.624219e-10, 5.6892646e-10, 5.753941e-10, 5.818282e-10,
    5.882317e-10, 5.946077e-10, 6.00959e-10, 6.072884e-10,
    6.135985e-10, 6.19892e-10, 6.2617134e-10, 6.3243905e-10,
    6.386974e-10, 6.449488e-10, 6.511956e-10, 6.5744005e-10,
    6.6368433e-10, 6.699307e-10, 6.7618144e-10, 6.824387e-10,
    6.8870465e-10, 6.949815e-10, 7.012715e-10, 7.075768e-10,
    7.1389966e-10, 7.202424e-10, 7.266073e-10, 7.329966e-10,
    7.394128e-10, 7.4585826e-10, 7.5233547e-10, 7.58847e-10,
    7.653954e-10, 7.719835e-10, 7.7861395e-10, 7.852897e-10,
    7.920138e-10, 7.987892e-10, 8.0561924e-10, 8.125073e-10,
    8.194569e-10, 8.2647167e-10, 8.3355556e-10, 8.407127e-10,
    8.479473e-10, 8.55264e-10, 8.6266755e-10, 8.7016316e-10,
    8.777562e-10, 8.8545243e-10, 8.932582e-10, 9.0117996e-10,
    9.09225e-10, 9.174008e-10, 9.2571584e-10, 9.341788e-10,
    9.427997e-10, 9.515889e-10, 9.605579e-10, 9.697193e-10,
    9.790869e-10, 9.88676e-10, 9.985036e-10, 1.0085882e-09,
    1.0189509e-09, 1.0296151e-09, 1.0406069e-09, 1.0519566e-09,
    1.063698e-09, 1.0758702e-09, 1.0885183e-09, 1.1016947e-09,
    1.1154611e-09, 1.1298902e-09, 1.1450696e-09, 1.1611052e-09,
    1.1781276e-09, 1.1962995e-09, 1.2158287e-09, 1.2369856e-09,
    1.2601323e-09, 1.2857697e-09, 1.3146202e-09, 1.347784e-09,
    1.3870636e-09, 1.4357403e-09, 1.5008659e-09, 1.6030948e-09,
))
_FN = tuple(_f32(f) for f in (
    1, 0.9635997, 0.9362827, 0.9130436, 0.89228165, 0.87324303,
    0.8555006, 0.8387836, 0.8229072, 0.8077383, 0.793177,
    0.7791461, 0.7655842, 0.7524416, 0.73967725, 0.7272569,
    0.7151515, 0.7033361, 0.69178915, 0.68049186, 0.6694277,
    0.658582, 0.6479418, 0.63749546, 0.6272325, 0.6171434,
    0.6072195, 0.5974532, 0.58783704, 0.5783647, 0.56903,
    0.5598274, 0.5507518, 0.54179835, 0.5329627, 0.52424055,
    0.5156282, 0.50712204, 0.49871865, 0.49041483, 0.48220766,
    0.4740943, 0.46607214, 0.4581387, 0.45029163, 0.44252872,
    0.43484783, 0.427247, 0.41972435, 0.41227803, 0.40490642,
    0.39760786, 0.3903808, 0.3832238, 0.37613547, 0.36911446,
    0.3621595, 0.35526937, 0.34844297, 0.34167916, 0.33497685,
    0.3283351, 0.3217529, 0.3152294, 0.30876362, 0.30235484,
    0.29600215, 0.28970486, 0.2834622, 0.2772735, 0.27113807,
    0.2650553, 0.25902456, 0.2530453, 0.24711695, 0.241239,
    0.23541094, 0.22963232, 0.2239027, 0.21822165, 0.21258877,
    0.20700371, 0.20146611, 0.19597565, 0.19053204, 0.18513499,
    0.17978427, 0.17447963, 0.1692209, 0.16400786, 0.15884037,
    0.15371831, 0.14864157, 0.14361008, 0.13862377, 0.13368265,
    0.12878671, 0.12393598, 0.119130544, 0.11437051, 0.10965602,
    0.104987256, 0.10036444, 0.095787846, 0.0912578, 0.08677467,
    0.0823389, 0.077950984, 0.073611505, 0.06932112, 0.06508058,
    0.06089077, 0.056752663, 0.0526674, 0.048636295, 0.044660863,
    0.040742867, 0.03688439, 0.033087887, 0.029356318,
    0.025693292, 0.022103304, 0.018592102, 0.015167298,
    0.011839478, 0.008624485, 0.005548995, 0.0026696292,
))


def _uint64n(r, n):
    """Go's Rand.uint64n: a number in [0, n) by Lemire's method, 0 < n < 2**64."""
    if n & (n - 1) == 0:
        return r.uint64() & (n - 1)
    p = r.uint64() * n
    hi, lo = p >> 64, p & _M64
    if lo < n:
        thresh = ((1 << 64) - n) % n  # Go's -n % n on uint64s
        while lo < thresh:
            p = r.uint64() * n
            hi, lo = p >> 64, p & _M64
    return hi


def _norm_float64(r):
    """Go's Rand.NormFloat64: the ziggurat of Marsaglia and Tsang."""
    while True:
        u = r.uint64()
        j = u & _M32
        if j >> 31:
            j -= 1 << 32  # int32(u)
        i = (u >> 32) & 0x7F
        x = j * _WN[i]
        if abs(j) < _KN[i]:
            return x
        if i == 0:
            while True:
                x = -_go_log(r.float64()) * (1.0 / _RN)
                y = -_go_log(r.float64())
                if y + y >= x * x:
                    break
            return _RN + x if j > 0 else -_RN - x
        # float32 arithmetic, as Go's: each step rounded to a float32.
        lhs = _f32(_FN[i] + _f32(_f32(r.float64()) * _f32(_FN[i - 1] - _FN[i])))
        if lhs < _f32(_go_exp(-.5 * x * x)):
            return x


def _type_name(x):
    """x's type as the cell language names it."""
    if isinstance(x, bool):
        return "bool"
    if isinstance(x, str):
        return "string"
    if x is None:
        return "NoneType"
    return type(x).__name__


def _is_indexable(x):
    """Whether x is a sequence of the cell language: a list, tuple, string
    or range (not a dict or set)."""
    return (not isinstance(x, (dict, set, frozenset)) and hasattr(x, "__len__")
            and hasattr(x, "__getitem__"))


def _unpack_one(x, kind):
    """x as a parameter of kind, or what the cell language says is wrong."""
    if kind in ("int", "int64"):
        if not isinstance(x, int) or isinstance(x, bool):
            return None, "got %s, want int" % _type_name(x)
        if not -(1 << 63) <= x < (1 << 63):
            return None, "%d out of range (want value in signed 64-bit range)" % x
    elif kind == "float":
        if not isinstance(x, float):
            return None, "got %s, want float" % _type_name(x)
    elif kind == "list":
        if not isinstance(x, list):
            return None, "got %s, want list" % _type_name(x)
    elif kind == "indexable":
        if not _is_indexable(x):
            return None, "got %s, want starlark.Indexable" % _type_name(x)
    return x, None


def _unpack(fn, args, kwargs, params):
    """The arguments of a built-in as Starlark's UnpackArgs takes them:
    params are (name, kind, default), a parameter without a default
    required; returns their values in order."""
    if len(args) > len(params):
        raise TypeError("%s: got %d arguments, want at most %d" % (fn, len(args), len(params)))
    vals, got = [p[2] if len(p) > 2 else None for p in params], [False] * len(params)
    for i, a in enumerate(args):
        got[i] = True
        v, err = _unpack_one(a, params[i][1])
        if err:
            raise TypeError("%s: for parameter %s: %s" % (fn, params[i][0], err))
        vals[i] = v
    names = [p[0] for p in params]
    for k, a in kwargs.items():
        if k not in names:
            raise TypeError("%s: unexpected keyword argument %s" % (fn, k))
        i = names.index(k)
        if got[i]:
            raise TypeError("%s: got multiple values for keyword argument %s" % (fn, k))
        got[i] = True
        v, err = _unpack_one(a, params[i][1])
        if err:
            raise TypeError('%s: for parameter "%s": %s' % (fn, k, err))
        vals[i] = v
    for i, p in enumerate(params):
        if len(p) > 2:
            break
        if not got[i]:
            raise TypeError("%s: missing argument for %s" % (fn, p[0]))
    return vals


def _unpack_positional(fn, args, kwargs, kinds):
    """Positional arguments, all required, as UnpackPositionalArgs takes them."""
    if kwargs:
        raise TypeError("%s: unexpected keyword arguments" % fn)
    if len(args) != len(kinds):
        raise TypeError("%s: got %d arguments, want %d" % (fn, len(args), len(kinds)))
    out = []
    for i, (a, kind) in enumerate(zip(args, kinds)):
        v, err = _unpack_one(a, kind)
        if err:
            raise TypeError("%s: for parameter %d: %s" % (fn, i + 1, err))
        out.append(v)
    return out


def _cell_number(x):
    """A number as the page takes it: an int, a float or a Value, not a
    bool; None otherwise."""
    if isinstance(x, Value):
        return x.value
    if isinstance(x, (int, float)) and not isinstance(x, bool):
        return float(x)
    return None


class _RandomModule:
    """The cell language's random module: Python's names, the page's numbers
    (Go's math/rand/v2 over a PCG, not CPython's Mersenne Twister). Every
    notebook starts it at seed 0, as every run in the page does."""

    def __init__(self):
        self._rng = None

    def __repr__(self):
        return "<module random: seed, random, uniform, gauss, randint, choice, choices, shuffle>"

    def _r(self):
        if self._rng is None:
            self._rng = _PCG(0, 0x9e3779b97f4a7c15)
        return self._rng

    def seed(self, *args, **kwargs):
        """seed(n): starts the generator again from n."""
        n, = _unpack_positional("random.seed", args, kwargs, ["int64"])
        s = n & _M64
        self._rng = _PCG(s, s ^ 0x9e3779b97f4a7c15)

    def random(self, *args, **kwargs):
        """random(): a number in [0, 1)."""
        _unpack_positional("random.random", args, kwargs, [])
        return self._r().float64()

    def uniform(self, *args, **kwargs):
        """uniform(a, b): a number between a and b."""
        lo, hi = _unpack("random.uniform", args, kwargs, [("a", "value"), ("b", "value")])
        a, b = _cell_number(lo), _cell_number(hi)
        if a is None or b is None:
            raise TypeError("random.uniform: a and b must be numbers")
        return a + (b - a) * self._r().float64()

    def gauss(self, *args, **kwargs):
        """gauss(mu=0, sigma=1): a number from the normal distribution."""
        mu, sigma = _unpack("random.gauss", args, kwargs, [("mu", "value", 0.0), ("sigma", "value", 1.0)])
        mu, sigma = _cell_number(mu), _cell_number(sigma)
        if mu is None or sigma is None or math.isnan(mu) or math.isnan(sigma):
            raise TypeError("random.gauss: mu and sigma must be numbers")
        return mu + sigma * _norm_float64(self._r())

    def randint(self, *args, **kwargs):
        """randint(a, b): a whole number from a to b, both included."""
        lo, hi = _unpack("random.randint", args, kwargs, [("a", "int64"), ("b", "int64")])
        if hi < lo:
            raise ValueError("random.randint: b (%d) is below a (%d)" % (hi, lo))
        n = _i64(hi - lo + 1)  # Go's int64 arithmetic
        if n <= 0:
            raise ValueError("random.randint: invalid argument to Int64N")  # Go panics
        return _i64(lo + _uint64n(self._r(), n))

    def choice(self, *args, **kwargs):
        """choice(seq): one item of seq."""
        seq, = _unpack_positional("random.choice", args, kwargs, ["indexable"])
        if len(seq) == 0:
            raise IndexError("random.choice: the sequence is empty")
        return seq[_uint64n(self._r(), len(seq))]

    def choices(self, *args, **kwargs):
        """choices(population, weights=None, k=1): k items of population,
        drawn with replacement, each with the chance its weight gives (all
        alike without weights), as Python draws them: a uniform number
        against the running sum of the weights."""
        pop, weights, k = _unpack("random.choices", args, kwargs,
                                  [("population", "indexable"), ("weights", "value", None), ("k", "int", 1)])
        n = len(pop)
        if n == 0:
            raise IndexError("random.choices: the population is empty")
        if k < 0 or k > 1000000:
            raise ValueError("random.choices: k must be from 0 to 1,000,000, got %d" % k)
        r = self._r()
        if weights is None:
            return [pop[_uint64n(r, n)] for _ in range(k)]
        if not _is_indexable(weights) or len(weights) != n:
            raise ValueError("random.choices: weights must be a list of %d numbers, one per item of the population" % n)
        cum = []
        largest = 0.0
        for i in range(n):
            w = _cell_number(weights[i])
            if w is None or w < 0 or math.isnan(w) or math.isinf(w):
                raise ValueError("random.choices: weight %d is %s; weights are numbers, at least 0" % (i, _short(weights[i])))
            cum.append(w)
            largest = builtins.max(largest, w)
        # Weights whose sum overflows ([1e308, 1e308]) are summed scaled by
        # a power of 2, exactly, so that the draw stays fair.
        scale = 1.0
        total = 0.0
        for w in cum:
            total += w
        if total == math.inf:
            scale = math.ldexp(1, -math.frexp(largest)[1])
        total = 0.0
        for i in range(n):
            total += cum[i] * scale
            cum[i] = total
        if total <= 0:
            raise ValueError("random.choices: the weights add up to 0")
        out = []
        for _ in range(k):
            x = r.float64() * total
            j = bisect.bisect_left(cum, x)  # Go's sort.SearchFloat64s
            while j < n - 1 and cum[j] <= x:  # bisect_right: skip items of weight 0
                j += 1
            out.append(pop[j])
        return out

    def shuffle(self, *args, **kwargs):
        """shuffle(xs): puts the items of the list xs in a random order, in
        place."""
        xs, = _unpack_positional("random.shuffle", args, kwargs, ["list"])
        r = self._r()
        for i in range(len(xs) - 1, 0, -1):
            j = _uint64n(r, i + 1)
            xs[i], xs[j] = xs[j], xs[i]


random = _RandomModule()


def moons(*args, **kwargs):
    """moons(n, noise=0.1, seed=0): n points on two interleaving half
    circles, the first half labelled -1 and the rest +1, with Gaussian noise
    on each coordinate: (X, y), the page's points."""
    n, noise, seed = _unpack("moons", args, kwargs, [("n", "int"), ("noise", "float", 0.1), ("seed", "int", 0)])
    if n < 2 or n > _MAX_DATA_POINTS:
        raise ValueError("moons: n must be between 2 and %d, got %d" % (_MAX_DATA_POINTS, n))
    if noise < 0 or math.isnan(noise) or math.isinf(noise):
        raise ValueError("moons: noise must be a finite number, 0 or more")
    outer, inner = n - n // 2, n // 2

    def step(i, m):
        return 0.0 if m == 1 else math.pi * float(i) / float(m - 1)
    X, y = [], []
    for i in range(outer):
        s, c = _go_sincos(step(i, outer))
        X.append([c, s])
        y.append(-1)
    for i in range(inner):
        s, c = _go_sincos(step(i, inner))
        X.append([1 - c, 0.5 - s])
        y.append(1)
    r = _PCG(seed & _M64, 0x6d6f6f6e73)  # "moons"
    for p in X:
        p[0] += noise * _norm_float64(r)
        p[1] += noise * _norm_float64(r)
    return X, y


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


def _shape(x):
    """The shape of a traced function's argument: which tape it replays."""
    if isinstance(x, (list, tuple)):
        return "[" + ",".join(_shape(i) for i in x) + "]"
    return "v"


def _leaves_of(x, out):
    if isinstance(x, (list, tuple)):
        for i in x:
            _leaves_of(i, out)
    else:
        out.append(x)
    return out


def _as_values(x):
    """An argument for the recording: numbers become Values (inputs without
    gradients), lists stay lists."""
    if isinstance(x, (list, tuple)):
        return [_as_values(i) for i in x]
    return x if isinstance(x, Value) else Value(_num(x))


class _Tape:
    """One recorded graph of a traced function: its Values in the order
    they were made, each an op on earlier slots, a leaf read from an input
    or a Value made before, or a constant."""

    def __init__(self, f, args):
        start = _made
        rec = [_as_values(a) for a in args]
        out = f(*rec)
        self.list = isinstance(out, (list, tuple))
        outs = [Value._of(o) for o in (out if self.list else [out])]
        if builtins.any(o is None for o in outs):
            raise TypeError("trace: the function must return a Value or a list of them")
        nodes = sorted({id(n): n for o in outs for n in _reachable(o)}.values(), key=lambda v: v._n)
        slot = {id(n): i for i, n in enumerate(nodes)}
        self.vals = [n.value for n in nodes]
        self.ops = [(i, n.op, slot[id(n._in[0])], slot[id(n._in[1])] if len(n._in) > 1 else -1, n._k)
                    for i, n in enumerate(nodes) if n._in]
        self.outs = [slot[id(o)] for o in outs]
        # Each argument's leaves, flattened, and their slots (-1: unused).
        self.inputs = [[slot.get(id(v), -1) for v in _leaves_of(a, [])] for a in rec]
        self.lists = [isinstance(a, list) for a in rec]
        given = {id(v) for a in rec for v in _leaves_of(a, [])}
        # Values f read without being given them, made before the call.
        self.captured = [(n, slot[id(n)]) for n in nodes
                         if not n._in and id(n) not in given and n._n <= start]
        self.grads = None

    def replay(self, args, backward):
        vals = self.vals
        for a, slots in zip(args, self.inputs):
            for v, i in zip(_leaves_of(a, []), slots):
                if i >= 0:
                    vals[i] = _num(v)
        for v, i in self.captured:
            vals[i] = v.value
        ops = _OPS
        for i, op, a, b, k in self.ops:
            vals[i] = ops[op][0](vals[a], vals[b] if b >= 0 else 0.0, k)
        if not backward:
            return
        g = [0.0] * len(vals)
        g[self.outs[0]] = 1.0
        for i, op, a, b, k in reversed(self.ops):
            up = g[i]
            da, db = ops[op][1](vals[a], vals[b] if b >= 0 else 0.0, k, vals[i])
            g[a] += up * da
            if b >= 0:
                g[b] += up * db
        self.grads = g
        for a, slots in zip(args, self.inputs):
            for v, i in zip(_leaves_of(a, []), slots):
                if isinstance(v, Value):
                    v.grad = g[i] if i >= 0 else 0.0
        for v, i in self.captured:
            v.grad = g[i]


class _Traced:
    """What trace(f, *inputs) returns: f's graph recorded once as a tape
    (one per shape of the inputs), replayed forward and backward by each
    call with new numbers, without running f again, as the page's trace
    does. Like the page's, it assumes the graph does not depend on the
    numbers. .nodes is the size of the last call's tape, .tapes how many
    there are, .sizes their sizes, .grads the last call's gradients, one
    item per argument."""

    def __init__(self, f, inputs):
        self.f = f
        self._tapes = {}
        self._last = None
        self._graded = False
        self._record(inputs)

    def _record(self, args):
        t = _Tape(self.f, args)
        self._tapes[_shape(list(args))] = t
        self._last = t
        return t

    def __call__(self, *args):
        t = self._tapes.get(_shape(list(args)))
        if t is None:
            t = self._record(args)
        self._last = t
        self._graded = not t.list
        t.replay(args, self._graded)
        if t.list:
            return [t.vals[i] for i in t.outs]
        return t.vals[t.outs[0]]

    @property
    def nodes(self):
        return len(self._last.vals) if self._last else 0

    @property
    def tapes(self):
        return len(self._tapes)

    @property
    def sizes(self):
        return [len(t.vals) for t in self._tapes.values()]

    @property
    def grads(self):
        if not self._graded:
            raise ValueError("grads: no gradients yet: call the traced function first (a function that returns a list has none)")
        t = self._last
        out = []
        for slots, is_list in zip(t.inputs, t.lists):
            gs = [t.grads[i] if i >= 0 else 0.0 for i in slots]
            out.append(gs if is_list else gs[0])
        return out


def trace(f, *inputs):
    """Records the graph f builds from inputs (Values, numbers or lists of
    them) as a tape, and returns a function that replays it with new
    numbers: it returns f's number and sets the inputs' .grad, as the
    page's trace does."""
    if not inputs:
        raise TypeError("trace: call it as trace(f, inputs...), with f a function and each input a Value, a number or a list of them")
    return _Traced(f, inputs)


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


# torch's random tensors are the page's: package tensor's Generator, not
# PyTorch's, so that a lesson's seeded numbers (its initial losses, its
# samples) are the ones it states. The names below stand in for PyTorch's
# in this notebook's torch and F; everything else is PyTorch's own. For
# PyTorch's generator, `import torch` again.


class _TorchGenerator:
    """The page's generator of random tensors: Go's PCG (as _PCG) seeded with
    (seed, "gradb"); uniforms from an output's top 53 bits; normals by
    Marsaglia's polar method, in pairs; integers by Lemire's method."""

    def __init__(self, seed):
        self._pcg = _PCG(seed & _M64, 0x6772616462)
        self._spare = None

    def uniform(self):
        return (self._pcg.uint64() >> 11) * 2.0 ** -53

    def below(self, n):
        x = self._pcg.uint64() * n
        if x & _M64 < n:
            floor = ((1 << 64) - n) % n
            while x & _M64 < floor:
                x = self._pcg.uint64() * n
        return x >> 64

    def normal(self):
        if self._spare is not None:
            x, self._spare = self._spare, None
            return x
        while True:
            u = 2 * self.uniform() - 1
            v = 2 * self.uniform() - 1
            s = u * u + v * v
            if s >= 1 or s == 0:
                continue
            f = math.sqrt(-2 * _go_log(s) / s)
            self._spare = v * f
            return u * f

    def choice(self, w):
        """An index drawn with probability proportional to the weights w."""
        total = largest = 0.0
        for i, x in enumerate(w):
            if not (x >= 0) or math.isinf(x):
                raise ValueError("multinomial: weight %d is %s; weights must be finite and not negative" % (i, _number(x)))
            total += x
            largest = builtins.max(largest, x)
        if not (total > 0):
            raise ValueError("multinomial: the weights add up to 0: nothing can be drawn")
        scale = 1.0
        if math.isinf(total):  # drawn from weights scaled by a power of 2
            scale = math.ldexp(1, -math.frexp(largest)[1])
            total = 0.0
            for x in w:
                total += x * scale
        u = self.uniform() * total
        for i, x in enumerate(w):
            if u < x * scale:
                return i
            u -= x * scale
        return builtins.max(i for i, x in enumerate(w) if x > 0)


_trng = None


def _generator():
    global _trng
    if _trng is None:  # seeded with 0 until torch.manual_seed, as in the page
        _trng = _TorchGenerator(0)
    return _trng


def _torch_shape(name, shape):
    if len(shape) == 1 and isinstance(shape[0], (tuple, list, torch.Size)):
        shape = tuple(shape[0])
    if not builtins.all(isinstance(d, int) and d >= 0 for d in shape):
        raise ValueError("%s: want a shape of whole numbers of at least 0, got %r" % (name, shape))
    return tuple(shape)


def _drawn(shape, next, dtype=None, requires_grad=False):
    n = 1
    for d in shape:
        n *= d
    t = torch.tensor([next() for _ in range(n)], dtype=dtype or torch.float64).reshape(shape)
    return t.requires_grad_() if requires_grad else t


def _manual_seed(seed):
    """torch.manual_seed(n): starts the page's generator again from n."""
    global _trng
    _trng = _TorchGenerator(int(seed))
    return _trng


def _randn(*shape, requires_grad=False):
    """torch.randn(*shape): standard normals from the page's generator."""
    return _drawn(_torch_shape("torch.randn", shape), _generator().normal, requires_grad=requires_grad)


def _rand(*shape, requires_grad=False):
    """torch.rand(*shape): uniforms on [0, 1) from the page's generator."""
    return _drawn(_torch_shape("torch.rand", shape), _generator().uniform, requires_grad=requires_grad)


def _randint(*args, size=None, **kwargs):
    """torch.randint(low, high, size), or (high, size): integers drawn
    uniformly from low, …, high − 1, as long integers (to index with)."""
    if size is not None:
        args += (size,)
    if len(args) == 2:
        args = (0,) + args
    if len(args) != 3 or kwargs:
        raise TypeError("torch.randint: call it as torch.randint(low, high, size)")
    low, high, size = args
    if high <= low:
        raise ValueError("randint: high (%d) must be more than low (%d)" % (high, low))
    g = _generator()
    return _drawn(_torch_shape("torch.randint", (size,)), lambda: low + g.below(high - low), dtype=torch.long)


def _multinomial(input, num_samples=1, replacement=True):
    """torch.multinomial(probs, num_samples=1): an index per row drawn with
    the row's weights. As in the page, with replacement unless told (one
    sample, as sampling a token draws, is the same either way)."""
    if not 1 <= num_samples <= 1 << 16:
        raise ValueError("torch.multinomial: num_samples must be from 1 to 65,536, got %d" % num_samples)
    if input.dim() not in (1, 2):
        raise ValueError("torch.multinomial: want a row of probabilities, or rows of them, got shape %s" % (tuple(input.shape),))
    rows = input.detach().reshape(-1, input.shape[-1]).tolist()
    g, out = _generator(), []
    for r, w in enumerate(rows):
        for k in range(num_samples):
            try:
                i = g.choice(w)
            except ValueError:
                if k == 0:
                    raise
                raise ValueError("torch.multinomial: row %d has only %d categories to draw without replacement" % (r, k))
            out.append(i)
            if not replacement:
                w[i] = 0.0
    shape = (num_samples,) if input.dim() == 1 else (len(rows), num_samples)
    return torch.tensor(out, dtype=torch.long).reshape(shape)


def _dropout(input, p=0.5, training=False, inplace=False):
    """F.dropout(x, p, training=False): as in the page, the input as it is
    unless training=True (PyTorch's own trains by default), and then each
    element zeroed with probability p and the rest scaled by 1 / (1 − p),
    the mask drawn from the page's generator."""
    if not (0 <= p <= 1):
        raise ValueError("F.dropout: p is the probability of zeroing an element, from 0 to 1, got %r" % (p,))
    if not training:
        return input
    g, keep = _generator(), (1 / (1 - p) if p < 1 else 0.0)
    mask = _drawn(tuple(input.shape), lambda: keep if g.uniform() >= p else 0.0, dtype=input.dtype)
    return input * mask


def _one_hot(tensor, num_classes=-1):
    """F.one_hot(t, n): as in the page, a float64 tensor (PyTorch's own gives
    integers, which a product with float64 gradients refuses)."""
    return F._real.one_hot(tensor.long(), num_classes).to(torch.float64)


class _Module(type(os)):
    """A module that is another, but for a few names of its own."""

    def __init__(self, real, own):
        super().__init__(real.__name__, real.__doc__)
        self.__dict__.update(own)
        self._real = real

    def __getattr__(self, name):
        return getattr(self._real, name)

    def __dir__(self):
        return sorted(set(dir(self._real)) | set(self.__dict__))


if torch is not None:
    torch = _Module(torch, {"manual_seed": _manual_seed, "randn": _randn, "rand": _rand, "randint": _randint, "multinomial": _multinomial})
    F = _Module(F, {"dropout": _dropout, "one_hot": _one_hot})


def names():
    """The 32,033 first names of makemore's names.txt, lower case: the file
    data/names.txt beside the notebook, as the export writes it."""
    with open(os.path.join("data", "names.txt"), encoding="utf-8") as f:
        return [line.strip() for line in f if line.strip()]


def shakespeare():
    """Tiny Shakespeare, 1,115,394 characters of the plays, as one string:
    the file data/tinyshakespeare.txt beside the notebook, as the export
    writes it."""
    with open(os.path.join("data", "tinyshakespeare.txt"), encoding="utf-8", newline="") as f:
        return f.read()


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


_exercise_before = None


def _gradbook_exercise():
    """Runs before an exercise's code: notes the notebook's names and where
    its random numbers stand, so that what the exercise defines or draws
    stays in it, as in the page (_gradbook_exercise_done puts them back)."""
    global _exercise_before
    _exercise_before = (dict(globals()), copy.deepcopy(_trng), copy.deepcopy(random._rng))


def _gradbook_exercise_done():
    """Runs after an exercise's tests: the names the exercise defined are
    gone, those it changed are back, and the random numbers go on from
    where they stood before it, as the lesson's next cell finds them in
    the page."""
    global _exercise_before, _trng
    if _exercise_before is None:
        return
    names, _trng, random._rng = _exercise_before
    _exercise_before = None
    g = globals()
    for k in list(g):
        if k not in names and (not k.startswith("_") or re.fullmatch(r"_test_\d+", k)):
            del g[k]
    for k, v in names.items():
        if k not in g or (not k.startswith("_") and g[k] is not v):
            g[k] = v


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


def _gradbook_layer(cases, env):
    """The layer exercise's checker: the learner's layer(neurons, x) on
    hidden layers, every output and, by a backward pass from their sum,
    the gradient of every weight, bias and Value input checked."""
    mine = env.get("layer")
    if not callable(mine):
        raise AssertionError("Define a function layer(neurons, x) in your code.")
    for name, neurons, x, x_values in cases:
        def fail(why):
            print("✗ %s" % name)
            raise AssertionError("On %s, %s" % (name, why))
        ns = [[Value(w) for w in n] for n in neurons]
        xs = [Value(v) for v in x] if x_values else list(x)
        try:
            out = mine(ns, xs)
        except Exception as e:
            fail("layer stopped with an error: %s" % e)
        if not isinstance(out, (list, tuple)):
            fail("layer returned %s: return a list, one output per neuron." % type(out).__name__)
        if len(out) != len(neurons):
            count = lambda n, what: "%d %s%s" % (n, what, "" if n == 1 else "s")
            fail("layer returned %s for %s: return one output per neuron." % (count(len(out), "output"), count(len(neurons), "neuron")))
        ts = []
        for j, (n, o) in enumerate(zip(neurons, out)):
            if not isinstance(o, Value):
                fail("output %d is %s, not a Value: build it from the Values with + * and .tanh() (math.tanh and .value give plain numbers, and no gradient can flow back through a number)." % (j, type(o).__name__))
            if not o._in:
                fail("output %d is a new Value made from a plain number, so its graph does not reach the weights and no gradient can flow back. Build it from the Values with + * and .tanh(), not from .value or math.tanh." % j)
            s = n[-1]
            for i, v in enumerate(x):
                s += n[i] * v
            ts.append(math.tanh(s))
            if abs(o.value - ts[j]) > 1e-9:
                fail("neuron %d gives %.6g; want tanh(w·x + b) = %.6g." % (j, o.value, ts[j]))
        total = out[0]
        for o in out[1:]:
            total = total + o
        total.backward()
        for j, n in enumerate(neurons):
            d = 1 - ts[j] * ts[j]
            for i in range(len(n)):
                want, what = (d * x[i], "neuron %d's weight %d" % (j, i)) if i < len(n) - 1 else (d, "neuron %d's bias" % j)
                if abs(ns[j][i].grad - want) > 1e-9:
                    fail("the gradient of %s is %.6g; want %.6g. Each output must be tanh of the whole sum w·x + b, built from these very Values." % (what, ns[j][i].grad, want))
        if x_values:
            for i, v in enumerate(xs):
                want = builtins.sum((1 - ts[j] * ts[j]) * n[i] for j, n in enumerate(neurons))
                if abs(v.grad - want) > 1e-9:
                    fail("the gradient of input %d is %.6g; want %.6g: it collects a share from every neuron." % (i, v.grad, want))
        print("✓ %s" % name)


def _gradbook_checker(name, env, cases=None):
    if name == "backward":
        return _gradbook_backward(cases, env)
    if name == "layer":
        return _gradbook_layer(cases, env)
    print("This exercise is checked in the page by Gradbook's %s checker, which has no Python form yet: the tests below are the rest." % name)
