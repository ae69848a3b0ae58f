//! The CPU lowering reads the shared axis analysis: a pointer tile carried through a loop and
//! advanced there (which the emitter's own splat/range tracking cannot follow) is still
//! proven contiguous, so it moves as whole vectors, and the sum it feeds matches plain math.

use weft::compiler::dsl::*;
use weft::compiler::ir::Scalar;
use weft::compiler::{Options, Target};
use weft::runtime::{Arg, World};

/// `out[j] = sum_b x[b * 64 + j]` over `blocks` blocks, through a pointer tile advanced by 64
/// elements per iteration.
fn carried_sum() -> weft::compiler::ir::Kernel {
    kernel("carried_sum", &Constexprs::new(), |a| {
        let (x, out) = (a.ptr("x", Scalar::F32), a.ptr("out", Scalar::F32));
        let blocks = a.i32("blocks");
        let p0 = x + arange(0, 64);
        let r = for_range_carry(0i32, blocks, 1i32, &[p0, zeros(&[64], Scalar::F32)], |_, c| vec![c[0] + 64i32, c[1] + load(c[0])]);
        store(out + arange(0, 64), r[1]);
        Ok(())
    })
    .unwrap()
}

#[test]
fn loop_carried_pointer_tiles_load_as_vectors_on_the_cpu() {
    let k = carried_sum();
    let lowered = weft::compiler::pipeline::run(&k, Target::Cpu, Some("lowered"), &Options::default()).unwrap();
    assert!(!lowered.text.contains("masked.gather"), "a carried contiguous tile must not gather:\n{}", lowered.text);
    let world = World::local(1).unwrap();
    let blocks = 5usize;
    let x = world.alloc::<f32>(64 * blocks).unwrap();
    let out = world.alloc::<f32>(64).unwrap();
    let data: Vec<f32> = (0..64 * blocks).map(|i| ((i * 31) % 17) as f32 - 8.0).collect();
    world.write(&x, 0, &data).unwrap();
    let l = weft::compiler::compile(&k, &Options::default()).unwrap().launchable();
    world.launch(&l, [1, 1, 1], &[Arg::from(&x), Arg::from(&out), Arg::I32(blocks as i32)]).unwrap();
    let got = world.read(&out, 0).unwrap();
    for j in 0..64 {
        let want: f32 = (0..blocks).map(|b| data[b * 64 + j]).sum();
        assert_eq!(got[j], want, "lane {j}");
    }
}
