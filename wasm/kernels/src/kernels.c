// kernels.c holds Gradbook's matrix-product kernels: float64 products in
// WebAssembly's 128-bit SIMD (two f64 lanes), built to kernels.wasm by
// gen.go with Debian's clang 14 and wasm-ld (go generate ./wasm/kernels).
//
// The module has no memory of its own: it imports the Go program's
// (gradbook.wasm's exports.mem) and works on tensors' storage in place, at
// the byte addresses Go passes. It must never touch anything else there, so
// it has no data, no globals and no stack in memory: every variable is a
// WebAssembly local. gen.go refuses a build that uses the shadow stack
// (__stack_pointer), which is what an array local or a spilled address
// would need, or that has data, or grows memory.
//
// Every element of C is computed as the plain Go loop computes it
// (tensor's Product.Plain): C(i,j), then + A(i,0)·B(0,j), then
// + A(i,1)·B(1,j), and so on, each product and each sum rounded on its
// own (no fused multiply-add: -ffp-contract=off, and simd128 has none).
// The lanes of a vector are two such elements side by side, and blocking
// only changes which elements are computed when, never the order of one
// element's terms, so the kernels give the plain loop's numbers to the
// last bit, whatever the shapes.

typedef double v2 __attribute__((vector_size(16)));

static inline v2 load(const double *p) {
  v2 v;
  __builtin_memcpy(&v, p, sizeof v); // v128.load, aligned to 8 as Go's float64s are
  return v;
}
static inline void store(double *p, v2 v) { __builtin_memcpy(p, &v, sizeof v); }
static inline v2 splat(double x) { return (v2){x, x}; }

// The blocking: a kernel call packs KC rows by NC columns of B at a time
// into the scratch buffer (so that the tiles read B in order, whatever its
// strides, and no two of its rows compete for a line of the L1 cache), and
// goes over A and C in blocks of MC rows, which stay in the L2 cache. A
// tile is 4 rows by 4 columns of C: eight f64x2 accumulators, which
// WebAssembly engines keep in registers (more rows, or more columns,
// spill in V8 and run slower).
#define KC 256
#define MC 64
#define NC 256
// A is packed too when its rows are not contiguous (Aᵀ·dC, the gradient
// of the right-hand side) and an element is more than 1 KB from the next
// one along the sum: read in place, those would compete for a few lines
// of the cache; nearer, reading in place is faster than copying.
#define PACK_A_STRIDE 128

// scratch returns the number of float64s that gemm's scratch buffer
// holds: KC×NC of B and MC×KC of A.
__attribute__((export_name("scratch"))) int scratch(void) { return KC * NC + MC * KC; }

// A(r, p) of a tile's A: the tile's rows are sar apart, its terms sac.
#define A(r) a[(r) * sar + p * sac]

// tile4 adds A·B to R rows (1 or 4) by 4 columns of C, B packed 4 wide.
static inline __attribute__((always_inline)) void
tile4(const int R, int k, const double *a, int sar, int sac, const double *b, double *c, int ldc) {
  v2 c00 = load(c), c01 = load(c + 2), c10, c11, c20, c21, c30, c31;
  if (R == 4) {
    c10 = load(c + ldc), c11 = load(c + ldc + 2);
    c20 = load(c + 2 * ldc), c21 = load(c + 2 * ldc + 2);
    c30 = load(c + 3 * ldc), c31 = load(c + 3 * ldc + 2);
  }
  for (int p = 0; p < k; p++, b += 4) {
    v2 b0 = load(b), b1 = load(b + 2), x = splat(A(0));
    c00 += x * b0, c01 += x * b1;
    if (R == 4) {
      x = splat(A(1)), c10 += x * b0, c11 += x * b1;
      x = splat(A(2)), c20 += x * b0, c21 += x * b1;
      x = splat(A(3)), c30 += x * b0, c31 += x * b1;
    }
  }
  store(c, c00), store(c + 2, c01);
  if (R == 4) {
    store(c + ldc, c10), store(c + ldc + 2, c11);
    store(c + 2 * ldc, c20), store(c + 2 * ldc + 2, c21);
    store(c + 3 * ldc, c30), store(c + 3 * ldc + 2, c31);
  }
}

// tile2 is tile4 for the last 2 columns, B packed 2 wide.
static inline __attribute__((always_inline)) void
tile2(const int R, int k, const double *a, int sar, int sac, const double *b, double *c, int ldc) {
  v2 c0 = load(c), c1, c2, c3;
  if (R == 4) c1 = load(c + ldc), c2 = load(c + 2 * ldc), c3 = load(c + 3 * ldc);
  for (int p = 0; p < k; p++, b += 2) {
    v2 b0 = load(b);
    c0 += splat(A(0)) * b0;
    if (R == 4) c1 += splat(A(1)) * b0, c2 += splat(A(2)) * b0, c3 += splat(A(3)) * b0;
  }
  store(c, c0);
  if (R == 4) store(c + ldc, c1), store(c + 2 * ldc, c2), store(c + 3 * ldc, c3);
}

// tile1 is tile4 for the last column, in scalars.
static inline __attribute__((always_inline)) void
tile1(const int R, int k, const double *a, int sar, int sac, const double *b, double *c, int ldc) {
  double c0 = c[0], c1, c2, c3;
  if (R == 4) c1 = c[ldc], c2 = c[2 * ldc], c3 = c[3 * ldc];
  for (int p = 0; p < k; p++, b++) {
    c0 += A(0) * *b;
    if (R == 4) c1 += A(1) * *b, c2 += A(2) * *b, c3 += A(3) * *b;
  }
  c[0] = c0;
  if (R == 4) c[ldc] = c1, c[2 * ldc] = c2, c[3 * ldc] = c3;
}

