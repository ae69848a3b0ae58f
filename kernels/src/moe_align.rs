//! `moe_align`: the row layout the expert GEMMs read (Triton-distributed's `moe_align`
//! output), computed on the device from the top-k routing instead of on the host.
//!
//! Tokens `g` in `0..segs * seg` choose experts `idx[g, topk]` (i32). `segs = 1` lays out one
//! rank's own tokens (`moe_gemm`); `segs = world` the gathered tokens of `ag_moe`, segment `s`
//! being rank `s`'s tokens. The experts laid out are `e0..e0 + ng` with `e0 = e_base + my_pe *
//! e_stride` (`ag_moe`: `e_stride = ng = epr`, each rank its own experts). Block `b = le * segs
//! + s` holds segment `s`'s choices of expert `e0 + le` in token order (a token picks an expert
//! at most once), so the rows are stable by expert, then token, then choice. Outputs (i32):
//! - `off[ng * segs + 1]`: where each block's rows start, then the total;
//! - `off_e[ng + 1]`: where each expert's rows start, then the total;
//! - `gidx[rows]`: the token `g` of each row;
//! - `pos[segs * seg, topk]`: the row of each choice, less its block's start when `rel` is 1
//!   (`moe_rs` reads a choice's row within its block); -1 for experts outside the range.
//!
//! No grid-wide barrier: each program takes whole blocks and computes its block's start
//! itself, the histogram's prefix as one masked count over every choice (tiles of `BLOCK`),
//! then walks its segment's tokens in order (the scatter). Every program writes only its own
//! blocks' rows and choices, so the layout is the same at any grid.
//!
//! Constexprs: `BLOCK` (choices per counting tile), `BLOCK_K` (≥ topk).

use crate::moe::{scan_expert, store1};
use crate::tiles::i64c;
use weft_compiler::dsl::shmem::*;
use weft_compiler::dsl::*;
use weft_compiler::ir::{Kernel, Scalar};

/// 1 where `cond` holds, else 0 (i64), so conditions combine by arithmetic.
fn ind(cond: Val) -> Val {
    select(cond, i64c(1), i64c(0))
}

/// Builds `moe_align`.
pub fn moe_align(c: &Constexprs) -> Result<Kernel, DslError> {
    let (block, bk) = (c.pow2("BLOCK", 16, 1 << 14)?, c.pow2("BLOCK_K", 1, 64)?);
    kernel("moe_align", c, |a| {
        let (idx, off, off_e) = (a.ptr("idx", Scalar::I32), a.ptr("off", Scalar::I32), a.ptr("off_e", Scalar::I32));
        let (gidx, pos) = (a.ptr("gidx", Scalar::I32), a.ptr("pos", Scalar::I32));
        let (seg, segs, topk) = (a.i64("seg"), a.i64("segs"), a.i64("topk"));
        let (e_base, e_stride, ng, rel) = (a.i64("e_base"), a.i64("e_stride"), a.i64("ng"), a.i64("rel"));
        let e0 = e_base + my_pe().to(Scalar::I64) * e_stride;
        let (pid, progs) = (program_id(0).to(Scalar::I64), num_programs(0).to(Scalar::I64));
        let (choices, blocks) = (segs * seg * topk, ng * segs);
        let lanes = arange(0, block as i32).to(Scalar::I64);
        for_range(pid, blocks, progs, |b| {
            let (le, s) = (b / segs, b % segs);
            // Rows before block b: choices of the earlier experts, and this expert's choices by
            // the earlier segments' tokens (choice `i` is token `i / topk`'s).
            let before = s * seg * topk;
            let start = for_range_carry(0i64, choices, block, &[i64c(0)], |i, acc| {
                let at = i + lanes;
                let l = load_masked(idx + at, at.lt(choices), -1).to(Scalar::I64) - e0;
                let earlier = ind(l.ge(0i64)) * ind(l.lt(le)) + ind(l.eq_(le)) * ind(at.lt(before));
                vec![acc[0] + sum(earlier * ind(at.lt(choices)), 0)]
            })[0];
            let first = s * seg;
            let n = scan_expert(idx + first * topk, seg, topk, bk, e0 + le, |t, k, slot| {
                let (g, row) = (first + t, start + slot);
                store1(gidx + row, g.to(Scalar::I32));
                store1(pos + g * topk + k, (row - rel * start).to(Scalar::I32));
            });
            store1(off + b, start.to(Scalar::I32));
            if_(s.eq_(0), || store1(off_e + le, start.to(Scalar::I32)));
            if_(b.eq_(blocks - 1i64), || {
                store1(off + blocks, (start + n).to(Scalar::I32));
                store1(off_e + ng, (start + n).to(Scalar::I32));
            });
        });
        // Choices of experts outside the range get -1 (no block writes them).
        for_range(pid * block, choices, progs * block, |i| {
            let at = i + lanes;
            let l = load_masked(idx + at, at.lt(choices), -1).to(Scalar::I64) - e0;
            let outside = (ind(l.lt(0i64)) + ind(l.ge(ng))) * ind(at.lt(choices));
            store_masked(pos + at, splat(constant(-1, Scalar::I32, &[]), &[block as usize]), outside.ne_(0i64));
        });
        Ok(())
    })
}
