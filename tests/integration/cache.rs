//! The compile cache: a second compilation of the same kernel loads the cached library (CPU)
//! or binary (GPU), also from a new process, and a corrupt entry is compiled again.

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

/// A fresh cache directory for one test.
fn temp_cache(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("weft-cache-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// The files of a cache entry, sorted (not the `toolchain/` directory beside them).
fn entry_files(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut f: Vec<_> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).filter(|p| p.is_file()).collect();
    f.sort();
    f
}

#[test]
fn gpu_binaries_come_from_the_disk_cache_and_a_corrupt_entry_is_recompiled() {
    use super::gpu::{gpu_kernel, tools_or_skip};
    if !tools_or_skip("gpu_binaries_come_from_the_disk_cache_and_a_corrupt_entry_is_recompiled") {
        return;
    }
    let dir = temp_cache("gpu");
    let opts = weft::Options::default();
    for (name, target) in [("ag_gemm", "sm_90a"), ("allgather", "gfx942")] {
        let (k, t) = (gpu_kernel(name, "bf16", target, None), weft::Target::parse(target).unwrap());
        let first = cache::compile_gpu_in(&dir, &k, t, &opts).expect("compiles");
        assert!(!first.from_disk_cache && !first.image.is_empty());
        cache::clear_memory_cache();
        let start = std::time::Instant::now();
        let second = cache::compile_gpu_in(&dir, &k, t, &opts).expect("cached");
        println!("{name} {target}: cached lookup {:?}", start.elapsed());
        assert!(second.from_disk_cache, "{name} {target}: second compile must come from the disk cache");
        assert_eq!((&second.image, &second.symbol, &second.text), (&first.image, &first.symbol, &first.text));
        assert_eq!((&second.ptxas, &second.amdgpu), (&first.ptxas, &first.amdgpu));
        assert!(second.ptxas.is_some() || second.amdgpu.is_some(), "{name} {target}: the report is kept");
        // A flipped byte of the binary: the entry is not trusted, the kernel compiled again.
        let image = entry_files(&dir).into_iter().find(|p| p.extension().is_some_and(|e| e == "cubin" || e == "hsaco") && p.to_string_lossy().contains(name)).unwrap();
        let mut bytes = std::fs::read(&image).unwrap();
        bytes[100] ^= 0xff;
        std::fs::write(&image, &bytes).unwrap();
        cache::clear_memory_cache();
        let third = cache::compile_gpu_in(&dir, &k, t, &opts).expect("recompiles");
        assert!(!third.from_disk_cache && third.image == first.image, "{name} {target}: a corrupt entry must be recompiled");
        assert_eq!(std::fs::read(&image).unwrap(), first.image, "the entry is rewritten");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_second_cli_gpu_compile_is_a_cache_hit() {
    use super::gpu::tools_or_skip;
    if !tools_or_skip("a_second_cli_gpu_compile_is_a_cache_hit") {
        return;
    }
    let dir = temp_cache("cli");
    let run = |out: &std::path::Path| {
        let start = std::time::Instant::now();
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_weft"))
            .args(["compile", "ag_gemm", "--target", "sm_90a", "--dtype", "bf16", "--emit", "cubin", "-o"])
            .arg(out)
            .env("WEFT_CACHE_DIR", &dir)
            .output()
            .expect("weft runs");
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        (String::from_utf8_lossy(&o.stdout).into_owned(), std::fs::read(out).unwrap(), start.elapsed())
    };
    let (a, b) = (dir.with_extension("a.cubin"), dir.with_extension("b.cubin"));
    let (report, cubin, cold) = run(&a);
    let stamps = |files: Vec<std::path::PathBuf>| files.iter().map(|f| std::fs::metadata(f).unwrap().modified().unwrap()).collect::<Vec<_>>();
    let (files, written) = (entry_files(&dir), stamps(entry_files(&dir)));
    assert_eq!(files.len(), 2, "one entry: the cubin and its meta file: {files:?}");
    let prepared = std::fs::read_dir(dir.join("toolchain")).map_or(0, |d| d.count());
    assert_eq!(prepared, 1, "NVSHMEM's library prepared for ag_gemm's references, in the toolchain cache");
    let (report2, cubin2, cached) = run(&b);
    println!("weft compile ag_gemm --target sm_90a --emit cubin: cold {cold:?}, cached {cached:?}");
    assert_eq!((report2, cubin2), (report, cubin), "the cached compile gives the same report and cubin");
    assert_eq!(stamps(entry_files(&dir)), written, "the second process read the entry and wrote nothing");
    for f in [a, b] {
        let _ = std::fs::remove_file(f);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn one_compile_entry_serves_cpu_and_gpu_and_keys_on_the_argument_facts() {
    use weft::compiler::analysis::Specialization;
    use weft::compiler::cache::{compile_variant, Compiled};
    // Unique per process, so an earlier run's cache cannot answer the first compile.
    let c = Constexprs::new().with("BLOCK", 256).with("SALT", std::process::id() as i64);
    let k = kernel("variant_copy", &c, |a| {
        let (x, y, n) = (a.ptr("x", Scalar::F32), a.ptr("y", Scalar::F32), a.i32("n"));
        let offs = program_id(0) * 256 + arange(0, 256);
        let mask = offs.lt(n);
        store_masked(y + offs, load_masked(x + offs, mask, 0.0f32), mask);
        Ok(())
    })
    .expect("builds");
    let (general, facts) = (Specialization::of(&k), Specialization { div16: vec![true; 3], ..Default::default() });
    assert!(general.is_general());
    let opts = weft::Options::default();
    let Compiled::Cpu(cpu) = compile_variant(&k, weft::Target::Cpu, &facts, &opts).expect("compiles for the CPU") else { panic!("CPU code expected") };
    assert_eq!(cpu.name, "variant_copy");
    // The facts are part of the key: the two variants are two entries, on every target.
    for t in [weft::Target::Cpu, weft::Target::parse("sm_80").unwrap()] {
        assert_ne!(cache::cache_key(&facts.apply(&k), t), cache::cache_key(&general.apply(&k), t), "{t:?}");
    }
    if !super::gpu::tools_or_skip("one_compile_entry_serves_cpu_and_gpu_and_keys_on_the_argument_facts") {
        return;
    }
    let sm80 = weft::Target::parse("sm_80").unwrap();
    let gpu = |s: &Specialization| match compile_variant(&k, sm80, s, &opts).expect("compiles for sm_80") {
        Compiled::Gpu(b) => b,
        Compiled::Cpu(_) => panic!("a GPU binary expected"),
    };
    let (g, f) = (gpu(&general), gpu(&facts));
    assert!(!g.from_disk_cache && !f.from_disk_cache);
    assert_ne!(g.image, f.image, "the specialized variant is its own binary");
    cache::clear_memory_cache();
    let again = gpu(&facts);
    assert!(again.from_disk_cache && again.image == f.image, "the specialized variant comes back from the disk cache");
}
