//! The compile cache: a second compilation of the same kernel loads the cached library.

use weft::compiler::cache;
use weft::compiler::dsl::*;
use weft::compiler::ir::Scalar;

fn scale(k: i64) -> weft::compiler::ir::Kernel {
    kernel("cache_scale", &Constexprs::new().with("K", k), |a| {
        let x = a.ptr("x", Scalar::F32);
        let offs = arange(0, 16);
        store(x + offs, load(x + offs) * (k as f32));
        Ok(())
    })
    .expect("builds")
}

#[test]
fn second_compile_comes_from_the_disk_cache() {
    // A key unique to this process, so an earlier run's cache cannot answer the first call.
    let k = scale(1000 + std::process::id() as i64);
    let first = weft::compile(&k, &weft::Options::default()).expect("compiles");
    assert!(!first.from_disk_cache);
    cache::clear_memory_cache();
    let second = weft::compile(&k, &weft::Options::default()).expect("compiles");
    assert!(second.from_disk_cache, "second compile must load the cached library");
    assert_ne!(cache::cache_key(&scale(1), weft::Target::Cpu), cache::cache_key(&scale(2), weft::Target::Cpu));
}
