//! multimem (NVLS) ops on sm_90+: the address is moved into NVSHMEM's multicast mapping of the
//! symmetric heap for the node team (`nvshmemx_mc_ptr`), then each enabled slot is one
//! `multimem.ld_reduce` (the sum over every GPU of the node, in one load) or `multimem.st`
//! (a store to every GPU). Targets without NVLS reject the op.

use super::emit::{num_elem, Gx, LlvmScalar};
use crate::ir::{Op, OpKind, Scalar};
use crate::lower::LowerError;

/// `NVSHMEMX_TEAM_NODE` (nvshmem's `device_host/nvshmem_common.cuh`).
const TEAM_NODE: i32 = 2;

/// PTX type suffix, inline-asm register constraint and zero of a multimem element. 16-bit
/// floats only exist as `.f16x2` / `.bf16x2` pairs in PTX 8.x, which this per-element
/// lowering does not form.
fn ptx_type(s: Scalar) -> Option<(&'static str, &'static str, &'static str)> {
    Some(match s {
        Scalar::F32 => ("f32", "f", "0.0"),
        Scalar::I32 => ("s32", "r", "0"),
        Scalar::I64 => ("u64", "l", "0"),
        _ => return None,
    })
}

impl Gx<'_> {
    pub(crate) fn multimem(&mut self, op: Op) -> Result<(), LowerError> {
        if let Some(why) = self.t.multimem_unsupported() {
            return Err(self.unsupported(op, &why));
        }
        let d = self.k.op(op);
        let p = d.operands[0];
        // The same ordering as plain loads and stores of the buffer (see `memory`).
        if matches!(d.kind, OpKind::MultimemSt { .. }) {
            self.note_store(p);
        } else {
            self.order_load(p);
        }
        let s = num_elem(self.ty(p));
        let Some((pt, reg, zero)) = ptx_type(s) else {
            return Err(self.unsupported(op, &format!("multimem on {} elements needs paired (x2) accesses, not lowered yet; f32, i32 and i64 are", s.mlir())));
        };
        let Some(per) = self.slots(self.ty(p)) else { return Err(self.malformed(op, "multimem on a scalar pointer")) };
        let l = self.layout_of(op, self.ty(p))?;
        let pty = format!("<{per} x ptr>");
        let pn = self.name(p);
        // One symmetric heap, one multicast mapping: each thread translates slot 0 and shifts.
        let p0 = self.extract(&pn, &pty, 0);
        let m0 = self.call("nvshmemx_mc_ptr", "ptr", &[(&TEAM_NODE.to_string(), "i32"), (&p0, "ptr")]).unwrap_or_default();
        self.trap_if_null(&m0);
        let (a, b) = (self.assign(&format!("ptrtoint ptr {p0} to i64")), self.assign(&format!("ptrtoint ptr {m0} to i64")));
        let delta = self.assign(&format!("sub i64 {b}, {a}"));
        let addrs = self.assign(&format!("ptrtoint {pty} {pn} to <{per} x i64>"));
        let dv = self.splat(&delta, "i64", per);
        let mc = self.assign(&format!("add <{per} x i64> {addrs}, {dv}"));
        let bits = s.llvm();
        match d.kind {
            OpKind::MultimemLdReduce { mask } => {
                let m = mask.then(|| self.name(d.operands[1]));
                let asm = format!("multimem.ld_reduce.relaxed.sys.global.add.{pt} $0, [$1];");
                let mut v = "poison".to_string();
                for i in 0..per {
                    let ai = self.extract(&mc, &format!("<{per} x i64>"), i);
                    let on = match &m {
                        Some(m) => self.extract(m, &format!("<{per} x i1>"), i),
                        None => "true".into(),
                    };
                    let got = self.only_where(
                        &on,
                        |g| vec![(g.assign(&format!("call {bits} asm sideeffect \"{asm}\", \"={reg},l\"(i64 {ai})")), bits.to_string())],
                        zero,
                    );
                    v = self.assign(&format!("insertelement <{per} x {bits}> {v}, {bits} {}, i64 {i}", got[0]));
                }
                self.bind(d.results[0], v);
            }
            OpKind::MultimemSt { mask } => {
                let val = self.name(d.operands[1]);
                let mut m = mask.then(|| self.name(d.operands[2]));
                if let Some(own) = self.owner(&l) {
                    // Replicated copies are stored once, by their owner.
                    let o = self.splat(&own, "i1", per);
                    m = Some(match m {
                        Some(m) => self.assign(&format!("and <{per} x i1> {m}, {o}")),
                        None => o,
                    });
                }
                let asm = format!("multimem.st.relaxed.sys.global.{pt} [$0], $1;");
                for i in 0..per {
                    let ai = self.extract(&mc, &format!("<{per} x i64>"), i);
                    let vi = self.extract(&val, &format!("<{per} x {bits}>"), i);
                    let on = match &m {
                        Some(m) => self.extract(m, &format!("<{per} x i1>"), i),
                        None => "true".into(),
                    };
                    self.only_where(
                        &on,
                        |g| {
                            g.line(&format!("call void asm sideeffect \"{asm}\", \"l,{reg}\"(i64 {ai}, {bits} {vi})"));
                            vec![]
                        },
                        "0",
                    );
                }
            }
            _ => return Err(self.malformed(op, "not a multimem op")),
        }
        Ok(())
    }
}
