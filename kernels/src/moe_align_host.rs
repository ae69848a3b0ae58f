//! The host side of `moe_align`: which tokens and experts a layout covers, its buffers, and
//! launches that write the layout straight into another kernel's buffers (the expert GEMMs'
//! `off`, `off_e`, `gidx`, `pos`), so no routing metadata is computed on the host.

use crate::host::HostVec;
use crate::registry::find;
use crate::KernelError;
use weft_compiler::dsl::Constexprs;
use weft_runtime::{Arg, DType, LaunchReport, Launchable, RawBuf, World};

/// Which tokens and experts a `moe_align` launch lays out (see the kernel's docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AlignSpec {
    /// Tokens per segment (one rank's tokens).
    pub seg: usize,
    /// Segments: 1 for a rank's own tokens, `world` for the gathered tokens.
    pub segs: usize,
    /// Choices per token.
    pub topk: usize,
    /// Experts in all (the routing's ids are below this).
    pub experts: usize,
    /// Experts laid out per rank.
    pub ng: usize,
    /// Whether rank `r` lays out experts `r * ng..` (else `0..ng` on every rank).
    pub per_rank: bool,
    /// Whether `pos` counts from the choice's block start (else from row 0).
    pub rel: bool,
}

impl AlignSpec {
    /// Every expert over one rank's own `tokens` (`moe_gemm`; `moe_rs`'s positions with `rel`).
    pub fn own(tokens: usize, topk: usize, experts: usize, rel: bool) -> AlignSpec {
        AlignSpec { seg: tokens, segs: 1, topk, experts, ng: experts, per_rank: false, rel }
    }

    /// Each rank's `experts / world` experts over every rank's `tokens` (`ag_moe`, and the rows
    /// `moe_rs` receives).
    pub fn gathered(world: usize, tokens: usize, topk: usize, experts: usize) -> AlignSpec {
        AlignSpec { seg: tokens, segs: world, topk, experts, ng: experts / world.max(1), per_rank: true, rel: false }
    }

    /// Choices in the routing a launch reads.
    pub fn choices(&self) -> usize {
        self.segs * self.seg * self.topk
    }

    /// The most rows a layout can hold (a token picks an expert at most once).
    pub fn max_rows(&self) -> usize {
        self.segs * self.seg * self.topk.min(self.ng)
    }
}

/// A layout as read back: block offsets, expert offsets, each row's token, each choice's row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AlignLayout {
    /// `[ng * segs + 1]` block starts, then the total.
    pub off: Vec<i32>,
    /// `[ng + 1]` expert starts, then the total.
    pub off_e: Vec<i32>,
    /// The token of each row (`off`'s total of them).
    pub gidx: Vec<i32>,
    /// The row of each choice (-1 outside the rank's experts).
    pub pos: Vec<i32>,
}

/// Rank `r`'s layout of `spec` from the plain-math dispatch ([`crate::reference::ep_dispatch`])
/// of `idx` (every rank's routing): the independent reference `moe_align` is checked against.
pub fn expected_layout(idx: &[Vec<i32>], spec: AlignSpec, r: usize) -> AlignLayout {
    let AlignSpec { seg, segs, topk, experts, .. } = spec;
    // Own tokens: one rank holding every expert; gathered: rank r's experts of every rank.
    let lists = if segs == 1 { crate::reference::ep_dispatch(&[idx[r].clone()], topk, experts).remove(0) } else { crate::reference::ep_dispatch(idx, topk, experts).remove(r) };
    let (mut off, mut off_e, mut gidx, mut pos) = (vec![0], vec![0], vec![], vec![-1; spec.choices()]);
    for list in &lists {
        for s in 0..segs {
            let start = gidx.len() as i32;
            for &(_, t, k) in list.iter().filter(|c| c.0 == s) {
                let g = s * seg + t;
                pos[g * topk + k] = gidx.len() as i32 - if spec.rel { start } else { 0 };
                gidx.push(g as i32);
            }
            off.push(gidx.len() as i32);
        }
        off_e.push(gidx.len() as i32);
    }
    AlignLayout { off, off_e, gidx, pos }
}

/// `moe_align` compiled for one [`AlignSpec`] with its own buffers.
pub struct PreparedAlign {
    world: World,
    kernel: Launchable,
    spec: AlignSpec,
    /// idx, off, off_e, gidx, pos.
    bufs: Vec<RawBuf>,
    grid: [u32; 3],
}

/// The constexprs `moe_align` takes for `topk` choices per token.
pub fn align_constexprs(topk: usize) -> Constexprs {
    Constexprs::new().with("BLOCK", 256).with("BLOCK_K", topk.max(1).next_power_of_two())
}

