//! One bf16 GEMM launch checked against a naive GEMM, shared by the emulator tests that run a
//! lowered GEMM directly (outside the library's `prepare_matmul`).

use half::bf16;
use weft::runtime::{Arg, Launchable, World};

/// Launches `l` (arguments `a, b, c, m, n, k`) on `grid` with exact bf16 inputs and checks
/// every element of C against the naive GEMM.
pub(crate) fn launch_and_check_bf16(world: &World, l: &Launchable, grid: [u32; 3], (m, n, kk): (usize, usize, usize)) {
    // Multiples of 1/8: the f32 sums are exact, the only error the result's rounding to bf16.
    let val = |i: usize, s: usize| bf16::from_f32(((i * s % 17) as f32 - 8.0) / 8.0);
    let a: Vec<bf16> = (0..m * kk).map(|i| val(i, 7)).collect();
    let b: Vec<bf16> = (0..kk * n).map(|i| val(i, 5)).collect();
    let (ab, bb, cb) = (world.alloc::<bf16>(m * kk).unwrap(), world.alloc::<bf16>(kk * n).unwrap(), world.alloc::<bf16>(m * n).unwrap());
    world.write(&ab, 0, &a).unwrap();
    world.write(&bb, 0, &b).unwrap();
    let args = [Arg::Buf(World::raw(&ab)), Arg::Buf(World::raw(&bb)), Arg::Buf(World::raw(&cb)), Arg::I64(m as i64), Arg::I64(n as i64), Arg::I64(kk as i64)];
    world.launch(l, grid, &args).unwrap();
    let got = world.read(&cb, 0).unwrap();
    for i in 0..m {
        for j in 0..n {
            let want: f32 = (0..kk).map(|p| a[i * kk + p].to_f32() * b[p * n + j].to_f32()).sum();
            let g = got[i * n + j].to_f32();
            assert!((g - want).abs() <= want.abs() / 128.0 + 1e-6, "C[{i}][{j}] = {g}, naive GEMM {want}");
        }
    }
}
