//! Axis info of every value of a kernel: the transfer functions of [`super::axis_info`]
//! applied op by op, loops iterated until their carried facts are stable, kernel arguments
//! seeded from the variant's [`Specialization`].

use super::axis_info::AxisInfo;
use super::specialize::{Specialization, DIVISOR};
use crate::ir::{BinOp, Block, CmpPred, ConstVal, Elem, Kernel, OpKind, Value};
use std::collections::HashMap;

/// Axis info per value of one kernel.
#[derive(Clone, Debug, Default)]
pub struct AxisInfos {
    map: HashMap<Value, AxisInfo>,
}

impl AxisInfos {
    /// Analyses `k` under the facts of its specialization.
    pub fn analyze(k: &Kernel) -> AxisInfos {
        let spec = Specialization::of(k);
        let mut a = AxisInfos::default();
        for (i, p) in k.params.iter().enumerate() {
            let div = if spec.assumes(i) { DIVISOR } else { 1 };
            a.map.insert(p.value, AxisInfo::uniform(&[], div));
        }
        a.block(k, k.body);
        a
    }

    /// The facts of `v` (nothing known when it was not analysed).
    pub fn get(&self, k: &Kernel, v: Value) -> AxisInfo {
        self.map.get(&v).cloned().unwrap_or_else(|| AxisInfo::unknown(k.ty(v).shape().len()))
    }

    fn set(&mut self, v: Value, i: AxisInfo) {
        self.map.insert(v, i);
    }

    fn block(&mut self, k: &Kernel, b: Block) {
        for &op in &k.block(b).ops {
            self.op(k, op);
        }
    }

    fn op(&mut self, k: &Kernel, op: crate::ir::Op) {
        let d = k.op(op);
        let Some(&r) = d.results.first() else {
            for &region in &d.regions {
                self.block(k, region);
            }
            return;
        };
        let shape = k.ty(r).shape().to_vec();
        let ins: Vec<AxisInfo> = d.operands.iter().map(|&o| self.get(k, o)).collect();
        let same_rank = |i: &AxisInfo| i.rank() == shape.len().max(1);
        let info = match &d.kind {
            OpKind::Const(ConstVal::Int(c)) => AxisInfo::constant(&shape, *c),
            OpKind::Const(ConstVal::Float(_)) => AxisInfo::uniform(&shape, 1),
            OpKind::MakeRange(s, e) => AxisInfo::range(*s as i64, *e as i64),
            OpKind::Splat => ins[0].splat(&shape),
            OpKind::Broadcast => ins[0].broadcast(k.ty(d.operands[0]).shape(), &shape),
            OpKind::ExpandDims(axis) => ins[0].expand_dims(*axis as usize),
            OpKind::Binary(BinOp::Add) => AxisInfo::add(&ins[0], &ins[1], false, 1),
            OpKind::Binary(BinOp::Sub) => AxisInfo::add(&ins[0], &ins[1], true, 1),
            OpKind::Binary(BinOp::Mul) => AxisInfo::mul(&ins[0], &ins[1]),
            OpKind::Cmp(CmpPred::Lt | CmpPred::Ge) => AxisInfo::less_than(&ins[0], &ins[1]),
            OpKind::Cmp(CmpPred::Gt | CmpPred::Le) => AxisInfo::less_than(&ins[1], &ins[0]),
            OpKind::AddPtr => {
                let bytes = pointee_bytes(k.ty(d.operands[0]));
                AxisInfo::add(&ins[0], &ins[1], false, bytes as u64)
            }
            OpKind::PtrCast => {
                let same = pointee_bytes(k.ty(d.operands[0])) == pointee_bytes(k.ty(r));
                ins[0].recast(same)
            }
            OpKind::Cast(crate::ir::CastKind::Convert) => {
                let (from, to) = (k.ty(d.operands[0]).elem(), k.ty(r).elem());
                match (from, to) {
                    // Sign extension keeps every integer fact.
                    (Some(Elem::Num(f)), Some(Elem::Num(t))) if f.is_int() && t.is_int() && t.bits() >= f.bits() && f.bits() > 1 => ins[0].clone(),
                    (Some(Elem::Num(f)), Some(Elem::Num(t))) if f.is_int() && t.is_int() && t.bits() >= 32 => ins[0].truncated(),
                    _ => AxisInfo::elementwise(&[&ins[0]]),
                }
            }
            OpKind::ConsumeToken => ins[0].clone(),
            OpKind::RemotePtr => {
                // The peer's copy is the same offset in another heap: runs survive, alignment
                // is the heap's (unknown here).
                let mut i = ins[0].clone();
                i.divisibility = vec![1; i.rank()];
                i
            }
            OpKind::Load { .. } if !ins.is_empty() => ins[0].loaded(),
            OpKind::For => {
                self.for_loop(k, d);
                return;
            }
            OpKind::If => {
                self.if_op(k, d);
                return;
            }
            _ if !d.regions.is_empty() => {
                for &region in &d.regions {
                    self.block(k, region);
                }
                AxisInfo::unknown(shape.len())
            }
            OpKind::Binary(_) | OpKind::Cmp(_) | OpKind::Select | OpKind::Unary(_) | OpKind::Cast(_) => {
                let refs: Vec<&AxisInfo> = ins.iter().filter(|i| same_rank(i)).collect();
                AxisInfo::elementwise(&refs)
            }
            _ => AxisInfo::unknown(shape.len()),
        };
        let info = if same_rank(&info) { info } else { AxisInfo::unknown(shape.len()) };
        for &res in &d.results {
            self.set(res, info.clone());
        }
    }

