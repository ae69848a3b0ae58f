//! AMD matrix cores proven without a GPU: the bf16 / f16 GEMM family compiles for gfx90a and
//! gfx942, links with `ld.lld-22`, and the code object's disassembly (`llvm-objdump-22 -d`)
//! issues `v_mfma` while the K loop (found by LLVM's loop comments in the AMDGCN assembly) has
//! no per-element `v_fma`, and (at the default `num_stages` 3, two LDS buffers: see the
//! compiler's `prefetch_ring`) one barrier per step. Per K-step instruction counts and the
//! register report are printed for the codegen configs (64x64x32 w4, 128x128x64 w8).
//! Execution is checked on the SIMT emulator (`emulator_gemm_shapes`).

use super::gpu::{gpu_kernel, GEMMS};
use std::collections::HashMap;
use weft::compiler::backend::toolchain::llvm_tool;
use weft::compiler::pipeline::{run, Options, Target};

const TARGETS: [&str; 2] = ["gfx90a", "gfx942"];

/// Instructions of a loop, by kind.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Counts {
    total: usize,
    mfma: usize,
    fma: usize,
    ds_read: usize,
    ds_write: usize,
    global_load: usize,
    barrier: usize,
}

impl Counts {
    fn add(&mut self, op: &str) {
        self.total += 1;
        let n = |p: &[&str]| p.iter().any(|x| op.starts_with(x)) as usize;
        self.mfma += n(&["v_mfma"]);
        self.fma += n(&["v_fma_f32", "v_fmac_f32", "v_pk_fma_f32", "v_fma_mix"]);
        self.ds_read += n(&["ds_read"]);
        self.ds_write += n(&["ds_write"]);
        self.global_load += n(&["global_load", "buffer_load"]);
        self.barrier += n(&["s_barrier"]);
    }
}

/// The K loop of AMDGCN assembly `asm`: the loop with the fewest instructions that holds an
/// MFMA (else an FMA), its inner loops included. Loops come from the comments LLVM writes on
/// each block (`=>This Loop Header`, `in Loop: Header=BB0_3`, `Parent Loop BB0_3`).
fn k_loop(asm: &str) -> Option<Counts> {
    let (mut ancestors, mut counts): (HashMap<String, Vec<String>>, HashMap<String, Counts>) = (HashMap::new(), HashMap::new());
    let (mut label, mut cur): (Option<String>, Option<String>) = (None, None);
    let bb = |s: &str| s.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).next().unwrap_or("").to_string();
    for line in asm.lines() {
        if line.starts_with(".LBB") || line.starts_with("; %bb.") {
            label = line.strip_prefix('.').map(|l| bb(&l[1..]));
            cur = None;
        }
        if let Some((_, c)) = line.split_once(';') {
            if let Some(h) = c.split_once("Header=").map(|x| bb(x.1)) {
                cur = Some(h);
            }
            if c.contains("Loop Header:") {
                cur = label.clone();
            }
            if let (Some(p), Some(me)) = (c.split_once("Parent Loop ").map(|x| bb(x.1)), &label) {
                ancestors.entry(me.clone()).or_default().push(p);
            }
            continue;
        }
        let op = line.trim_start();
        if !line.starts_with('\t') || !op.starts_with(|c: char| c.is_ascii_lowercase()) {
            continue;
        }
        if let Some(l) = &cur {
            let mnemonic = op.split_whitespace().next().unwrap_or("");
            for lp in std::iter::once(l).chain(ancestors.get(l).into_iter().flatten()) {
                counts.entry(lp.clone()).or_default().add(mnemonic);
            }
        }
    }
    let pick = |f: fn(&Counts) -> usize| counts.values().filter(|c| f(c) > 0).min_by_key(|c| c.total).cloned();
    pick(|c| c.mfma).or_else(|| pick(|c| c.fma))
}

/// The `.amdhsa_next_free_vgpr` / `.vgpr_count` of the kernel's descriptor and metadata.
fn vgpr_count(asm: &str) -> usize {
    asm.lines().find_map(|l| l.trim().strip_prefix(".vgpr_count:")).and_then(|v| v.trim().parse().ok()).unwrap_or(0)
}

/// Compiles `name` for `target`; returns the K loop's counts, the register summary and
/// `.vgpr_count`, after checking the code object's disassembly holds as many `v_mfma` as the
/// assembly, and some exactly when the operands are 16-bit.
fn compile(name: &str, dtype: &str, target: &str, config: Option<(usize, usize, usize, usize)>) -> (Counts, String, usize) {
    let what = format!("{name} {dtype} {config:?} on {target}");
    let dir = std::env::temp_dir().join(format!("weft-mfma-{}-{name}-{dtype}-{target}-{config:?}", std::process::id()).replace([' ', '(', ')', ','], ""));
    let out = run(&gpu_kernel(name, dtype, target, config), Target::parse(target).unwrap(), None, &Options { dump_dir: Some(dir.clone()), ..Options::default() })
        .unwrap_or_else(|e| panic!("{what}: {e}"));
    let asm = std::fs::read_to_string(dir.join(format!("{}.amdgcn.s", out.symbol))).unwrap_or_else(|e| panic!("{what}: {e}"));
    let elf = dir.join("kernel.hsaco");
    std::fs::write(&elf, out.object.as_deref().expect("a code object")).unwrap();
    let dis = std::process::Command::new(llvm_tool("llvm-objdump").unwrap()).args(["-d", elf.to_str().unwrap()]).output().unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(dis.status.success(), "{what}: llvm-objdump: {}", String::from_utf8_lossy(&dis.stderr));
    let dis = String::from_utf8_lossy(&dis.stdout);
    let in_object = dis.lines().filter(|l| l.trim_start().starts_with("v_mfma_f32_")).count();
    let in_asm = asm.lines().filter(|l| l.trim_start().starts_with("v_mfma_f32_")).count();
    assert!((in_object > 0) == (dtype != "f32") && in_object == in_asm, "{what}: {in_object} v_mfma in the code object, {in_asm} in the assembly");
    let l = k_loop(&asm).unwrap_or_else(|| panic!("{what}: no K loop found"));
    (l, out.amdgpu.expect("a register report").summary(), vgpr_count(&asm))
}

