//! The host side of `flash_decode`: the KV cache split over ranks by position (K stored
//! transposed per rank), random inputs,
//! launches with per-launch epochs, and a check against plain softmax attention in f64.

use crate::host::HostVec;
use crate::reference::segment;
use crate::registry::find;
use crate::KernelError;
use weft_compiler::dsl::Constexprs;
use weft_runtime::{Arg, DType, LaunchReport, Launchable, RawBuf, World};

/// A decoding step: one query token per sequence against a `seq`-position KV cache.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DecodeShape {
    /// Sequences.
    pub batch: usize,
    /// Query heads.
    pub heads: usize,
    /// KV heads (grouped-query attention when fewer than `heads`; must divide it).
    pub kv_heads: usize,
    /// Cached positions, all ranks together.
    pub seq: usize,
    /// Elements per head.
    pub head_dim: usize,
}

impl DecodeShape {
    /// Query heads per KV head.
    pub fn group(&self) -> usize {
        self.heads / self.kv_heads
    }
}

/// Tile constexprs fitted to `shape`: one tile row per query head of a group, the head
/// dimension padded to a power of two, fewer positions per step for wide heads (tiles are
/// straight-line code on the CPU, compile time grows with them). A GPU's `mma` takes at least 16 rows.
pub fn decode_constexprs(shape: DecodeShape, dtype: &str, gpu: bool) -> Constexprs {
    let rows = shape.group().max(1).next_power_of_two().max(if gpu { 16 } else { 1 });
    let bd = shape.head_dim.max(1).next_power_of_two();
    Constexprs::new().with("T", dtype).with("BLOCK_H", rows).with("BLOCK_D", bd).with("BLOCK_N", if bd > 64 { 32 } else { 64 })
}

/// `flash_decode` ready to launch repeatedly on fixed buffers.
pub struct PreparedDecode {
    world: World,
    /// The launches, in order (the baseline's three, or `flash_decode`).
    kernels: Vec<Launchable>,
    dtype: DType,
    shape: DecodeShape,
    /// `q, k, v, o, part, lse, sig`.
    bufs: Vec<RawBuf>,
    grid: [u32; 3],
    splits: usize,
    /// `BLOCK_N`: positions per step, the unit of K's layout.
    step: usize,
    epoch: i64,
    /// The query and the whole caches (`[batch, kv_heads, seq, head_dim]`), as written.
    q: Vec<f64>,
    k: Vec<f64>,
    v: Vec<f64>,
}

/// A rank's positions of a `seq`-position cache over `w` ranks, padded to whole `step`s: the
/// K and V buffers' length per block (as the kernel's `seg_max`).
fn padded_segment(seq: usize, w: usize, step: usize) -> usize {
    seq.div_ceil(w).div_ceil(step) * step
}