// packB copies k rows by n columns of B, B(p, j) at b[p*sbr + j*sbc],
// into w: strips of 4 columns, then one of 2 and one of 1 for what is
// left, each strip k rows of its width in order.
static void packB(int k, int n, const double *b, int sbr, int sbc, double *w) {
  int j = 0;
  if (sbc == 1)
    for (; j + 4 <= n; j += 4)
      for (int p = 0; p < k; p++, w += 4) store(w, load(b + p * sbr + j)), store(w + 2, load(b + p * sbr + j + 2));
  for (; j + 4 <= n; j += 4)
    for (int p = 0; p < k; p++, w += 4) {
      const double *q = b + p * sbr + j * sbc;
      w[0] = q[0], w[1] = q[sbc], w[2] = q[2 * sbc], w[3] = q[3 * sbc];
    }
  for (; j + 2 <= n; j += 2)
    for (int p = 0; p < k; p++, w += 2) w[0] = b[p * sbr + j * sbc], w[1] = b[p * sbr + (j + 1) * sbc];
  for (; j < n; j++)
    for (int p = 0; p < k; p++) *w++ = b[p * sbr + j * sbc];
}

// packA copies m rows by k columns of A, A(i, p) at a[i*sar + p*sac],
// into w: panels of 4 rows, each k columns of 4 in order, then the last
// m mod 4 rows, k columns of them: the layout block reads with rows 1
// apart and terms 4 (or m mod 4) apart.
static void packA(int m, int k, const double *a, int sar, int sac, double *w) {
  int i = 0;
  for (; i + 4 <= m; i += 4)
    for (int p = 0; p < k; p++, w += 4) {
      const double *q = a + i * sar + p * sac;
      w[0] = q[0], w[1] = q[sar], w[2] = q[2 * sar], w[3] = q[3 * sar];
    }
  for (int p = 0; p < k; p++)
    for (int r = i; r < m; r++) *w++ = a[r * sar + p * sac];
}

// block adds A·B to m rows by n columns of C, for B packed by packB in
// bp. Row i of A starts at a + i*step; its terms are sac apart in a full
// tile of 4 rows (rows sar apart), and lsac apart in the last rows (lsar
// apart): A in place has step = sar = lsar and sac = lsac, A packed by
// packA step = k, sar = lsar = 1, sac = 4 and lsac = m mod 4.
static void block(int m, int n, int k, const double *a, int step, int sar, int sac, int lsar, int lsac,
                  const double *bp, double *c, int ldc) {
  int j = 0;
  for (; j + 4 <= n; j += 4, bp += 4 * k) {
    int i = 0;
    for (; i + 4 <= m; i += 4) tile4(4, k, a + i * step, sar, sac, bp, c + i * ldc + j, ldc);
    for (int r = 0; i < m; i++, r++) tile4(1, k, a + i * step - r * (step - lsar), lsar, lsac, bp, c + i * ldc + j, ldc);
  }
  if (j + 2 <= n) {
    int i = 0;
    for (; i + 4 <= m; i += 4) tile2(4, k, a + i * step, sar, sac, bp, c + i * ldc + j, ldc);
    for (int r = 0; i < m; i++, r++) tile2(1, k, a + i * step - r * (step - lsar), lsar, lsac, bp, c + i * ldc + j, ldc);
    j += 2, bp += 2 * k;
  }
  if (j < n) {
    int i = 0;
    for (; i + 4 <= m; i += 4) tile1(4, k, a + i * step, sar, sac, bp, c + i * ldc + j, ldc);
    for (int r = 0; i < m; i++, r++) tile1(1, k, a + i * step - r * (step - lsar), lsar, lsac, bp, c + i * ldc + j, ldc);
  }
}

// gemm adds A·B to C for each of batch products: A is m×k, B k×n and C
// m×n, and product t's elements are
//
//	A(i, p) = a[t*sab + i*sar + p*sac]
//	B(p, j) = b[t*sbb + p*sbr + j*sbc]
//	C(i, j) = c[t*scb + i*scr + j]
//
// (strides in float64s; a batch stride of 0 reuses one matrix, and for C
// adds every product into it, in turn). w is a scratch buffer of
// scratch() float64s that nothing else uses meanwhile.
__attribute__((export_name("gemm"))) void
gemm(int batch, int m, int n, int k, const double *a, int sab, int sar, int sac,
     const double *b, int sbb, int sbr, int sbc, double *c, int scb, int scr, double *w) {
  double *wa = w + KC * NC;
  int packA_ = sac != 1 && (sac >= PACK_A_STRIDE || sac <= -PACK_A_STRIDE);
  for (int t = 0; t < batch; t++, a += sab, b += sbb, c += scb)
    for (int jc = 0; jc < n; jc += NC) {
      int nc = n - jc < NC ? n - jc : NC;
      for (int pc = 0; pc < k; pc += KC) {
        int kc = k - pc < KC ? k - pc : KC;
        packB(kc, nc, b + pc * sbr + jc * sbc, sbr, sbc, w);
        for (int ic = 0; ic < m; ic += MC) {
          int mc = m - ic < MC ? m - ic : MC;
          const double *ai = a + ic * sar + pc * sac;
          double *ci = c + ic * scr + jc;
          if (packA_) {
            packA(mc, kc, ai, sar, sac, wa);
            block(mc, nc, kc, wa, kc, 1, 4, 1, mc % 4, w, ci, scr);
          } else {
            block(mc, nc, kc, ai, sar, sar, sac, sar, sac, w, ci, scr);
          }
        }
      }
    }
}
