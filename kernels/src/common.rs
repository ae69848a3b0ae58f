//! DSL building blocks shared by the library kernels: chunking work over program instances,
//! tiled copies and reductions over peers.

use weft_compiler::dsl::shmem::*;
use weft_compiler::dsl::*;
use weft_compiler::ir::{Elem, Scalar};

/// The constexprs every collective takes: element type `T` and tile width `BLOCK`.
pub struct Config {
    /// Element type.
    pub t: Scalar,
    /// Tile width in elements.
    pub block: i64,
}

impl Config {
    /// Reads `T` and `BLOCK` from `c`.
    #[track_caller]
    pub fn from(c: &Constexprs) -> Result<Config, DslError> {
        let t = c.dtype("T", &[Scalar::F32, Scalar::F16, Scalar::BF16, Scalar::I32, Scalar::F8E4M3FN, Scalar::F8E5M2])?;
        let block = c.pow2("BLOCK", 16, 1 << 14)?;
        Ok(Config { t, block })
    }

    /// The type partial sums are kept in: f32 for floats, i32 for integers.
    pub fn acc(&self) -> Scalar {
        if self.t == Scalar::I32 { Scalar::I32 } else { Scalar::F32 }
    }
}

/// This program's share `[start, end)` of `n` items split over the grid's axis 0 (i64 values).
pub fn my_chunk(n: Val) -> (Val, Val) {
    let pid = program_id(0).to(Scalar::I64);
    let nprog = num_programs(0).to(Scalar::I64);
    let per = cdiv(n, nprog);
    let start = minimum(pid * per, n);
    let end = minimum(start + per, n);
    (start, end)
}

/// Runs `body(offsets, mask)` over `[start, end)` in `block`-wide tiles.
pub fn for_tiles(start: Val, end: Val, block: i64, mut body: impl FnMut(Val, Val)) {
    for_range(start, end, block, |i| {
        let offs = i + arange(0, block as i32);
        let mask = offs.lt(end);
        body(offs, mask);
    });
}

/// `dst[i] = src[i]` (converted to `dst`'s type) for `i` in `[start, end)`.
pub fn copy_range(dst: Val, src: Val, start: Val, end: Val, block: i64) {
    let Elem::Ptr(t) = dst.elem() else { return };
    for_tiles(start, end, block, |offs, m| {
        let v = load_masked(src + offs, m, 0);
        store_masked(dst + offs, v.to(t), m);
    });
}

/// `dst[i] = src[i]` for `i` in `[0, n)`, both of one element type: whole `block`-wide tiles
/// with no mask, then the rest in tiles of at most 16, only the last one masked. On a CPU a
/// mask costs a compare per lane, and a row of 112 words in one 128-wide tile would also
/// carry a masked-off line.
pub fn copy_exact(dst: Val, src: Val, n: Val, block: i64) {
    let whole = |from: Val, to: Val, w: i64| {
        for_range(from, to, w, |i| {
            let o = i + arange(0, w as i32);
            store(dst + o, load(src + o));
        })
    };
    let narrow = block.min(16);
    let (wide_end, narrow_end) = (n / block * block, n / narrow * narrow);
    whole(constant(0, Scalar::I64, &[]), wide_end, block);
    whole(wide_end, narrow_end, narrow);
    if_(narrow_end.lt(n), || {
        let o = narrow_end + arange(0, narrow as i32);
        let m = o.lt(n);
        store_masked(dst + o, load_masked(src + o, m, 0), m);
    });
}

/// Elementwise sum over the ranks `[first, first + count)` of symmetric `ptrs`, in `acc`.
pub fn sum_over_peers(ptrs: Val, mask: Val, first: Val, count: Val, acc: Scalar) -> Val {
    let zero = zeros(&ptrs.shape(), acc);
    let out = for_range_carry(0, count, 1, &[zero], |q, carried| {
        let v = load_masked(remote_ptr(ptrs, first + q), mask, 0);
        vec![carried[0] + v.to(acc)]
    });
    out[0]
}

/// `(me + k) mod world`, for any `k` (possibly negative, |k| <= world).
pub fn peer(me: Val, k: impl Into<Operand>, world: Val) -> Val {
    (me + k + world) % world
}

/// Signal slot `(row * programs + pid)` of a signal array.
pub fn signal_slot(sig: Val, row: Val) -> Val {
    sig + (row * num_programs(0) + program_id(0)).to(Scalar::I64)
}

/// Pushes `[start, end)` of `buf` (the same offset on `pe`) and sets `sig` there to `epoch`.
pub fn push_chunk(buf: Val, start: Val, end: Val, sig: Val, epoch: Val, pe: Val) {
    put_signal(buf + start, buf + start, end - start, sig, epoch, pe, PutSignal::default());
}
