//! Masked accesses on the CPU back end, run as compiled code against the plain rule.
//! Partly masked f16 / bf16 stores: every lane the mask holds is written and every other lane
//! keeps what the buffer held, for prefix, empty, full and scattered masks, at widths below, at
//! and above the lowering's 8-lane chunk, both for a 1-D tile and for the row-by-row stores of a
//! 2-D tile. Tiles of arbitrary addresses (gathers and scatters through an index table): the
//! same rule for masked loads feeding masked stores, at widths on both sides of
//! the lowering's gather limit, in f32 and both half types. Masked contiguous loads: lanes
//! the mask holds read the buffer, the others `other`, for the same masks (a full one takes
//! the plain-load path, the others the masked one) in f32 and both half types, and 2-D tiles
//! loaded row by row under a row-and-column mask (rows wholly out, rows partly in, full rows)
//! with a scalar `other` and with a tile of them.

use half::{bf16, f16};
use weft::compiler::dsl::*;
use weft::compiler::ir::Scalar;
use weft::runtime::{Arg, Element, Launchable, World};

/// Compiles `body` as a kernel named `name`.
fn build(name: &str, body: impl FnOnce(&mut Args) -> Result<(), DslError>) -> Launchable {
    let k = kernel(name, &Constexprs::new(), body).expect("kernel builds");
    weft::compile(&k, &weft::Options::default()).expect("kernel compiles").launchable()
}

/// `out[i] = x[i]` where `flags[i] != 0`, one program per `w` lanes.
fn masked_copy_1d(t: Scalar, w: i32) -> Launchable {
    build(&format!("masked_copy_1d_{}_{w}", t.mlir()), |a| {
        let (x, flags, out) = (a.ptr("x", t), a.ptr("flags", Scalar::I32), a.ptr("out", t));
        let offs = program_id(0).to(Scalar::I64) * (w as i64) + arange(0, w).to(Scalar::I64);
        let m = load(flags + offs).ne_(0);
        store_masked(out + offs, load(x + offs), m);
        Ok(())
    })
}

/// Tile `[bm, bn]` of `out[r * ld + c] = x[r * n + c]` over `r < m`, `c < n`; with `flags`,
/// also only where `flags[r * n + c] != 0` (a mask with no row / column structure).
fn masked_copy_2d(t: Scalar, bm: i32, bn: i32, flags: bool) -> Launchable {
    build(&format!("masked_copy_2d_{}_{bm}x{bn}_{flags}", t.mlir()), |a| {
        let (x, fl, out) = (a.ptr("x", t), a.ptr("flags", Scalar::I32), a.ptr("out", t));
        let (m, n, ld) = (a.i64("m"), a.i64("n"), a.i64("ld"));
        let r = expand_dims(program_id(0).to(Scalar::I64) * (bm as i64) + arange(0, bm).to(Scalar::I64), 1);
        let c = expand_dims(program_id(1).to(Scalar::I64) * (bn as i64) + arange(0, bn).to(Scalar::I64), 0);
        let inside = r.lt(m) & c.lt(n);
        let src = r * n + c;
        let mask = if flags { inside & load_masked(fl + src, inside, 0).ne_(0) } else { inside };
        store_masked(out + (r * ld + c), load_masked(x + src, inside, 0.0), mask);
        Ok(())
    })
}

/// A little xorshift stream.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn unit(&mut self) -> f32 {
        (self.next() >> 40) as f32 / (1u64 << 24) as f32 - 0.5
    }
}

/// The masks one `w`-lane program gets: full, empty, prefixes around the chunk edges,
/// a suffix, a middle run, odd lanes, every third lane, and a random one.
fn patterns(w: usize, rng: &mut Rng) -> Vec<Vec<bool>> {
    let mut out: Vec<Vec<bool>> = vec![vec![true; w], vec![false; w]];
    for k in [1, 7, 8, 9, w / 2 + 3, w - 1] {
        if k < w {
            out.push((0..w).map(|i| i < k).collect());
        }
    }
    out.push((0..w).map(|i| i >= w / 3).collect());
    out.push((0..w).map(|i| i >= w / 4 && i < w / 4 + w / 2 + 1).collect());
    out.push((0..w).map(|i| i % 2 == 1).collect());
    out.push((0..w).map(|i| i % 3 == 0).collect());
    out.push((0..w).map(|_| rng.next() % 2 == 0).collect());
    out
}

