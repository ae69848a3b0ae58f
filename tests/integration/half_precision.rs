//! Half precision on the CPU back end, run as compiled code and checked against the `half`
//! crate: every f16 / bf16 value widens exactly, f32 narrows with round-to-nearest-even, and
//! arithmetic is f32 arithmetic rounded once. The kernels use a tile wider than the chunked
//! conversion (64 lanes), a masked tail and a scalar, so every path of the lowering runs.

use half::{bf16, f16};
use weft::compiler::dsl::*;
use weft::compiler::ir::Scalar;
use weft::runtime::{Arg, World};

const BLOCK: i32 = 256;

/// `out[i] = f(x[i], y[i])` over `n` elements with one program per `BLOCK`.
fn elementwise(name: &str, from: Scalar, to: Scalar, f: fn(Val, Val) -> Val) -> weft::runtime::Launchable {
    let k = kernel(name, &Constexprs::new(), |a| {
        let (x, y, out) = (a.ptr("x", from), a.ptr("y", from), a.ptr("out", to));
        let n = a.i64("n");
        let offs = program_id(0).to(Scalar::I64) * (BLOCK as i64) + arange(0, BLOCK).to(Scalar::I64);
        let m = offs.lt(n);
        let (vx, vy) = (load_masked(x + offs, m, 0.0), load_masked(y + offs, m, 0.0));
        store_masked(out + offs, cast(f(vx, vy), to), m);
        Ok(())
    })
    .expect("kernel builds");
    weft::compile(&k, &weft::Options::default()).expect("kernel compiles").launchable()
}

/// Runs `k` on one rank over `x`, `y` and returns `out`.
fn run<A: weft::runtime::Element + Default, B: weft::runtime::Element + Default>(k: &weft::runtime::Launchable, x: &[A], y: &[A]) -> Vec<B> {
    let world = World::local(1).expect("world");
    let n = x.len();
    let (bx, by, bo) = (world.alloc::<A>(n).expect("alloc"), world.alloc::<A>(n).expect("alloc"), world.alloc::<B>(n).expect("alloc"));
    world.write(&bx, 0, x).expect("write");
    world.write(&by, 0, y).expect("write");
    let grid = n.div_ceil(BLOCK as usize) as u32;
    world.launch(k, [grid, 1, 1], &[Arg::from(&bx), Arg::from(&by), Arg::from(&bo), Arg::I64(n as i64)]).expect("launch");
    world.read(&bo, 0).expect("read")
}

fn same(a: f32, b: f32) -> bool {
    a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan())
}

/// Random f32 words (every class: normals, subnormals, infinities, NaNs), plus the exact
/// midpoints between neighbouring halves, where round-to-nearest-even decides.
fn f32_samples(midpoints: impl Iterator<Item = f32>) -> Vec<f32> {
    let mut rng = 0x2545_f491_4f6c_dd1du64;
    let mut v: Vec<f32> = (0..100_003)
        .map(|_| {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            f32::from_bits(rng as u32)
        })
        .collect();
    v.extend(midpoints);
    v.extend([0.0, -0.0, 65504.0, 65520.0, 65519.99, 1e-8, -5.96e-8, 2.98e-8, f32::INFINITY, f32::NEG_INFINITY, f32::NAN]);
    v
}

#[test]
fn every_half_value_widens_exactly() {
    let all: Vec<u16> = (0..=u16::MAX).collect();
    let k = elementwise("widen_f16", Scalar::F16, Scalar::F32, |x, _| x);
    let xs: Vec<f16> = all.iter().map(|&b| f16::from_bits(b)).collect();
    for (x, got) in xs.iter().zip(run::<f16, f32>(&k, &xs, &xs)) {
        assert!(same(x.to_f32(), got), "f16 {:#06x}: {got}", x.to_bits());
    }
    let k = elementwise("widen_bf16", Scalar::BF16, Scalar::F32, |x, _| x);
    let xs: Vec<bf16> = all.iter().map(|&b| bf16::from_bits(b)).collect();
    for (x, got) in xs.iter().zip(run::<bf16, f32>(&k, &xs, &xs)) {
        assert!(same(x.to_f32(), got), "bf16 {:#06x}: {got}", x.to_bits());
    }
}

#[test]
fn f32_narrows_to_nearest_even() {
    let xs = f32_samples((0..u16::MAX).map(|b| f32::from_bits(f16::from_bits(b).to_f32().to_bits() + (1 << 12))));
    let k = elementwise("narrow_f16", Scalar::F32, Scalar::F16, |x, _| x);
    for (x, got) in xs.iter().zip(run::<f32, f16>(&k, &xs, &xs)) {
        assert!(same(f16::from_f32(*x).to_f32(), got.to_f32()), "{x:e} -> f16 {:#06x}", got.to_bits());
    }
    let xs = f32_samples((0..u16::MAX).map(|b| f32::from_bits(bf16::from_bits(b).to_f32().to_bits() + (1 << 15))));
    let k = elementwise("narrow_bf16", Scalar::F32, Scalar::BF16, |x, _| x);
    for (x, got) in xs.iter().zip(run::<f32, bf16>(&k, &xs, &xs)) {
        assert!(same(bf16::from_f32(*x).to_f32(), got.to_f32()), "{x:e} -> bf16 {:#06x}", got.to_bits());
    }
}

#[test]
fn half_arithmetic_is_f32_arithmetic_rounded_once() {
    let n = 70_001;
    let mut rng = 7u64;
    let mut next = move || {
        rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((rng >> 33) as f32 / (1u64 << 31) as f32 - 0.5) * 300.0
    };
    let (xs, ys): (Vec<f32>, Vec<f32>) = (0..n).map(|_| (next(), next())).unzip();
    let ops: [(&str, fn(Val, Val) -> Val, fn(f32, f32) -> f32); 3] =
        [("add", |a, b| a + b, |a, b| a + b), ("mul", |a, b| a * b, |a, b| a * b), ("max", |a, b| maximum(a, b), f32::max)];
    for (name, op, reference) in ops {
        let k = elementwise(&format!("{name}_f16"), Scalar::F16, Scalar::F16, op);
        let (hx, hy): (Vec<f16>, Vec<f16>) = (xs.iter().map(|&v| f16::from_f32(v)).collect(), ys.iter().map(|&v| f16::from_f32(v)).collect());
        for ((a, b), got) in hx.iter().zip(&hy).zip(run::<f16, f16>(&k, &hx, &hy)) {
            let want = f16::from_f32(reference(a.to_f32(), b.to_f32()));
            assert_eq!(want.to_bits(), got.to_bits(), "f16 {a} {name} {b}");
        }
        let k = elementwise(&format!("{name}_bf16"), Scalar::BF16, Scalar::BF16, op);
        let (bx, by): (Vec<bf16>, Vec<bf16>) = (xs.iter().map(|&v| bf16::from_f32(v)).collect(), ys.iter().map(|&v| bf16::from_f32(v)).collect());
        for ((a, b), got) in bx.iter().zip(&by).zip(run::<bf16, bf16>(&k, &bx, &by)) {
            let want = bf16::from_f32(reference(a.to_f32(), b.to_f32()));
            assert_eq!(want.to_bits(), got.to_bits(), "bf16 {a} {name} {b}");
        }
    }
}
