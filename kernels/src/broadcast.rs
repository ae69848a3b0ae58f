//! Broadcast from any root: the root pushes each program's chunk to every peer with
//! `put_signal`; the others wait for their chunk's signal.

use crate::common::*;
use weft_compiler::dsl::shmem::*;
use weft_compiler::dsl::*;
use weft_compiler::ir::{Kernel, Scalar};

/// Broadcast in place. Args: `buf, sig[programs], n, root, epoch`.
pub fn broadcast(c: &Constexprs) -> Result<Kernel, DslError> {
    let cfg = Config::from(c)?;
    kernel("broadcast", c, |a| {
        let (buf, sig) = (a.ptr("buf", cfg.t), a.ptr("sig", Scalar::I64));
        let (n, root, epoch) = (a.i64("n"), a.i32("root"), a.i64("epoch"));
        let (me, world) = (my_pe(), n_pes());
        let (start, end) = my_chunk(n);
        let slot = signal_slot(sig, constant(0, Scalar::I32, &[]));
        if_else(
            me.eq_(root),
            || {
                for_range(1, world, 1, |k| push_chunk(buf, start, end, slot, epoch, peer(me, k, world)));
                vec![]
            },
            || {
                let _ = wait_until(slot, Cmp::Ge, epoch);
                vec![]
            },
        );
        Ok(())
    })
}

/// The tuner's search space of `broadcast`.
pub(crate) const TUNE_SPACE: &[crate::tune::Param] = &[crate::tune::Param::all("BLOCK", &["256", "1024", "4096"])];
