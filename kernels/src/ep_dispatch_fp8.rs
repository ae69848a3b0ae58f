//! `ep_dispatch_fp8`: `ep_dispatch` (see [`crate::moe`]) with an FP8 payload, as DeepEP's and
//! Triton-distributed's low-latency dispatch send it: each token is quantized per group of
//! [`GROUP`](crate::fp8::GROUP) elements to e4m3 with an f32 scale `amax / 448` (1 for an
//! all-zero group), sent as plain 32-bit words (the scale words, then the codes four to a word)
//! in `ep_dispatch`'s regions, counts and credits, and dequantized by the receiver into `out`
//! of type `T`. A row is about a quarter (f32) or half (bf16) of the plain dispatch's words.
//! Every token is quantized once, into this rank's staging rows, before any is sent: a token
//! goes to up to `topk` experts.
//!
//! A group of `4 w` elements (`w` = 32 but in a last, partial group) is `w` code words; word
//! `i` holds elements `i`, `w + i`, `2 w + i` and `3 w + i`, so every part is a contiguous
//! load or store of `w` elements (a stride-4 layout would gather and scatter on a CPU).
//!
//! Args as `ep_dispatch`'s (`words` is still the token's words of `T`, so the host side is
//! shared; `hidden` must be a multiple of 4). Constexprs: `T`, `BLOCK` (words per tile),
//! `BLOCK_K` (≥ topk).

use crate::fp8::{Fp8, GROUP};
use crate::common::copy_exact;
use crate::moe::{dispatch_msg, dispatch_rows, load1, store1, DispatchArgs, MoeConfig, Ranks};
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
        let (x, out, tokens, words) = (d.x, d.out, d.tokens, d.words);
        let r = Ranks::new(d.experts);
        let hidden = words * 4i64 / cfg.t.bytes() as i64;
        let groups = cdiv(hidden, GROUP as i64);
        // A row: the scale words, then the code words.
        let row_words = groups + hidden / 4i64;
        let lane = arange(0, GROUP_WORDS as i32).to(Scalar::I64);
        // Group `g`'s code words `w`, the lanes that hold one, and element `part` of each lane.
        let group = |g: Val| {
            let w = minimum(hidden - g * GROUP as i64, i64c(GROUP as i64)) / 4i64;
            (w, lane.lt(w))
        };
        let element = |g: Val, w: Val, part: i64| g * GROUP as i64 + w * part + lane;
        // Staging: one quantized row per token, then a word counting this launch's programs in.
        let spare = ptr_cast(d.spare(&r, dispatch_msg(words)), Scalar::I32);
        let (stage, ready) = (spare, ptr_cast(spare, Scalar::I64) + cdiv(tokens * row_words, 2i64));
        for_range(r.pid, tokens, r.progs, |t| {
            let row = stage + t * row_words;
            for_range(0i64, groups, 1i64, |g| {
                let (w, m) = group(g);
                let vals: Vec<Val> = (0..4).map(|p| load_masked(x + t * hidden + element(g, w, p), m, 0.0f64).to(Scalar::F32)).collect();
                let amax = max(vals.iter().skip(1).fold(abs(vals[0]), |acc, v| maximum(acc, abs(*v))), 0);
                let scale = select(amax.gt(0.0f64), amax / FMT.max() as f64, 1.0f64);
                let word = vals.iter().enumerate().map(|(p, v)| encode(*v / scale) << (8 * p as i64)).reduce(|a, b| a | b).expect("four parts");
                store1(row + g, bitcast(scale, Scalar::I32));
                store_masked(row + groups + g * GROUP_WORDS + lane, word, m);
            });
        });
        // Every program reads rows the others quantized.
        fence();
        signal_op(ready, 1i64, Signal::Add, r.me);
        let tok = wait_until(ready, Cmp::Ge, d.flag.to(Scalar::I64) * r.progs);
        let stage = consume_token(stage, tok);
        dispatch_rows(
            &d,
            &cfg,
            row_words,
            |rows, t| copy_exact(rows, stage + t * row_words, row_words, cfg.block),
            |rows, at, n, _| {
                for_range(0i64, n, 1i64, |j| {
                    let (row, dst) = (rows + j * row_words, out + (at + j) * hidden);
                    for_range(0i64, groups, 1i64, |g| {
                        let (w, m) = group(g);
                        let scale = bitcast(load1(row + g), Scalar::F32);
                        let word = load_masked(row + groups + g * GROUP_WORDS + lane, m, 0);
                        for part in 0..4 {
                            let v = decode(shr_u(word, 8 * part) & 0xff) * scale;
                            store_masked(dst + element(g, w, part), v.to(cfg.t), m);
                        }
                    });
                });
            },
        );
        Ok(())
    })
}