/// Runs a copy kernel on one rank: `out` starts as `before`; returns what it holds after.
fn run<T: Element>(k: &Launchable, grid: [u32; 3], x: &[T], flags: &[i32], before: &[T], ints: &[i64]) -> Vec<T> {
    let world = World::local(1).expect("world");
    let (bx, bf, bo) = (world.alloc::<T>(x.len()).expect("alloc"), world.alloc::<i32>(flags.len()).expect("alloc"), world.alloc::<T>(before.len()).expect("alloc"));
    world.write(&bx, 0, x).expect("write");
    world.write(&bf, 0, flags).expect("write");
    world.write(&bo, 0, before).expect("write");
    let mut args = vec![Arg::from(&bx), Arg::from(&bf), Arg::from(&bo)];
    args.extend(ints.iter().map(|&i| Arg::I64(i)));
    world.launch(k, grid, &args).expect("launch");
    world.read(&bo, 0).expect("read")
}

/// Checks both half types through `case`, which gets the dtype and a value maker.
fn for_halves(mut case: impl FnMut(Scalar, &dyn Fn(f32) -> u16)) {
    case(Scalar::F16, &|v| f16::from_f32(v).to_bits());
    case(Scalar::BF16, &|v| bf16::from_f32(v).to_bits());
}

/// Runs `k` over half values given as bits (f16 or bf16 per `t`) and returns the bits after.
fn run_bits(t: Scalar, k: &Launchable, grid: [u32; 3], x: &[u16], flags: &[i32], before: &[u16], ints: &[i64]) -> Vec<u16> {
    if t == Scalar::F16 {
        let h = |v: &[u16]| v.iter().map(|&b| f16::from_bits(b)).collect::<Vec<_>>();
        run(k, grid, &h(x), flags, &h(before), ints).iter().map(|v| v.to_bits()).collect()
    } else {
        let h = |v: &[u16]| v.iter().map(|&b| bf16::from_bits(b)).collect::<Vec<_>>();
        run(k, grid, &h(x), flags, &h(before), ints).iter().map(|v| v.to_bits()).collect()
    }
}

#[test]
fn half_masked_store_1d_keeps_unmasked_lanes() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for_halves(|t, bits| {
        for w in [2usize, 4, 8, 32, 128, 1024] {
            let masks: Vec<bool> = patterns(w, &mut rng).concat();
            let n = masks.len();
            let x: Vec<u16> = (0..n).map(|_| bits(rng.unit() * 100.0)).collect();
            let before: Vec<u16> = (0..n).map(|_| bits(rng.unit() * 100.0 + 1000.0)).collect();
            let flags: Vec<i32> = masks.iter().map(|&b| b as i32).collect();
            let k = masked_copy_1d(t, w as i32);
            let got = run_bits(t, &k, [(n / w) as u32, 1, 1], &x, &flags, &before, &[]);
            for i in 0..n {
                let want = if masks[i] { x[i] } else { before[i] };
                assert_eq!(got[i], want, "{} width {w}, program {}, lane {}", t.mlir(), i / w, i % w);
            }
        }
    });
}

#[test]
fn half_masked_store_2d_partial_tiles() {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    for_halves(|t, bits| {
        for (bm, bn, m, n) in [(4, 8, 9, 13), (8, 64, 19, 150), (2, 256, 5, 300), (1, 1024, 3, 1000), (16, 4, 33, 7)] {
            for with_flags in [false, true] {
                let ld = n + 11;
                let x: Vec<u16> = (0..m * n).map(|_| bits(rng.unit() * 50.0)).collect();
                let flags: Vec<i32> = (0..m * n).map(|_| (rng.next() % 3 != 0) as i32).collect();
                let before: Vec<u16> = (0..m * ld).map(|_| bits(rng.unit() * 50.0 - 500.0)).collect();
                let k = masked_copy_2d(t, bm, bn, with_flags);
                let grid = [(m as u32).div_ceil(bm as u32), (n as u32).div_ceil(bn as u32), 1];
                let got = run_bits(t, &k, grid, &x, &flags, &before, &[m as i64, n as i64, ld as i64]);
                for r in 0..m {
                    for c in 0..ld {
                        let on = c < n && (!with_flags || flags[r * n + c] != 0);
                        let want = if on { x[r * n + c] } else { before[r * ld + c] };
                        assert_eq!(got[r * ld + c], want, "{} tile {bm}x{bn} of {m}x{n}, flags {with_flags}: [{r}, {c}]", t.mlir());
                    }
                }
            }
        }
    });
}

