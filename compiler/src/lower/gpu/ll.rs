//! The LL protocol, outside OpenSHMEM: a 32-bit flag packed above each 32-bit data word, so one
//! 8-byte store carries both and a reader polls with volatile loads until every enabled word
//! carries its flag.

use super::emit::Gx;
use crate::ir::{Op, OpKind};
use crate::lower::LowerError;

impl Gx<'_> {
    pub(crate) fn ll(&mut self, op: Op) -> Result<(), LowerError> {
        let d = self.k.op(op);
        match d.kind {
            OpKind::LlPack => {
                let r = d.results[0];
                let (data, flag) = (self.name(d.operands[0]), self.name(d.operands[1]));
                let Some(per) = self.slots(self.ty(r)) else { return Err(self.malformed(op, "ll_pack of a scalar")) };
                let w = self.assign(&format!("zext <{per} x i32> {data} to <{per} x i64>"));
                let hi = self.flag_word(&flag);
                let hv = self.splat(&hi, "i64", per);
                let x = self.assign(&format!("or <{per} x i64> {w}, {hv}"));
                self.ll_words.insert(r);
                self.bind(r, x);
                Ok(())
            }
            OpKind::LlRecv { mask } => {
                let (p, r) = (d.operands[0], d.results[0]);
                self.order_load(p);
                let Some(per) = self.slots(self.ty(r)) else { return Err(self.malformed(op, "ll_recv of a scalar")) };
                let (pn, flag) = (self.name(p), self.name(d.operands[1]));
                let m = mask.then(|| self.name(d.operands[2]));
                let want = self.flag_word(&flag);
                let mut words = Vec::with_capacity(per);
                for i in 0..per {
                    let pi = self.extract(&pn, &format!("<{per} x ptr>"), i);
                    let enabled = match &m {
                        Some(m) => self.extract(m, &format!("<{per} x i1>"), i),
                        None => "true".into(),
                    };
                    let w = self.only_where(
                        &enabled,
                        |g| {
                            // Spin until this word carries the flag; volatile so every poll is
                            // a real load from memory another GPU writes.
                            let (poll, done) = (g.label("ll.poll"), g.label("ll.got"));
                            g.br(&poll);
                            g.start(&poll);
                            let v = g.assign(&g.t.poll_load("i64", &pi, 8));
                            let top = g.assign(&format!("and i64 {v}, -4294967296"));
                            let ok = g.assign(&format!("icmp eq i64 {top}, {want}"));
                            g.cond_br(&ok, &done, &poll);
                            g.start(&done);
                            vec![(v, "i64".into())]
                        },
                        "0",
                    );
                    words.push(w[0].clone());
                }
                let mut v = "poison".to_string();
                for (i, w) in words.iter().enumerate() {
                    let lo = self.assign(&format!("trunc i64 {w} to i32"));
                    v = self.assign(&format!("insertelement <{per} x i32> {v}, i32 {lo}, i64 {i}"));
                }
                self.bind(r, v);
                Ok(())
            }
            _ => Err(self.malformed(op, "not an LL op")),
        }
    }

    /// Stores LL words `v` (`<per x i64>`) through pointers `pn` where `mask` holds, each as
    /// one relaxed system-scope 8-byte atomic store: never a flag without its data (a wider
    /// vector store may tear inside a word), and strong (PTX `st.relaxed.sys`, AMD `sc0 sc1`),
    /// so the peer GPU's volatile polls of the word are not a data race.
    pub(crate) fn ll_store(&mut self, v: &str, pn: &str, mask: &str, per: usize) {
        for i in 0..per {
            let pi = self.extract(pn, &format!("<{per} x ptr>"), i);
            let wi = self.extract(v, &format!("<{per} x i64>"), i);
            let on = if mask == "splat (i1 true)" { "true".to_string() } else { self.extract(mask, &format!("<{per} x i1>"), i) };
            self.only_where(
                &on,
                |g| {
                    g.line(&format!("store atomic i64 {wi}, ptr {pi} monotonic, align 8"));
                    vec![]
                },
                "0",
            );
        }
    }

    /// `flag << 32` as i64.
    fn flag_word(&mut self, flag: &str) -> String {
        let f = self.assign(&format!("zext i32 {flag} to i64"));
        self.assign(&format!("shl i64 {f}, 32"))
    }

}
