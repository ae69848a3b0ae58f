//! Lowering of structured control flow: `scf.for`, `scf.if`, `scf.yield`, `func.return`.

use super::emit::Cx;
use crate::ir::{Op, OpKind};
use crate::lower::LowerError;

impl Cx<'_> {
    pub(crate) fn control(&mut self, op: Op) -> Result<(), LowerError> {
        let d = self.k.op(op);
        let results: Vec<String> = d.results.iter().map(|&r| self.def(r)).collect();
        let res_tys: Vec<String> = d.results.iter().map(|&r| self.vty(r)).collect();
        let lhs = if results.is_empty() { String::new() } else { format!("{} = ", results.join(", ")) };
        match &d.kind {
            OpKind::For => {
                let body = d.regions[0];
                let args = self.k.block(body).args.clone();
                let iv = self.def(args[0]);
                let iters: Vec<String> = args[1..]
                    .iter()
                    .zip(&d.operands[3..])
                    .map(|(&a, &init)| format!("{} = {}", self.def(a), self.name(init)))
                    .collect();
                let iter_part = if iters.is_empty() {
                    String::new()
                } else {
                    format!(" iter_args({}) -> ({})", iters.join(", "), res_tys.join(", "))
                };
                let (lb, ub, st) = (self.name(d.operands[0]), self.name(d.operands[1]), self.name(d.operands[2]));
                let ity = self.vty(d.operands[0]);
                self.line(&format!("{lhs}scf.for {iv} = {lb} to {ub} step {st}{iter_part} : {ity} {{"));
                self.nested(body)?;
                self.line("}");
            }
            OpKind::If => {
                let c = self.name(d.operands[0]);
                let res = if res_tys.is_empty() { String::new() } else { format!(" -> ({})", res_tys.join(", ")) };
                self.line(&format!("{lhs}scf.if {c}{res} {{"));
                self.nested(d.regions[0])?;
                self.line("} else {");
                self.nested(d.regions[1])?;
                self.line("}");
            }
            OpKind::Yield => {
                let names: Vec<String> = d.operands.iter().map(|&o| self.name(o)).collect();
                let tys: Vec<String> = d.operands.iter().map(|&o| self.vty(o)).collect();
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

    fn nested(&mut self, block: crate::ir::Block) -> Result<(), LowerError> {
        self.depth += 1;
        let r = self.block(block);
        self.depth -= 1;
        r
    }
}