/// Allocates, compiles and seeds `flash_decode` on `world`. `PROGRAMS` in `c`, if set, is the
/// program instances per rank (the host's choice, not the kernel's).
pub fn prepare_decode(world: &World, name: &str, shape: DecodeShape, dtype: DType, c: &Constexprs) -> Result<PreparedDecode, KernelError> {
    let def = find(name)?;
    let unsupported = |what: String| KernelError::Unsupported { kernel: name.into(), what };
    if def.info.collective != crate::Collective::FlashDecode {
        return Err(unsupported("a decoding shape (give --elems or --m/--n/--k)".into()));
    }
    if !matches!(dtype, DType::F32 | DType::F16 | DType::BF16) {
        return Err(unsupported(format!("dtype {dtype} (use f32, f16 or bf16)")));
    }
    let DecodeShape { batch, heads, kv_heads, seq, head_dim } = shape;
    if [batch, heads, kv_heads, seq, head_dim].contains(&0) {
        return Err(unsupported(format!("an empty problem {shape:?}")));
    }
    if heads % kv_heads != 0 {
        return Err(unsupported(format!("{heads} query heads over {kv_heads} KV heads (the KV heads must divide the query heads)")));
    }
    let mut c = c.clone();
    c.set("T", dtype.name());
    let get = |c: &Constexprs, key: &str| c.get(key).and_then(|v| v.parse::<usize>().ok()).unwrap_or(0);
    if shape.group() > get(&c, "BLOCK_H") || head_dim > get(&c, "BLOCK_D") {
        let have = (get(&c, "BLOCK_H"), get(&c, "BLOCK_D"));
        return Err(unsupported(format!("BLOCK_H={} BLOCK_D={} for {} query heads per KV head of dimension {head_dim}", have.0, have.1, shape.group())));
    }
    let kernels = crate::gpu::launchables(world, name, &c)?;
    let w = world.n_ranks();
    let step = get(&c, "BLOCK_N").max(1);
    let seg_max = padded_segment(seq, w, step);
    let blocks = batch * kv_heads;
    // Enough split-K programs to fill the machine, but no split shorter than one step.
    let programs = world.gpu_sms().unwrap_or_else(|| std::thread::available_parallelism().map(|c| c.get()).unwrap_or(1).div_ceil(w)).max(1);
    let splits = programs.div_ceil(blocks).clamp(1, (seg_max / step).max(1));
    // A GPU runs a program per block at least; on the CPU, where every rank's programs share
    // the cores as coroutines, a rank gets its share of the cores only (1x8 on 2 cores: one
    // program a rank, not 8; `weft run`, seq 2048, 12.2-12.8 ms against 14.8-16.9, load 9-10).
    let programs = match get(&c, "PROGRAMS") {
        0 if world.gpu_sms().is_none() => programs,
        0 => programs.max(blocks),
        p => p,
    };
    let too_large = || KernelError::TooLarge { kernel: name.into(), elems: batch.saturating_mul(kv_heads).saturating_mul(seg_max).saturating_mul(head_dim) };
    let mul = |f: &[usize]| f.iter().try_fold(1usize, |a, &b| a.checked_mul(b)).ok_or_else(too_large);
    let es = dtype.size_bytes();
    // The baseline keeps two copies of the partials (`crate::flash_decode`).
    let copies = if def.algo == crate::registry::Algo::FlashDecodeV { 2 } else { 1 };
    let sizes = [
        mul(&[batch, heads, head_dim, es])?,
        mul(&[blocks, seg_max, head_dim, es])?,
        mul(&[blocks, seg_max, head_dim, es])?,
        mul(&[batch, heads, head_dim, es])?,
        mul(&[copies, w, splits, batch, heads, head_dim, 4])?,
        mul(&[copies, w, splits, batch, heads, 4])?,
        // A signal per partial, then one per output block (`crate::flash_decode`).
        mul(&[w * splits + 1, blocks, 8])?,
    ];
    let bufs = crate::run::alloc_all(world, &sizes)?;
    let grid = [(splits * blocks).min(programs) as u32, 1, 1];
    let mut p = PreparedDecode { world: world.clone(), kernels, dtype, shape, bufs, grid, splits, step, epoch: 0, q: vec![], k: vec![], v: vec![] };
    p.seed(0x5eed)?;
    Ok(p)
}

impl PreparedDecode {
    /// Writes a fresh random query and KV cache (seeded, the same in every process); each
    /// rank gets its positions of the cache.
    pub fn seed(&mut self, seed: u64) -> Result<(), KernelError> {
        let DecodeShape { batch, heads, kv_heads, seq, head_dim } = self.shape;
        let random = |len: usize, salt: u64| {
            HostVec::random(self.dtype, len, seed ^ salt.wrapping_mul(0x9e37_79b9)).map_err(|d| KernelError::Unsupported { kernel: self.kernels[0].name.clone(), what: format!("dtype {d}") })
        };
        let (q, k, v) = (random(batch * heads * head_dim, 1)?, random(batch * kv_heads * seq * head_dim, 2)?, random(batch * kv_heads * seq * head_dim, 3)?);
        let (k_all, v_all) = (k.to_f64(), v.to_f64());
        let w = self.world.n_ranks();
        let (step, seg_max) = (self.step, padded_segment(seq, w, self.step));
        for r in self.world.host_ranks() {
            q.write(&self.world, self.bufs[0], r, 0, self.dtype)?;
            let rows = segment(seq, w, r);
            for bh in 0..batch * kv_heads {
                let mine = |all: &[f64]| all[(bh * seq + rows.start) * head_dim..(bh * seq + rows.end) * head_dim].to_vec();
                // K goes in transposed a step at a time, `[steps, head_dim, step]` (see
                // `crate::flash_decode`).
                let (k_mine, v_mine) = (mine(&k_all), mine(&v_all));
                let mut k_t = vec![0.0; head_dim * seg_max];
                for (t, row) in k_mine.chunks(head_dim).enumerate() {
                    row.iter().enumerate().for_each(|(d, &x)| k_t[(t / step * head_dim + d) * step + t % step] = x);
                }
                HostVec::from_f64(self.dtype, &k_t).write(&self.world, self.bufs[1], r, bh * seg_max * head_dim, self.dtype)?;
                HostVec::from_f64(self.dtype, &v_mine).write(&self.world, self.bufs[2], r, bh * seg_max * head_dim, self.dtype)?;
            }
        }
        (self.q, self.k, self.v) = (q.to_f64(), k_all, v_all);
        Ok(())
    }

