//! Smoke tests of the DSL and the CPU pipeline.

use crate::dsl::*;
use crate::ir::Scalar;
use crate::pipeline::{run, Options, Target};

pub(crate) fn vector_add(block: i64) -> Result<crate::ir::Kernel, DslError> {
    let c = Constexprs::new().with("BLOCK", block);
    kernel("add", &c, |a| {
        let x = a.ptr("x", Scalar::F32);
        let y = a.ptr("y", Scalar::F32);
        let out = a.ptr("out", Scalar::F32);
        let n = a.i32("n");
        let b = c.pow2("BLOCK", 1, 1 << 16)?;
        let offs = program_id(0) * (b as i32) + arange(0, b as i32);
        let mask = offs.lt(n);
        let xv = load_masked(x + offs, mask, 0.0f32);
        let yv = load_masked(y + offs, mask, 0.0f32);
        store_masked(out + offs, xv + yv, mask);
        Ok(())
    })
}

#[test]
fn vector_add_stages() {
    let k = vector_add(64).expect("build");
    let tir = run(&k, Target::Cpu, Some("tir"), &Options::default()).expect("tir");
    assert!(tir.text.contains("tile.load"), "{}", tir.text);
    let asm = run(&k, Target::Cpu, Some("asm"), &Options::default()).expect("asm");
    assert!(asm.text.contains("vaddps") || asm.text.contains("addps"), "{}", asm.text);
    assert!(!asm.text.contains("gather"), "contiguous loads must not gather:\n{}", asm.text);
}

#[test]
#[ignore]
fn dump_vector_add() {
    let k = vector_add(16).expect("build");
    for s in ["tir", "lowered", "asm"] {
        println!("==== {s}\n{}", run(&k, Target::Cpu, Some(s), &Options::default()).expect(s).text);
    }
}

#[test]
fn tir_round_trips_through_import() {
    let k = vector_add(32).expect("build");
    let tir = run(&k, Target::Cpu, Some("tir"), &Options::default()).expect("tir").text;
    let back = crate::pipeline::import_tir(&tir, "add.tir").expect("import");
    let tir2 = run(&back, Target::Cpu, Some("tir"), &Options::default()).expect("tir").text;
    assert_eq!(tir, tir2);
    let low1 = run(&k, Target::Cpu, Some("lowered"), &Options::default()).expect("lowered").text;
    let low2 = run(&back, Target::Cpu, Some("lowered"), &Options::default()).expect("lowered").text;
    assert_eq!(low1, low2);
}