/// `out[i] = x[i]` where `flags[i] != 0`, else `-7`, one program per `w` lanes: a masked
/// contiguous load, stored whole.
fn masked_load_1d(t: Scalar, w: i32) -> Launchable {
    build(&format!("masked_load_1d_{}_{w}", t.mlir()), |a| {
        let (x, flags, out) = (a.ptr("x", t), a.ptr("flags", Scalar::I32), a.ptr("out", t));
        let offs = program_id(0).to(Scalar::I64) * (w as i64) + arange(0, w).to(Scalar::I64);
        let m = load(flags + offs).ne_(0);
        store(out + offs, load_masked(x + offs, m, -7.0));
        Ok(())
    })
}

/// Runs `masked_load_1d` for `t` at width `w` over values made by `make`; checks the plain rule.
fn check_masked_load<T: Element + PartialEq + std::fmt::Debug>(t: Scalar, w: usize, rng: &mut Rng, make: impl Fn(f32) -> T) {
    let masks: Vec<bool> = patterns(w, rng).concat();
    let n = masks.len();
    let x: Vec<T> = (0..n).map(|_| make(rng.unit() * 100.0)).collect();
    let before: Vec<T> = (0..n).map(|_| make(rng.unit() * 100.0 + 1000.0)).collect();
    let flags: Vec<i32> = masks.iter().map(|&b| b as i32).collect();
    let got = run(&masked_load_1d(t, w as i32), [(n / w) as u32, 1, 1], &x, &flags, &before, &[]);
    let want: Vec<T> = (0..n).map(|i| if masks[i] { x[i] } else { make(-7.0) }).collect();
    assert_eq!(got, want, "{} width {w}", t.mlir());
}

#[test]
fn masked_loads_read_only_their_lanes() {
    let mut rng = Rng(0xbb67_ae85_84ca_a73b);
    for w in [2usize, 8, 32, 128, 1024] {
        check_masked_load(Scalar::F32, w, &mut rng, |v| v);
        check_masked_load(Scalar::F16, w, &mut rng, f16::from_f32);
        check_masked_load(Scalar::BF16, w, &mut rng, bf16::from_f32);
    }
}

/// Tile `[bm, bn]` of `out[r * ld + c]` = `x[r * n + c]` inside `r < m, c < n`, else `-7`, or
/// with `tile_other` what `out` held there: a 2-D masked load with row and column halves (the
/// row-by-row path), stored whole.
fn masked_load_2d(t: Scalar, bm: i32, bn: i32, tile_other: bool) -> Launchable {
    build(&format!("masked_load_2d_{}_{bm}x{bn}_{tile_other}", t.mlir()), |a| {
        let (x, _flags, out) = (a.ptr("x", t), a.ptr("flags", Scalar::I32), a.ptr("out", t));
        let (m, n, ld) = (a.i64("m"), a.i64("n"), a.i64("ld"));
        let r = expand_dims(program_id(0).to(Scalar::I64) * (bm as i64) + arange(0, bm).to(Scalar::I64), 1);
        let c = expand_dims(program_id(1).to(Scalar::I64) * (bn as i64) + arange(0, bn).to(Scalar::I64), 0);
        let (inside, dst) = (r.lt(m) & c.lt(n), out + (r * ld + c));
        let v = if tile_other { load_masked(x + (r * n + c), inside, load(dst)) } else { load_masked(x + (r * n + c), inside, -7.0) };
        store(dst, v);
        Ok(())
    })
}

#[test]
fn masked_2d_loads_read_rows_and_columns_inside() {
    let mut rng = Rng(0x3c6e_f372_fe94_f82b);
    for (bm, bn, m, n) in [(4usize, 8usize, 9usize, 13usize), (8, 64, 19, 150), (2, 256, 5, 300), (16, 4, 33, 7), (8, 32, 8, 32)] {
        let grid = [m.div_ceil(bm) as u32, n.div_ceil(bn) as u32, 1];
        let ld = grid[1] as usize * bn;
        let rows = grid[0] as usize * bm;
        let want = |x: &[u32], before: &[u32], tile_other: bool, minus7: u32| -> Vec<u32> {
            (0..rows * ld).map(|i| if i / ld < m && i % ld < n { x[(i / ld) * n + i % ld] } else if tile_other { before[i] } else { minus7 }).collect()
        };
        for tile_other in [false, true] {
            let x: Vec<f32> = (0..m * n).map(|_| rng.unit() * 50.0).collect();
            let before: Vec<f32> = (0..rows * ld).map(|_| rng.unit() * 50.0 - 500.0).collect();
            let got = run(&masked_load_2d(Scalar::F32, bm as i32, bn as i32, tile_other), grid, &x, &[0], &before, &[m as i64, n as i64, ld as i64]);
            let bits = |v: &[f32]| v.iter().map(|f| f.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(&got), want(&bits(&x), &bits(&before), tile_other, (-7.0f32).to_bits()), "f32 tile {bm}x{bn} of {m}x{n}, tile other {tile_other}");
            for_halves(|t, half| {
                let x: Vec<u16> = (0..m * n).map(|_| half(rng.unit() * 50.0)).collect();
                let before: Vec<u16> = (0..rows * ld).map(|_| half(rng.unit() * 50.0 - 500.0)).collect();
                let got = run_bits(t, &masked_load_2d(t, bm as i32, bn as i32, tile_other), grid, &x, &[0], &before, &[m as i64, n as i64, ld as i64]);
                let wide = |v: &[u16]| v.iter().map(|&b| b as u32).collect::<Vec<_>>();
                assert_eq!(wide(&got), want(&wide(&x), &wide(&before), tile_other, half(-7.0) as u32), "{} tile {bm}x{bn} of {m}x{n}, tile other {tile_other}", t.mlir());
            });
        }
    }
}

