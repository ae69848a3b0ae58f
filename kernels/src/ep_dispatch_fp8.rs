//! `ep_dispatch_fp8`: `ep_dispatch` (see [`crate::moe`]) with an FP8 payload, as DeepEP's and
//! Triton-distributed's low-latency dispatch send it: each token is quantized per group of
//! [`GROUP`](crate::fp8::GROUP) elements to e4m3 with an f32 scale `amax / 448` (1 for an
//! all-zero group), sent with the LL protocol (four codes per 32-bit word), and dequantized by
//! the receiver into `out` of type `T`. A message is the header word, the scale words, then
//! the code words: about a quarter (f32) or half (bf16) of the plain dispatch's words.
//!
//! Args as `ep_dispatch`'s (`words` is still the token's words of `T`, so the host side is
//! shared; `hidden` must be a multiple of 4). Constexprs: `T`, `BLOCK` (choices per counting
//! tile), `BLOCK_K` (≥ topk).

use crate::fp8::{Fp8, GROUP};
use crate::moe::{one, recv_dispatch, send_word, DispatchArgs, MoeConfig, Ranks};
use crate::tiles::i64c;
use weft_compiler::dsl::shmem::*;
use weft_compiler::dsl::*;
use weft_compiler::ir::{Kernel, Scalar};

/// Code words per group.
const GROUP_WORDS: i64 = GROUP as i64 / 4;
/// The payload format, and its element type (converted by `cvt` on sm_90a / sm_100a, by the
/// compiler's integer code elsewhere).
const FMT: Fp8 = Fp8::E4M3;
const F8: Scalar = Scalar::F8E4M3FN;

/// The codes (an i32 tile of 0..=255) of f32 tile `x` as `F8`.
fn encode(x: Val) -> Val {
    bitcast(cast(x, F8), Scalar::I8).to(Scalar::I32) & 0xff
}

/// The f32 values of codes `c` (an i32 tile of 0..=255) of `F8`.
fn decode(c: Val) -> Val {
    cast(bitcast(cast(c, Scalar::I8), F8), Scalar::F32)
}

/// Builds `ep_dispatch_fp8`.
pub fn ep_dispatch_fp8(c: &Constexprs) -> Result<Kernel, DslError> {
    let cfg = MoeConfig::from(c)?;
    kernel("ep_dispatch_fp8", c, |a| {
        let d = DispatchArgs::new(a, cfg.t);
        let DispatchArgs { x, idx, out, off, src_tk, tokens, words, topk, experts, flag, .. } = d;
        let r = Ranks::new(experts);
        let Ranks { me, world, epr, pid, progs } = r;
        let hidden = words * 4i64 / cfg.t.bytes() as i64;
        let groups = cdiv(hidden, GROUP as i64);
        // Header, scales, codes (4 a word).
        let msg = 1i64 + groups + hidden / 4i64;
        let (ll, cnt) = d.halves(&r, msg);
        let lane = arange(0, GROUP_WORDS as i32).to(Scalar::I64);
        // Element `4 * lane + part` of group `g` (and whether it is in the token).
        let element = |g: Val, part: i64| {
            let el = g * GROUP as i64 + lane * 4i64 + part;
            (el, el.lt(hidden))
        };
        // Send token-major, so each token is quantized once, not once per choice: a choice's
        // slot is the count of earlier tokens that picked its expert (one masked count per
        // choice over the earlier choices).
        let kk = arange(0, cfg.bk as i32).to(Scalar::I64);
        let pick = |tile: Val, k: Val| sum(select(kk.eq_(k), tile, i64c(0)), 0);
        let count = |e: Val, end: Val| {
            for_range_carry(0i64, end, cfg.block, &[i64c(0)], |i, acc| {
                let at = i + arange(0, cfg.block as i32).to(Scalar::I64);
                let hit = load_masked(idx + at, at.lt(end), -1).to(Scalar::I64).eq_(e);
                vec![acc[0] + sum(select(hit, i64c(1), i64c(0)), 0)]
            })[0]
        };
        for_range(pid, tokens, progs, |t| {
            let ids = load_masked(idx + t * topk + kk, kk.lt(topk), -1).to(Scalar::I64);
            let init = zeros(&[cfg.bk as usize], Scalar::I64);
            let slots = for_range_carry(0i64, topk, 1i64, &[init], |k, c| vec![select(kk.eq_(k), count(pick(ids, k), t * topk), c[0])])[0];
            // Where choice `k`'s message starts on its expert's rank.
            let row = |k: Val| {
                let e = pick(ids, k);
                remote_ptr(ll + ((e % epr) * world + me) * tokens * msg + pick(slots, k) * msg, e / epr)
            };
            for_range(0i64, topk, 1i64, |k| store(one(row(k)), ll_pack(splat((t * topk + k).to(Scalar::I32), &[1]), flag)));
            for_range(0i64, groups, 1i64, |g| {
                let vals: Vec<Val> = (0..4)
                    .map(|p| {
                        let (el, m) = element(g, p);
                        load_masked(x + t * hidden + el, m, 0.0f64).to(Scalar::F32)
                    })
                    .collect();
                let amax = max(vals.iter().skip(1).fold(abs(vals[0]), |acc, v| maximum(acc, abs(*v))), 0);
                let scale = select(amax.gt(0.0f64), amax / FMT.max() as f64, 1.0f64);
                let word = vals.iter().enumerate().map(|(p, v)| encode(*v / scale) << (8 * p as i64)).reduce(|a, b| a | b).expect("four parts");
                let (_, m) = element(g, 0);
                let (scale_word, packed) = (ll_pack(splat(bitcast(scale, Scalar::I32), &[1]), flag), ll_pack(word, flag));
                for_range(0i64, topk, 1i64, |k| {
                    let r = row(k);
                    store(one(r + 1i64 + g), scale_word);
                    store_masked(r + 1i64 + groups + g * GROUP_WORDS + lane, packed, m);
                });
            });
        });
        // Every (expert, source) pair gets its count word, zero included.
        for_range(pid, experts, progs, |e| send_word(cnt + (e % epr) * world + me, count(e, tokens * topk), flag, e / epr));
        recv_dispatch(&r, [cnt, off, src_tk, ll], tokens, msg, flag, |row, at| {
            for_range(0i64, groups, 1i64, |g| {
                let scale = bitcast(sum(ll_recv(one(row + 1i64 + g), flag, None), 0), Scalar::F32);
                let (_, m) = element(g, 0);
                let word = ll_recv(row + 1i64 + groups + g * GROUP_WORDS + lane, flag, Some(m));
                for part in 0..4 {
                    let (el, m) = element(g, part);
                    let v = decode(shr_u(word, 8 * part) & 0xff) * scale;
                    store_masked(out + at * hidden + el, v.to(cfg.t), m);
                }
            });
        });
        Ok(())
    })
}