    /// `scf.for`: the induction variable is `lb + i * step`; carried values start as their
    /// inits and are joined with what the body yields until nothing changes.
    fn for_loop(&mut self, k: &Kernel, d: &crate::ir::OpData) {
        let body = k.block(d.regions[0]);
        let (lb, step) = (self.get(k, d.operands[0]), self.get(k, d.operands[2]));
        self.set(body.args[0], AxisInfo::uniform(&[], lb.div_all().min(step.div_all())));
        let inits: Vec<AxisInfo> = d.operands[3..].iter().map(|&v| self.get(k, v)).collect();
        for (i, init) in inits.iter().enumerate() {
            self.set(body.args[i + 1], init.clone());
        }
        // Facts only shrink, each at most ~30 times per dimension; a few rounds settle.
        for _ in 0..8 {
            self.block(k, d.regions[0]);
            let Some(&y) = body.ops.last() else { break };
            let mut changed = false;
            for (i, &yv) in k.op(y).operands.iter().enumerate() {
                let arg = body.args[i + 1];
                let joined = AxisInfo::join(&self.get(k, arg), &self.get(k, yv));
                if joined != self.get(k, arg) {
                    self.set(arg, joined);
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        for (i, &r) in d.results.iter().enumerate() {
            let a = self.get(k, body.args[i + 1]);
            self.set(r, a);
        }
    }

    fn if_op(&mut self, k: &Kernel, d: &crate::ir::OpData) {
        let mut yields: Vec<Vec<AxisInfo>> = vec![];
        for &region in &d.regions {
            self.block(k, region);
            if let Some(&y) = k.block(region).ops.last() {
                yields.push(k.op(y).operands.iter().map(|&v| self.get(k, v)).collect());
            }
        }
        for (i, &r) in d.results.iter().enumerate() {
            let mut it = yields.iter().filter_map(|y| y.get(i));
            let first = it.next().cloned().unwrap_or_else(|| AxisInfo::unknown(k.ty(r).shape().len()));
            let info = it.fold(first, |a, b| AxisInfo::join(&a, b));
            self.set(r, info);
        }
    }
}

/// Bytes of a pointer tile's pointee (`i1` is stored as a byte).
fn pointee_bytes(t: &crate::ir::Type) -> usize {
    match t.elem() {
        Some(Elem::Ptr(s)) | Some(Elem::Num(s)) => s.bytes(),
        None => 8,
    }
}