#[test]
fn gemm_family_k_loops_issue_mfma_and_no_fma_on_amd() {
    if let Err(e) = llvm_tool("ld.lld").and(llvm_tool("llvm-objdump")) {
        eprintln!("SKIPPED gemm_family_k_loops_issue_mfma_and_no_fma_on_amd: {e}");
        return;
    }
    let mut jobs = vec![];
    for target in TARGETS {
        for config in [Some((64, 64, 32, 4)), Some((128, 128, 64, 8))] {
            jobs.push(("gemm", "bf16", target, config));
        }
        // Every GEMM at its GPU default (gemm_rs's 32x32 tiles take the 16x16x16 MFMA).
        for name in GEMMS {
            jobs.push((name, if name.ends_with("_ps") { "f16" } else { "bf16" }, target, None));
        }
        // f32 operands stay on the FMA path.
        jobs.push(("gemm", "f32", target, None));
    }
    let failures: Vec<String> = std::thread::scope(|s| {
        let workers: Vec<_> = jobs
            .into_iter()
            .map(|(name, dtype, target, config)| {
                s.spawn(move || {
                    let (l, regs, vgpr_count) = compile(name, dtype, target, config);
                    println!("{name:<10} {dtype} {:<18} {target}: K-step {l:?}; {regs}; .vgpr_count {vgpr_count}", format!("{config:?}"));
                    // bf16 / f16 products run on the matrix cores, none element by element; two
                    // LDS buffers, one barrier a step (128x128x64's swizzled operands take
                    // 32 KiB a buffer).
                    let wrong = if dtype == "f32" { l.mfma > 0 || l.fma == 0 } else { l.mfma == 0 || l.fma > 0 || l.barrier != 1 };
                    wrong.then(|| format!("{name} {dtype} {config:?} on {target}: K loop {l:?}"))
                })
            })
            .collect();
        workers.into_iter().filter_map(|w| w.join().expect("worker")).collect()
    });
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_k_loop_parser_follows_llvms_loop_comments() {
    let asm = "k:\n; %bb.0:\n\tv_fma_f32 v0, v1, v2, v3\n.LBB0_1:                                ; =>This Loop Header: Depth=1\n\
\tv_fma_f32 v0, v1, v2, v3\n.LBB0_2:                                ;   Parent Loop BB0_1 Depth=1\n\
                                        ; =>  This Inner Loop Header: Depth=2\n\tv_mfma_f32_32x32x8_bf16 a[0:15], v[0:1], v[2:3], a[0:15]\n\
\tds_read_b64 v[0:1], v4\n\ts_cbranch_scc1 .LBB0_2\n; %bb.3:                                ;   in Loop: Header=BB0_1 Depth=1\n\
\ts_barrier\n\ts_cbranch_scc1 .LBB0_1\n; %bb.4:\n\ts_endpgm\n";
    // The inner loop holds the MFMA: it is the K loop (3 instructions), not the outer one (6).
    assert_eq!(k_loop(asm), Some(Counts { total: 3, mfma: 1, ds_read: 1, ..Counts::default() }));
    assert_eq!(k_loop(&asm.replace("v_mfma_f32_32x32x8_bf16", "v_add_f32")), Some(Counts { total: 6, fma: 1, ds_read: 1, barrier: 1, ..Counts::default() }));
}

/// The swizzled operands of BLOCK_K 64 (beyond the library's GPU tiles, so lowered here
/// directly) executed on the SIMT emulator at uneven sizes against a naive GEMM: 64x64 over 4
/// wavefronts and 128x128 over 8, both with the prefetching K loop; one buffer at num_stages 1.
#[test]
fn swizzled_mfma_gemms_match_a_naive_gemm_on_the_emulator() {
    use weft::runtime::{LocalOptions, Topology, World};
    let Some(Target::Amd { gfx }) = Target::parse("gfx942") else { unreachable!() };
    let world = World::local_with(LocalOptions { topology: Topology { nodes: 1, local_size: 1 }, emulate: Some("gfx942"), ..LocalOptions::from_env() }).unwrap();
    for (cfg, stages, dims) in [((64, 64, 64, 4), 3, (70, 72, 200)), ((128, 128, 64, 8), 3, (130, 136, 72)), ((64, 64, 64, 4), 1, (40, 96, 136))] {
        let mut k = gpu_kernel("gemm", "bf16", "gfx942", Some(cfg));
        k.constexprs.retain(|(n, _)| n != "num_stages");
        k.constexprs.push(("num_stages".into(), stages.to_string()));
        let gpu = weft::compiler::lower::gpu::lower(&k, &gfx.info()).unwrap_or_else(|e| panic!("{cfg:?}: {e}"));
        assert!(gpu.llvm.contains("@llvm.amdgcn.mfma.f32.32x32x8bf16.1k"), "{cfg:?}");
        let l = weft::emulator::launchable_lowered(&k, gpu, "gfx942", 64, weft::emulator::Checks::from_env()).unwrap_or_else(|e| panic!("{cfg:?}: {e}"));
        crate::naive_gemm::launch_and_check_bf16(&world, &l, [4, 1, 1], dims);
    }
}
