//! Lowering of structured control flow: `scf.for`, `scf.if`, `scf.yield`, `func.return`.

use super::emit::{num_elem, Cx};
use crate::ir::{Elem, Op, OpKind, Scalar, Value};
use crate::lower::LowerError;

/// Loop-carried tiles of at least this many lanes live in memory (see `carry_in_memory`).
const CARRY_IN_MEMORY_LANES: usize = 2048;

impl Cx<'_> {
    pub(crate) fn control(&mut self, op: Op) -> Result<(), LowerError> {
        let d = self.k.op(op);
        match &d.kind {
            OpKind::For => {
                let body = d.regions[0];
                let args = self.k.block(body).args.clone();
                let iv = self.def(args[0]);
                let bufs: Vec<Option<String>> = args[1..].iter().zip(&d.operands[3..]).map(|(&a, &init)| self.carry_in_memory(a, init)).collect();
                let mut iters = vec![];
                let (mut lhs, mut tys) = (vec![], vec![]);
                for (i, (&a, &init)) in args[1..].iter().zip(&d.operands[3..]).enumerate() {
                    if bufs[i].is_none() {
                        iters.push(format!("{} = {}", self.def(a), self.name(init)));
                        lhs.push(self.def(d.results[i]));
                        tys.push(self.vty(d.results[i]));
                    }
                }
                let lhs = if lhs.is_empty() { String::new() } else { format!("{} = ", lhs.join(", ")) };
                let iter_part = if iters.is_empty() { String::new() } else { format!(" iter_args({}) -> ({})", iters.join(", "), tys.join(", ")) };
                let (lb, ub, st) = (self.name(d.operands[0]), self.name(d.operands[1]), self.name(d.operands[2]));
                let ity = self.vty(d.operands[0]);
                self.line(&format!("{lhs}scf.for {iv} = {lb} to {ub} step {st}{iter_part} : {ity} {{"));
                self.depth += 1;
                for (i, (&a, buf)) in args[1..].iter().zip(&bufs).enumerate() {
                    if let Some(buf) = buf {
                        self.load_carried(a, buf);
                        self.carried_args.insert(a, (body, i));
                    }
                }
                self.depth -= 1;
                self.carried.push(Some(bufs.clone()));
                let r = self.nested(body);
                self.carried.pop();
                r?;
                self.line("}");
                for (&res, buf) in d.results.iter().zip(&bufs) {
                    if let Some(buf) = buf {
                        self.load_carried(res, buf);
                    }
                }
            }
            OpKind::If => {
                let results: Vec<String> = d.results.iter().map(|&r| self.def(r)).collect();
                let res_tys: Vec<String> = d.results.iter().map(|&r| self.vty(r)).collect();
                let lhs = if results.is_empty() { String::new() } else { format!("{} = ", results.join(", ")) };
                let c = self.name(d.operands[0]);
                let res = if res_tys.is_empty() { String::new() } else { format!(" -> ({})", res_tys.join(", ")) };
                self.line(&format!("{lhs}scf.if {c}{res} {{"));
                self.carried.push(None);
                let r = self.nested(d.regions[0]).and_then(|_| {
                    self.line("} else {");
                    self.nested(d.regions[1])
                });
                self.carried.pop();
                r?;
                self.line("}");
            }
            OpKind::Yield => {
                let bufs = self.carried.last().cloned().flatten().unwrap_or_default();
                let (mut names, mut tys) = (vec![], vec![]);
                for (i, &o) in d.operands.iter().enumerate() {
                    match bufs.get(i).cloned().flatten() {
                        Some(buf) => self.store_carried(o, &buf),
                        None => {
                            names.push(self.name(o));
                            tys.push(self.vty(o));
                        }
                    }
                }
                if names.is_empty() {
                    self.line("scf.yield");
                } else {
                    self.line(&format!("scf.yield {} : {}", names.join(", "), tys.join(", ")));
                }
            }
            OpKind::Return => self.line("return"),
            _ => return Err(self.malformed(op, "not a control-flow op")),
        }
        Ok(())
    }

    /// A buffer for loop-carried value `arg` (initially `init`) when it is a tile large enough
    /// that carrying it as one SSA vector would make straight-line code of thousands of
    /// instructions per iteration (a phi, a store and a load of the whole tile): it lives in
    /// memory instead, and `dot` accumulates into it in place.
    fn carry_in_memory(&mut self, arg: Value, init: Value) -> Option<String> {
        let t = self.ty(arg);
        let s = match t.elem() {
            Some(Elem::Num(s)) if t.is_tensor() && t.numel() >= CARRY_IN_MEMORY_LANES && s != Scalar::I1 => s,
            _ => return None,
        };
        let buf = self.alloca(s, t.numel());
        self.store_carried(init, &buf);
        Some(buf)
    }

    /// Binds `v` to the tile in `buf` (the SSA load is dead when every user reads `buf`).
    fn load_carried(&mut self, v: Value, buf: &str) {
        let vt = self.vty(v);
        let n = self.def(v);
        self.line(&format!("{n} = llvm.load {buf} {{alignment = 64 : i64}} : !llvm.ptr -> {vt}"));
        self.mem.insert(v, buf.to_string());
    }

    /// Writes tile `v` into `buf`: nothing when it already lives there, a copy when it lives in
    /// another buffer, a store otherwise.
    fn store_carried(&mut self, v: Value, buf: &str) {
        match self.mem.get(&v).cloned() {
            Some(src) if src == buf => {}
            Some(src) => {
                let t = self.ty(v);
                let bytes = t.numel() * num_elem(t).bytes();
                let len = self.const_int(bytes as i64, "i64");
                self.line(&format!("\"llvm.intr.memcpy\"({buf}, {src}, {len}) <{{isVolatile = false}}> : (!llvm.ptr, !llvm.ptr, i64) -> ()"));
            }
            None => {
                let (name, vt) = (self.name(v), self.vty(v));
                self.line(&format!("llvm.store {name}, {buf} {{alignment = 64 : i64}} : {vt}, !llvm.ptr"));
            }
        }
    }

    /// Whether `r`, computed from carried argument `acc`, may be computed in `acc`'s buffer:
    /// `acc` has no other reader and `r` is what the loop carries into `acc`'s next iteration.
    pub(crate) fn updates_in_place(&self, acc: Value, r: Value) -> bool {
        let Some(&(body, pos)) = self.carried_args.get(&acc) else { return false };
        let readers = self.k.ops.iter().map(|o| o.operands.iter().filter(|&&x| x == acc).count()).sum::<usize>();
        let yields_r = self.k.block(body).ops.last().is_some_and(|&y| {
            let y = self.k.op(y);
            matches!(y.kind, OpKind::Yield) && y.operands.get(pos) == Some(&r)
        });
        readers == 1 && yields_r
    }

    fn nested(&mut self, block: crate::ir::Block) -> Result<(), LowerError> {
        self.depth += 1;
        let r = self.block(block);
        self.depth -= 1;
        r
    }
}
