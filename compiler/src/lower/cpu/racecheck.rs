//! Race-check instrumentation (`Options::racecheck`): before each tile load or store of global
//! memory the kernel tells the runtime which lanes it touches (`RtFns::access`), so `local`'s
//! race detector checks compiled accesses as it checks shmem ops, naming the DSL line of the
//! load or store. A store of `ll_pack`ed words is a write and a release, a finished `ll_recv`
//! an acquire (of every LL release so far: it can hide a race, never invent one) and a read of
//! its words. Off by default: it costs a runtime call per tile access.

use super::emit::Cx;
use super::tile::Addr;
use crate::ir::{Op, OpKind, Scalar, Value};
use weft_runtime::abi::{access, slot};

/// The stack buffer every access call passes its lane addresses or mask bytes in (one per
/// kernel, sized for the widest access; the runtime reads it before the call returns).
const BUF: &str = "%race_buf";

impl Cx<'_> {
    /// The site of `op`'s accesses, when race checks are compiled in.
    pub(crate) fn race_site(&mut self, op: Op) -> Option<String> {
        self.racecheck.then(|| self.site(op))
    }

    /// What a store of `v` is to the detector: LL words are a write that releases, anything
    /// else a plain write.
    pub(crate) fn store_kind(&self, v: Value) -> i32 {
        let ll = self.k.ops.iter().any(|o| o.kind == OpKind::LlPack && o.results.first() == Some(&v));
        if ll {
            access::LL_RELEASE
        } else {
            access::WRITE
        }
    }

    /// Tells the runtime of an access of `kind` to the `n` lanes of `elem` at `addr` under
    /// `mask`, at `site` (nothing when race checks are off).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn record_access(&mut self, site: Option<&str>, kind: i32, addr: &Addr, elem: Scalar, n: usize, mask: Option<&str>) {
        let Some(site) = site else { return };
        let null = self.zero("!llvm.ptr");
        let count = self.const_int(n as i64, "i64");
        let (base, lanes, on, count) = match addr {
            Addr::Scalar(p) => {
                let count = match mask {
                    Some(m) => {
                        let (z, c) = (self.const_int(0, "i64"), self.fresh());
                        self.line(&format!("{c} = arith.select {m}, {count}, {z} : i64"));
                        c
                    }
                    None => count,
                };
                (self.ptr_to_int(p), null.clone(), null, count)
            }
            Addr::Contig(p) => {
                let on = match mask {
                    Some(m) => {
                        let b = self.fresh();
                        self.line(&format!("{b} = arith.extui {m} : vector<{n}xi1> to vector<{n}xi8>"));
                        self.spill(&b, &format!("vector<{n}xi8>"), n)
                    }
                    None => null.clone(),
                };
                (self.ptr_to_int(p), null, on, count)
            }
            Addr::Lanes(a) => {
                // Lanes that are off pass address 0.
                let vt = format!("vector<{n}xi64>");
                let live = match mask {
                    Some(m) => {
                        let (z, s) = (self.fresh(), self.fresh());
                        self.line(&format!("{z} = arith.constant dense<0> : {vt}"));
                        self.line(&format!("{s} = arith.select {m}, {a}, {z} : vector<{n}xi1>, {vt}"));
                        s
                    }
                    None => a.clone(),
                };
                let lanes = self.spill(&live, &vt, 8 * n);
                (self.const_int(0, "i64"), lanes, null, count)
            }
        };
        let bytes = self.const_int(elem.bytes() as i64, "i64");
        self.access_call(&base, &lanes, &on, &count, &bytes, kind, site);
    }

    /// Declares the lane buffer in the entry block, once the widest access is known.
    pub(crate) fn finish_racecheck(&mut self) {
        if self.race_buf > 0 {
            self.alloca_named(BUF, Scalar::I8, self.race_buf);
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn access_call(&mut self, base: &str, lanes: &str, on: &str, count: &str, bytes: &str, kind: i32, site: &str) {
        let k = self.const_int(kind as i64, "i32");
        let args = [(base, "i64"), (lanes, "!llvm.ptr"), (on, "!llvm.ptr"), (count, "i64"), (bytes, "i64"), (k.as_str(), "i32"), (site, "i32")];
        self.rt_call(slot::ACCESS, &args, None);
    }

    fn ptr_to_int(&mut self, p: &str) -> String {
        let r = self.fresh();
        self.line(&format!("{r} = llvm.ptrtoint {p} : !llvm.ptr to i64"));
        r
    }

    /// Stores `v` (of type `vt`, `bytes` long) into the lane buffer and returns the buffer.
    fn spill(&mut self, v: &str, vt: &str, bytes: usize) -> String {
        self.race_buf = self.race_buf.max(bytes);
        self.line(&format!("llvm.store {v}, {BUF} {{alignment = 64 : i64}} : {vt}, !llvm.ptr"));
        BUF.to_string()
    }
}

#[cfg(test)]
mod tests {
    use crate::dsl::shmem::*;
    use crate::dsl::*;
    use crate::ir::Scalar;
    use weft_runtime::abi::{access, slot};

    /// One kernel with every kind of global access: contiguous (masked and not), gathered,
    /// scalar, 2-D row-wise, multimem, an LL store and an `ll_recv`.
    fn every_access() -> crate::ir::Kernel {
        kernel("every_access", &Constexprs::new(), |a| {
            let (x, ll, n) = (a.ptr("x", Scalar::F32), a.ptr("ll", Scalar::I64), a.i64("n"));
            let offs = arange(0, 16);
            let m = offs.to(Scalar::I64).lt(n);
            let v = load(x + offs);
            store_masked(x + offs, v, m);
            let g = load_masked(x + offs * 3, m, 0.0f32);
            store(x + 100, sum(g, 0));
            let rows = expand_dims(arange(0, 4), 1) * 32 + expand_dims(arange(0, 8), 0);
            store(x + rows, zeros(&[4, 8], Scalar::F32));
            multimem_st(x + offs, v, None);
            store_masked(remote_ptr(ll + offs, 1), ll_pack(offs, 7), m);
            let _ = ll_recv(ll + offs, 7, Some(m));
            Ok(())
        })
        .expect("kernel builds")
    }

    fn access_calls(text: &str) -> usize {
        text.matches(&format!("%fns[{}]", slot::ACCESS)).count()
    }

    #[test]
    fn every_global_access_is_reported_once_and_only_with_race_checks() {
        let k = every_access();
        let plain = crate::lower::cpu::lower(&k, false, 8).expect("lowers");
        assert_eq!(access_calls(&plain.mlir), 0);
        let checked = crate::lower::cpu::lower(&k, true, 8).expect("lowers");
        // 2 loads, 4 stores (one of LL words), the multimem store (one call in its peer loop)
        // and the ll_recv.
        assert_eq!(access_calls(&checked.mlir), 8, "{}", checked.mlir);
        let ops: Vec<&str> = checked.sites.iter().map(|s| s.op.as_str()).collect();
        assert_eq!(ops.iter().filter(|o| **o == "tile.load").count(), 2, "{ops:?}");
        assert_eq!(ops.iter().filter(|o| **o == "tile.store").count(), 4, "{ops:?}");
        // Only the LL store releases, and the lane buffer is declared once.
        let kind = |c: i32| format!("arith.constant {c} : i32");
        assert!(checked.mlir.contains(&kind(access::LL_RELEASE)) && checked.mlir.contains(&kind(access::LL_ACQUIRE)));
        assert_eq!(checked.mlir.matches("%race_buf = llvm.alloca").count(), 1);
    }

    #[test]
    fn race_checked_code_is_its_own_cache_entry() {
        use crate::cache::{cache_key, cpu_cache_key};
        use crate::pipeline::{Options, Target};
        let k = every_access();
        let plain = Options::default();
        let checked = Options { racecheck: true, ..Options::default() };
        assert_eq!(cpu_cache_key(&k, &plain), cache_key(&k, Target::Cpu));
        assert_ne!(cpu_cache_key(&k, &plain), cpu_cache_key(&k, &checked));
        let model = |racecheck| Options { cpu: Some("x86-64-v3".into()), racecheck, ..Options::default() };
        assert_ne!(cpu_cache_key(&k, &model(false)), cpu_cache_key(&k, &model(true)));
    }
}