    /// The softmax scale, `1 / sqrt(head_dim)`.
    fn scale(&self) -> f64 {
        1.0 / (self.shape.head_dim as f64).sqrt()
    }

    /// Launches once (the baseline: all three steps); returns the runtime's report, the time
    /// and warnings of every step for a baseline.
    pub fn launch(&mut self) -> Result<LaunchReport, KernelError> {
        self.epoch += 1;
        let s = self.shape;
        let mut args: Vec<Arg> = self.bufs.iter().map(|&b| Arg::Buf(b)).collect();
        args.extend([s.batch, s.heads, s.kv_heads, s.seq, s.head_dim, self.splits].map(|x| Arg::I64(x as i64)));
        args.extend([Arg::F32(self.scale() as f32), Arg::I64(self.epoch)]);
        let steps = self.kernels.iter().map(|k| (k, args.as_slice()));
        crate::moe_host::launch_in_order_closing(&self.world, self.grid, steps, |k| crate::flash_decode::closes_itself(&k.name))
    }

    /// Plain softmax attention in f64: per output element, the value and the bound on its
    /// error (the output's rounding to the dtype, the probabilities' rounding to it before
    /// the `P · V` product, and f32 accumulation).
    fn expected(&self) -> (Vec<f64>, Vec<f64>) {
        let DecodeShape { batch, heads, seq, head_dim: d, .. } = self.shape;
        let group = self.shape.group();
        let eps = self.dtype_eps();
        let (mut out, mut tol) = (vec![0.0; batch * heads * d], vec![0.0; batch * heads * d]);
        for b in 0..batch {
            for h in 0..heads {
                let kv = (b * self.shape.kv_heads + h / group) * seq;
                let q = &self.q[(b * heads + h) * d..][..d];
                let scores: Vec<f64> = (0..seq).map(|t| self.scale() * q.iter().zip(&self.k[(kv + t) * d..][..d]).map(|(x, y)| x * y).sum::<f64>()).collect();
                let m = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                let p: Vec<f64> = scores.iter().map(|s| (s - m).exp()).collect();
                let l: f64 = p.iter().sum();
                for j in 0..d {
                    let at = (b * heads + h) * d + j;
                    let (mut sum, mut mag) = (0.0, 0.0);
                    for (t, pt) in p.iter().enumerate() {
                        let vt = self.v[(kv + t) * d + j];
                        sum += pt * vt;
                        mag += pt * vt.abs();
                    }
                    out[at] = sum / l;
                    tol[at] = eps * (sum / l).abs() + (2.0 * eps + 64.0 * f32::EPSILON as f64) * mag / l + 1e-6;
                }
            }
        }
        (out, tol)
    }

    /// The dtype's unit roundoff.
    fn dtype_eps(&self) -> f64 {
        match self.dtype {
            DType::F16 => 4.9e-4,
            DType::BF16 => 3.9e-3,
            _ => f32::EPSILON as f64,
        }
    }

    /// Checks every output this process holds against [`Self::expected`]; returns (ok, max error).
    pub fn verify(&self) -> Result<(bool, f64), KernelError> {
        let (want, tol) = self.expected();
        let (mut ok, mut max_err) = (true, 0.0f64);
        for r in self.world.host_ranks() {
            let got = HostVec::read(&self.world, self.bufs[3], r, 0, want.len(), self.dtype)?.to_f64();
            for ((g, w), t) in got.iter().zip(&want).zip(&tol) {
                let err = (g - w).abs();
                max_err = max_err.max(err);
                ok &= err <= *t;
            }
        }
        Ok((ok, max_err))
    }

    /// Bytes of KV cache read by one launch, all ranks together.
    pub fn kv_bytes(&self) -> usize {
        2 * self.shape.batch * self.shape.kv_heads * self.shape.seq * self.shape.head_dim * self.dtype.size_bytes()
    }

    /// The problem shape.
    pub fn shape(&self) -> DecodeShape {
        self.shape
    }
}

impl Drop for PreparedDecode {
    fn drop(&mut self) {
        for b in self.bufs.drain(..) {
            self.world.free_raw(b);
        }
    }
}
