//! Lowering of `shmem` ops: identity from the kernel context, data movement and signals
//! through the runtime's function table, multimem as loops over the node's peers, and the
//! LL protocol as flag-tagged 64-bit words polled with `spin_yield`.

use super::half::cpu_ty;
use super::emit::{num_elem, Cx};
use crate::ir::{Op, OpKind, Scalar, SigOp};
use crate::lower::LowerError;
use weft_runtime::abi::{access, cmp, ctx_offset, flags, sig_op, slot};

fn sig_code(op: SigOp) -> i64 {
    match op {
        SigOp::Set => sig_op::SET as i64,
        SigOp::Add => sig_op::ADD as i64,
    }
}

impl Cx<'_> {
    pub(crate) fn shmem(&mut self, op: Op) -> Result<(), LowerError> {
        let d = self.k.op(op);
        let names: Vec<String> = d.operands.iter().map(|&o| self.name(o)).collect();
        match &d.kind {
            OpKind::MyPe | OpKind::NPes => {
                let off = if d.kind == OpKind::MyPe { ctx_offset::RANK } else { ctx_offset::N_RANKS };
                let v = self.ctx_i32(off);
                self.bind(d.results[0], v);
            }
            OpKind::RemotePtr => {
                let site = self.site(op);
                let (p, r) = (d.operands[0], d.results[0]);
                if !self.ty(p).is_tensor() {
                    let v = self.rt_call(slot::REMOTE_PTR, &[(&names[0], "!llvm.ptr"), (&names[1], "i32"), (&site, "i32")], Some("!llvm.ptr"));
                    self.bind(r, v.unwrap_or_default());
                } else {
                    let delta = self.rt_call(slot::PEER_DELTA, &[(&names[1], "i32"), (&site, "i32")], Some("i64")).unwrap_or_default();
                    if let Some(base) = self.contig.get(&p).cloned() {
                        let g = self.gep(&base, &delta, Scalar::I8);
                        self.contig.insert(r, g);
                    }
                    let n = self.ty(p).numel();
                    let dv = self.broadcast(&delta, "i64", n);
                    let out = self.def(r);
                    self.line(&format!("{out} = arith.addi {}, {dv} : vector<{n}xi64>", names[0]));
                }
            }
            OpKind::Put { scope, nbi } | OpKind::Get { scope, nbi } => {
                let s = if matches!(d.kind, OpKind::Put { .. }) { slot::PUT } else { slot::GET };
                let bytes = self.bytes(&names[2], num_elem(self.ty(d.operands[0])));
                let fl = self.const_int(((*nbi as i32) * flags::NBI | scope.code() << flags::SCOPE_SHIFT) as i64, "i32");
                let site = self.site(op);
                self.rt_call(
                    s,
                    &[(&names[0], "!llvm.ptr"), (&names[1], "!llvm.ptr"), (&bytes, "i64"), (&names[3], "i32"), (&fl, "i32"), (&site, "i32")],
                    None,
                );
            }
            OpKind::PutSignal { scope, nbi, sig_op } => {
                let bytes = self.bytes(&names[2], num_elem(self.ty(d.operands[0])));
                let so = self.const_int(sig_code(*sig_op), "i32");
                let fl = self.const_int(((*nbi as i32) * flags::NBI | scope.code() << flags::SCOPE_SHIFT) as i64, "i32");
                let site = self.site(op);
                self.rt_call(
                    slot::PUT_SIGNAL,
                    &[
                        (&names[0], "!llvm.ptr"),
                        (&names[1], "!llvm.ptr"),
                        (&bytes, "i64"),
                        (&names[3], "!llvm.ptr"),
                        (&names[4], "i64"),
                        (&so, "i32"),
                        (&names[5], "i32"),
                        (&fl, "i32"),
                        (&site, "i32"),
                    ],
                    None,
                );
            }
            OpKind::SignalOp(s) => {
                let so = self.const_int(sig_code(*s), "i32");
                let site = self.site(op);
                self.rt_call(
                    slot::SIGNAL_OP,
                    &[(&names[0], "!llvm.ptr"), (&names[1], "i64"), (&so, "i32"), (&names[2], "i32"), (&site, "i32")],
                    None,
                );
            }
            OpKind::WaitUntil(c) => {
                let code = match c {
                    crate::ir::CmpPred::Eq => cmp::EQ,
                    crate::ir::CmpPred::Ne => cmp::NE,
                    crate::ir::CmpPred::Gt => cmp::GT,
                    crate::ir::CmpPred::Ge => cmp::GE,
                    crate::ir::CmpPred::Lt => cmp::LT,
                    crate::ir::CmpPred::Le => cmp::LE,
                };
                let cc = self.const_int(code as i64, "i32");
                let site = self.site(op);
                let v = self.rt_call(
                    slot::SIGNAL_WAIT_UNTIL,
                    &[(&names[0], "!llvm.ptr"), (&cc, "i32"), (&names[1], "i64"), (&site, "i32")],
                    Some("i64"),
                );
                self.bind(d.results[0], v.unwrap_or_default());
            }
            OpKind::ConsumeToken => {
                // The wait is an opaque call, so nothing after it can be hoisted above it.
                self.bind(d.results[0], names[0].clone());
                self.alias_facts(d.operands[0], d.results[0], true);
            }
            OpKind::Fence | OpKind::Quiet | OpKind::BarrierAll => {
                let s = match d.kind {
                    OpKind::Fence => slot::FENCE,
                    OpKind::Quiet => slot::QUIET,
                    _ => slot::BARRIER_ALL,
                };
                let site = self.site(op);
                self.rt_call(s, &[(&site, "i32")], None);
            }
            OpKind::MultimemLdReduce { mask } => self.multimem_ld_reduce(op, *mask)?,
            OpKind::MultimemSt { mask } => self.multimem_st(op, *mask)?,
            OpKind::LlPack => {
                let n = self.ty(d.operands[0]).numel();
                let w = self.fresh();
                self.line(&format!("{w} = arith.extui {} : vector<{n}xi32> to vector<{n}xi64>", names[0]));
                let f = self.flag_word(&names[1], n);
                let out = self.def(d.results[0]);
                self.line(&format!("{out} = arith.ori {w}, {f} : vector<{n}xi64>"));
            }
            OpKind::LlRecv { mask } => self.ll_recv(op, *mask)?,
            _ => return Err(self.unsupported(op, "no CPU lowering")),
        }
        Ok(())
    }

    fn bytes(&mut self, nelems: &str, elem: Scalar) -> String {
        let sz = self.const_int(elem.bytes() as i64, "i64");
        let b = self.fresh();
        self.line(&format!("{b} = arith.muli {nelems}, {sz} : i64"));
        b
    }

    /// `flag << 32` splat to `n` lanes of i64.
    fn flag_word(&mut self, flag: &str, n: usize) -> String {
        let f64_ = self.fresh();
        self.line(&format!("{f64_} = arith.extui {flag} : i32 to i64"));
        let c32 = self.const_int(32, "i64");
        let sh = self.fresh();
        self.line(&format!("{sh} = arith.shli {f64_}, {c32} : i64"));
        self.broadcast(&sh, "i64", n)
    }

    /// Opens `scf.for` over this node's ranks; returns the peer rank SSA (i32) and the
    /// loop-carried accumulator's name.
    fn peer_loop(&mut self, lhs: &str, iter: Option<(&str, &str)>) -> (String, String) {
        let first = self.node_first_rank();
        let size = self.ctx_i32(ctx_offset::LOCAL_SIZE);
        let (zero, one) = (self.const_int(0, "i32"), self.const_int(1, "i32"));
        let i = self.fresh();
        let acc = self.fresh();
        let it = match iter {
            Some((init, ty)) => format!(" iter_args({acc} = {init}) -> ({ty})"),
            None => String::new(),
        };
        self.line(&format!("{lhs}scf.for {i} = {zero} to {size} step {one}{it} : i32 {{"));
        self.depth += 1;
        let pe = self.fresh();
        self.line(&format!("{pe} = arith.addi {first}, {i} : i32"));
        (pe, acc)
    }

    fn multimem_ld_reduce(&mut self, op: Op, mask: bool) -> Result<(), LowerError> {
        let d = self.k.op(op);
        let p = d.operands[0];
        let s = num_elem(self.ty(p));
        let n = self.ty(p).numel();
        // Half-precision sums accumulate in f32, as multimem.ld_reduce's .acc::f32 does.
        let acc_s = if matches!(s, Scalar::F16 | Scalar::BF16) { Scalar::F32 } else { s };
        let at = format!("vector<{n}x{}>", cpu_ty(acc_s));
        let m = mask.then(|| self.name(d.operands[1]));
        let init = self.zero(&at);
        let site = self.site(op);
        let race = self.racecheck.then(|| site.clone());
        let acc = self.fresh();
        let (pe, carried) = self.peer_loop(&format!("{acc} = "), Some((&init, &at)));
        let delta = self.rt_call(slot::PEER_DELTA, &[(&pe, "i32"), (&site, "i32")], Some("i64")).unwrap_or_default();
        let addr = self.addr_of(p, Some(&delta));
        self.record_access(race.as_deref(), access::READ, &addr, s, n, m.as_deref());
        let v = self.load_from(&addr, s, n, m.as_deref(), None);
        let v = self.convert(&v, s, acc_s, Some(n));
        let next = self.combine(crate::ir::ReduceKind::Sum, &carried, &v, &at, acc_s, Some(n));
        self.line(&format!("scf.yield {next} : {at}"));
        self.depth -= 1;
        self.line("}");
        let out = self.convert(&acc, acc_s, s, Some(n));
        self.bind(d.results[0], out);
        Ok(())
    }

    fn multimem_st(&mut self, op: Op, mask: bool) -> Result<(), LowerError> {
        let d = self.k.op(op);
        let p = d.operands[0];
        let s = num_elem(self.ty(p));
        let n = self.ty(p).numel();
        let v = self.name(d.operands[1]);
        let m = mask.then(|| self.name(d.operands[2]));
        let site = self.site(op);
        let (race, kind) = (self.racecheck.then(|| site.clone()), self.store_kind(d.operands[1]));
        let (pe, _) = self.peer_loop("", None);
        let delta = self.rt_call(slot::PEER_DELTA, &[(&pe, "i32"), (&site, "i32")], Some("i64")).unwrap_or_default();
        let addr = self.addr_of(p, Some(&delta));
        self.record_access(race.as_deref(), kind, &addr, s, n, m.as_deref());
        self.store_to(&addr, &v, s, n, m.as_deref());
        self.depth -= 1;
        self.line("}");
        Ok(())
    }

    fn ll_recv(&mut self, op: Op, mask: bool) -> Result<(), LowerError> {
        let d = self.k.op(op);
        let p = d.operands[0];
        let n = self.ty(p).numel();
        let flag = self.name(d.operands[1]);
        let m = mask.then(|| self.name(d.operands[2]));
        let vt = format!("vector<{n}xi64>");
        let expect = self.flag_word(&flag, n);
        let site = self.site(op);
        let addr = self.addr_of(p, None);
        let first = match &addr {
            super::tile::Addr::Contig(b) | super::tile::Addr::Scalar(b) => b.clone(),
            super::tile::Addr::Lanes(a) => {
                let e = self.fresh();
                self.line(&format!("{e} = vector.extract {a}[0] : i64 from {vt}"));
                let p = self.fresh();
                self.line(&format!("{p} = llvm.inttoptr {e} : i64 to !llvm.ptr"));
                p
            }
        };
        let got = self.fresh();
        self.line(&format!("{got} = scf.while : () -> ({vt}) {{"));
        self.depth += 1;
        // Masked-off lanes read as already flagged.
        let v = self.load_from(&addr, Scalar::I64, n, m.as_deref(), Some(&expect));
        let c32 = self.const_int(32, "i64");
        let c32v = self.broadcast(&c32, "i64", n);
        let hi = self.fresh();
        self.line(&format!("{hi} = arith.shrui {v}, {c32v} : {vt}"));
        let hi_expect = self.fresh();
        self.line(&format!("{hi_expect} = arith.shrui {expect}, {c32v} : {vt}"));
        let ok = self.icmp(crate::ir::CmpPred::Eq, &hi, &hi_expect, &vt);
        let all = self.fresh();
        self.line(&format!("{all} = vector.reduction <and>, {ok} : vector<{n}xi1> into i1"));
        let t = self.fresh();
        self.line(&format!("{t} = arith.constant true"));
        let again = self.fresh();
        self.line(&format!("{again} = arith.xori {all}, {t} : i1"));
        self.line(&format!("scf.if {again} {{"));
        self.depth += 1;
        self.rt_call(slot::SPIN_YIELD, &[(&first, "!llvm.ptr"), (&site, "i32")], None);
        self.depth -= 1;
        self.line("}");
        self.line(&format!("scf.condition({again}) {v} : {vt}"));
        self.depth -= 1;
        self.line("} do {");
        let a = self.fresh();
        self.line(&format!("^bb0({a}: {vt}):"));
        self.line("  scf.yield");
        self.line("}");
        let race = self.racecheck.then_some(site);
        self.record_access(race.as_deref(), access::LL_ACQUIRE, &addr, Scalar::I64, n, m.as_deref());
        let out = self.def(d.results[0]);
        self.line(&format!("{out} = arith.trunci {got} : {vt} to vector<{n}xi32>"));
        Ok(())
    }
}