/// `out[dst[i]] = x[src[i]]` where `flags[i] != 0`, masked-off lanes reading `-1`, one
/// program per `w` lanes: both accesses go through addresses of no structure.
fn indexed_copy(t: Scalar, w: i32) -> Launchable {
    build(&format!("indexed_copy_{}_{w}", t.mlir()), |a| {
        let (x, src, dst) = (a.ptr("x", t), a.ptr("src", Scalar::I64), a.ptr("dst", Scalar::I64));
        let (flags, out) = (a.ptr("flags", Scalar::I32), a.ptr("out", t));
        let offs = program_id(0).to(Scalar::I64) * (w as i64) + arange(0, w).to(Scalar::I64);
        let m = load(flags + offs).ne_(0);
        let v = load_masked(x + load(src + offs), m.clone(), -1.0);
        store_masked(out + load(dst + offs), v, m);
        Ok(())
    })
}

/// A random permutation of `0..n`.
fn permutation(n: usize, rng: &mut Rng) -> Vec<i64> {
    let mut p: Vec<i64> = (0..n as i64).collect();
    for i in (1..n).rev() {
        p.swap(i, (rng.next() % (i as u64 + 1)) as usize);
    }
    p
}

/// Runs `indexed_copy` for `t` at width `w` over values made by `make`; checks the plain rule.
fn check_indexed<T: Element + PartialEq + std::fmt::Debug>(t: Scalar, w: usize, rng: &mut Rng, make: impl Fn(f32) -> T) {
    let masks: Vec<bool> = patterns(w, rng).concat();
    let n = masks.len();
    let (src, dst) = (permutation(n, rng), permutation(n, rng));
    let x: Vec<T> = (0..n).map(|_| make(rng.unit() * 100.0)).collect();
    let before: Vec<T> = (0..n).map(|_| make(rng.unit() * 100.0 + 1000.0)).collect();
    let flags: Vec<i32> = masks.iter().map(|&b| b as i32).collect();
    let world = World::local(1).expect("world");
    let bufs = (world.alloc::<T>(n).expect("alloc"), world.alloc::<i64>(n).expect("alloc"), world.alloc::<i64>(n).expect("alloc"));
    let (bf, bo) = (world.alloc::<i32>(n).expect("alloc"), world.alloc::<T>(n).expect("alloc"));
    world.write(&bufs.0, 0, &x).expect("write");
    world.write(&bufs.1, 0, &src).expect("write");
    world.write(&bufs.2, 0, &dst).expect("write");
    world.write(&bf, 0, &flags).expect("write");
    world.write(&bo, 0, &before).expect("write");
    let args = [Arg::from(&bufs.0), Arg::from(&bufs.1), Arg::from(&bufs.2), Arg::from(&bf), Arg::from(&bo)];
    world.launch(&indexed_copy(t, w as i32), [(n / w) as u32, 1, 1], &args).expect("launch");
    let got: Vec<T> = world.read(&bo, 0).expect("read");
    let mut want = before;
    for i in (0..n).filter(|&i| masks[i]) {
        want[dst[i] as usize] = x[src[i] as usize];
    }
    assert_eq!(got, want, "{} width {w}", t.mlir());
}

#[test]
fn gathers_and_scatters_follow_their_masks() {
    let mut rng = Rng(0x6a09_e667_f3bc_c909);
    for w in [8usize, 64, 128, 2048] {
        check_indexed(Scalar::F32, w, &mut rng, |v| v);
        check_indexed(Scalar::F16, w, &mut rng, f16::from_f32);
        check_indexed(Scalar::BF16, w, &mut rng, bf16::from_f32);
    }
}
