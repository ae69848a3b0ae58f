//! Tile GEMM, `C[M, N] = A[M, K] · B[K, N]` (row-major, f32 accumulation), and the tile
//! loop it shares with the overlap kernels (AG-GEMM, GEMM-RS): one output tile is one
//! `BLOCK_M x BLOCK_N` accumulator over `BLOCK_K` steps, with masks on every ragged edge.

use weft_compiler::dsl::*;
use weft_compiler::ir::Scalar;

/// The constexprs of every GEMM-shaped kernel.
#[derive(Clone, Copy, Debug)]
pub struct GemmConfig {
    /// Element type of A, B and C.
    pub t: Scalar,
    /// Tile rows.
    pub bm: i64,
    /// Tile columns.
    pub bn: i64,
    /// Reduction step.
    pub bk: i64,
    /// Row tiles per group of the grouped program order.
    pub group_m: i64,
}

impl GemmConfig {
    /// Reads `T`, `BLOCK_M`, `BLOCK_N`, `BLOCK_K` and `GROUP_M` from `c`.
    #[track_caller]
    pub fn from(c: &Constexprs) -> Result<GemmConfig, DslError> {
        Ok(GemmConfig {
            t: c.dtype("T", &[Scalar::F32, Scalar::F16, Scalar::BF16])?,
            bm: c.pow2("BLOCK_M", 1, 256)?,
            bn: c.pow2("BLOCK_N", 1, 256)?,
            bk: c.pow2("BLOCK_K", 1, 256)?,
            group_m: c.int("GROUP_M", 1, 64)?,
        })
    }
}

/// A row-major matrix in the kernel: base pointer, rows, columns (i64) and row stride.
#[derive(Clone, Copy, Debug)]
pub struct Mat {
    /// Element pointer of `[0, 0]`.
    pub ptr: Val,
    /// Rows.
    pub rows: Val,
    /// Columns.
    pub cols: Val,
    /// Elements between consecutive rows.
    pub ld: Val,
}

impl Mat {
    /// A dense `rows x cols` matrix at `ptr`.
    pub fn dense(ptr: Val, rows: Val, cols: Val) -> Mat {
        Mat { ptr, rows, cols, ld: cols }
    }

    /// Pointers to `[rows[i], cols[j]]` and the in-bounds mask, for 1-D index tiles.
    pub fn tile(&self, rows: Val, cols: Val) -> (Val, Val) {
        let r = expand_dims(rows, 1);
        let c = expand_dims(cols, 0);
        let ptrs = self.ptr + (r * self.ld + c);
        let mask = r.lt(self.rows) & c.lt(self.cols);
        (ptrs, mask)
    }
}

/// Row and column indices of output tile `(pm, pn)`.
pub fn tile_indices(pm: Val, pn: Val, cfg: &GemmConfig) -> (Val, Val) {
    let rows = pm.to(Scalar::I64) * cfg.bm + arange(0, cfg.bm as i32).to(Scalar::I64);
    let cols = pn.to(Scalar::I64) * cfg.bn + arange(0, cfg.bn as i32).to(Scalar::I64);
    (rows, cols)
}

/// The f32 accumulator of `A[rows, :] · B[:, cols]` (rows index A, cols index B).
pub fn tile_product(a: &Mat, b: &Mat, rows: Val, cols: Val, cfg: &GemmConfig) -> Val {
    let acc = zeros(&[cfg.bm as usize, cfg.bn as usize], Scalar::F32);
    let out = for_range_carry(0i64, a.cols, cfg.bk, &[acc], |k0, acc| {
        let ks = k0 + arange(0, cfg.bk as i32).to(Scalar::I64);
        let (pa, ma) = a.tile(rows, ks);
        let (pb, mb) = b.tile(ks, cols);
        vec![dot(load_masked(pa, ma, 0), load_masked(pb, mb, 0), acc[0])]
    });
    out[0]
}

/// Stores `value` (converted to `c`'s element type) at `c[rows, cols]`, masked to `c`.
pub fn store_tile(c: &Mat, rows: Val, cols: Val, value: Val, t: Scalar) {
    let (p, m) = c.tile(rows, cols);
    store_masked(p, value.to(t), m);
}

/// Tile `t` of a `num_pm x num_pn` grid in grouped order: `group_m` row tiles share each
/// column sweep, so their B columns stay in cache.
pub fn grouped(t: Val, num_pm: Val, num_pn: Val, group_m: i64) -> (Val, Val) {
    let width = num_pn * group_m;
    let group = t / width;
    let first = group * group_m;
    let size = minimum(num_pm - first, group_m);
    let pm = first + (t % width) % size;
    let pn = (t % width) / size;
    (pm, pn)
}

/// `gemm`: args `a, b, c, m, n, k`. Programs loop over output tiles in grouped order.
pub fn gemm(c: &Constexprs) -> Result<weft_compiler::ir::Kernel, DslError> {
    let cfg = GemmConfig::from(c)?;
    kernel("gemm", c, |args| {
        let (a, b, out) = (args.ptr("a", cfg.t), args.ptr("b", cfg.t), args.ptr("c", cfg.t));
        let (m, n, k) = (args.i64("m"), args.i64("n"), args.i64("k"));
        let (am, bm, cm) = (Mat::dense(a, m, k), Mat::dense(b, k, n), Mat::dense(out, m, n));
        let (num_pm, num_pn) = (cdiv(m, cfg.bm), cdiv(n, cfg.bn));
        let pid = program_id(0).to(Scalar::I64);
        let progs = num_programs(0).to(Scalar::I64);
        for_range(pid, num_pm * num_pn, progs, |t| {
            let (pm, pn) = grouped(t, num_pm, num_pn, cfg.group_m);
            let (rows, cols) = tile_indices(pm, pn, &cfg);
            let acc = tile_product(&am, &bm, rows, cols, &cfg);
            store_tile(&cm, rows, cols, acc, cfg.t);
        });
        Ok(())
    })
}

/// The tuner's search space of `gemm` (tiles, grouped order; warps and K-loop stages on GPUs).
pub(crate) const TUNE_SPACE: &[crate::tune::Param] = &[
    crate::tune::Param::all("BLOCK_M", &["16", "32", "64", "128"]),
    crate::tune::Param::all("BLOCK_N", &["64", "128", "256"]),
    crate::tune::Param::all("BLOCK_K", &["32", "64"]),
    crate::tune::Param::all("GROUP_M", &["1", "8"]),
    crate::tune::Param::gpu("num_warps", &["4", "8"]),
    crate::tune::Param::gpu("num_stages", &["3", "4"]),
];
