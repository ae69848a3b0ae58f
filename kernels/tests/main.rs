//! Every library collective against its plain-math reference on the `local` transport.

use weft_kernels::{default_constexprs, list, run_collective, RunOptions};
use weft_runtime::{DType, World};

fn check(world: &World, name: &str, elems: usize, dtype: DType, seed: u64) {
    let opts = RunOptions { iters: 2, warmup: 0, constexprs: default_constexprs(name, dtype.name()).unwrap(), seed };
    let r = run_collective(world, name, elems, dtype, &opts)
        .unwrap_or_else(|e| panic!("{name} ranks={} elems={elems} {dtype}: {e}", world.n_ranks()));
    assert!(r.verified, "{name} ranks={} elems={elems} {dtype}: max error {}", world.n_ranks(), r.max_err);
}

#[test]
fn smoke() {
    let world = World::local(3).unwrap();
    for k in list() {
        for dtype in [DType::F32, DType::F16, DType::BF16, DType::I32] {
            for elems in [1usize, 7, 1000] {
                let t = std::time::Instant::now();
                check(&world, k.name, elems, dtype, 1);
                eprintln!("{} {dtype} {elems}: {:?}", k.name, t.elapsed());
            }
        }
    }
}