/// Allocates and compiles `moe_align` for `spec` on `world`; the error names a spec that
/// cannot be laid out.
pub fn prepare_align(world: &World, spec: AlignSpec, c: &Constexprs) -> Result<PreparedAlign, KernelError> {
    find("moe_align")?;
    let unsupported = |what: String| KernelError::Unsupported { kernel: "moe_align".into(), what };
    let w = world.n_ranks();
    if spec.seg == 0 || spec.segs == 0 || spec.topk == 0 || spec.ng == 0 {
        return Err(unsupported(format!("an empty layout {spec:?}")));
    }
    if spec.topk > spec.experts {
        return Err(unsupported(format!("top-{} of {} experts (a token's choices are distinct experts)", spec.topk, spec.experts)));
    }
    if (spec.per_rank && spec.ng * w != spec.experts) || (!spec.per_rank && spec.ng > spec.experts) {
        return Err(unsupported(format!("{} experts per rank of {} in all on {w} ranks (experts must split evenly over the ranks)", spec.ng, spec.experts)));
    }
    let bk: usize = c.get("BLOCK_K").and_then(|v| v.parse().ok()).unwrap_or(0);
    if bk < spec.topk {
        return Err(unsupported(format!("BLOCK_K={bk} for top-{} (BLOCK_K must hold every choice)", spec.topk)));
    }
    let too_large = || KernelError::TooLarge { kernel: "moe_align".into(), elems: spec.choices() };
    let bytes = |n: usize| n.checked_mul(4).filter(|&b| b < i32::MAX as usize).ok_or_else(too_large);
    let sizes = [bytes(spec.choices())?, bytes(spec.ng * spec.segs + 1)?, bytes(spec.ng + 1)?, bytes(spec.max_rows())?, bytes(spec.choices())?];
    let kernel = crate::gpu::launchable_for_resident(world, &crate::registry::build("moe_align", c)?)?;
    let bufs = crate::run::alloc_all(world, &sizes)?;
    let programs = world.gpu_sms().unwrap_or_else(|| std::thread::available_parallelism().map(|c| c.get()).unwrap_or(1).div_ceil(w));
    let grid = [programs.clamp(1, spec.ng * spec.segs) as u32, 1, 1];
    Ok(PreparedAlign { world: world.clone(), kernel, spec, bufs, grid })
}

impl PreparedAlign {
    /// The spec it lays out.
    pub fn spec(&self) -> AlignSpec {
        self.spec
    }

    /// Writes rank `r`'s routing (`[segs * seg, topk]` expert ids), checked: the right length,
    /// ids in range, a token's choices distinct (the layout assumes it).
    pub fn write_idx(&self, r: usize, idx: &[i32]) -> Result<(), KernelError> {
        self.check_idx(idx, self.spec.segs * self.spec.seg)?;
        Ok(HostVec::I32(idx.to_vec()).write(&self.world, self.bufs[0], r, 0, DType::I32)?)
    }

    /// Checks `idx` as `tokens` tokens' choices: the right length, ids in range, a token's
    /// choices distinct.
    fn check_idx(&self, idx: &[i32], tokens: usize) -> Result<(), KernelError> {
        let AlignSpec { topk, experts, .. } = self.spec;
        let unsupported = |what: String| KernelError::Unsupported { kernel: "moe_align".into(), what };
        if idx.len() != tokens * topk {
            return Err(unsupported(format!("{} expert ids for {tokens} tokens of top-{topk}", idx.len())));
        }
        for (g, choice) in idx.chunks(topk).enumerate() {
            for (k, &e) in choice.iter().enumerate() {
                if e < 0 || e as usize >= experts || choice[..k].contains(&e) {
                    return Err(unsupported(format!("routing where token {g} picks expert {e} as choice {k} (choices must be distinct experts in 0..{experts})")));
                }
            }
        }
        Ok(())
    }

    /// Writes every routing this process's ranks read: rank `r`'s own `idx[r]`, or all ranks'
    /// concatenated for the gathered tokens.
    pub fn write_routing(&self, idx: &[Vec<i32>]) -> Result<(), KernelError> {
        let all = idx.concat();
        for r in self.world.host_ranks() {
            self.write_idx(r, if self.spec.segs == 1 { idx.get(r).map_or(&[][..], |v| v) } else { &all })?;
        }
        Ok(())
    }

    /// Whether every rank this process holds has the layout of routing `idx` (all ranks').
    pub fn verify(&self, idx: &[Vec<i32>]) -> Result<bool, KernelError> {
        if idx.len() != self.world.n_ranks() {
            return Err(KernelError::Unsupported { kernel: "moe_align".into(), what: format!("routing of {} ranks on {}", idx.len(), self.world.n_ranks()) });
        }
        idx.iter().try_for_each(|v| self.check_idx(v, self.spec.seg))?;
        for r in self.world.host_ranks() {
            if self.read(r)? != expected_layout(idx, self.spec, r) {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Launches once, writing `off`, `off_e`, `gidx`, `pos` into `outs` where given (each as
    /// large as [`read`](Self::read) expects), else into its own buffers.
    pub fn launch_into(&self, outs: [Option<RawBuf>; 4]) -> Result<LaunchReport, KernelError> {
        let s = self.spec;
        let mut args: Vec<Arg> = vec![Arg::Buf(self.bufs[0])];
        args.extend(outs.iter().zip(&self.bufs[1..]).map(|(o, &b)| Arg::Buf(o.unwrap_or(b))));
        let stride = if s.per_rank { s.ng } else { 0 };
        args.extend([s.seg, s.segs, s.topk, 0, stride, s.ng, s.rel as usize].map(|x| Arg::I64(x as i64)));
        Ok(self.world.launch(&self.kernel, self.grid, &args)?)
    }

    /// Launches once into its own buffers.
    pub fn launch(&self) -> Result<LaunchReport, KernelError> {
        self.launch_into([None; 4])
    }

    /// Rank `r`'s layout from its own buffers (the rows `off`'s total says).
    pub fn read(&self, r: usize) -> Result<AlignLayout, KernelError> {
        let ints = |buf: usize, n: usize| -> Result<Vec<i32>, KernelError> { Ok(HostVec::read(&self.world, self.bufs[buf], r, 0, n, DType::I32)?.to_f64().iter().map(|&x| x as i32).collect()) };
        let off = ints(1, self.spec.ng * self.spec.segs + 1)?;
        let rows = (*off.last().unwrap_or(&0)).clamp(0, self.spec.max_rows() as i32) as usize;
        Ok(AlignLayout { off_e: ints(2, self.spec.ng + 1)?, gidx: ints(3, rows)?, pos: ints(4, self.spec.choices())?, off })
    }
}

impl Drop for PreparedAlign {
    fn drop(&mut self) {
        self.bufs.iter().for_each(|&b| self.world.free_raw(b));
    }
}
