//! Choosing an implementation by buffer size, as the msccl runtime does: the first matching
//! registration of a [`SelectionTable`] runs as an MSCCL algorithm; outside every registered
//! range the library's own kernel runs.

use super::{prepare_msccl, MscclOptions, PreparedMsccl};
use crate::run::{prepare, Prepared};
use crate::KernelError;
use std::time::Duration;
use weft_compiler::msccl::algorithms::{self, AlgoParams};
use weft_compiler::msccl::{xml, CollectiveKind, MscclIr, Registration, SelectionTable};
use weft_runtime::World;

/// What [`prepare_selected`] chose.
pub enum Selected {
    /// A registered MSCCL algorithm.
    Msccl(Box<PreparedMsccl>),
    /// The library kernel of that name (no registration matched).
    Library {
        /// Kernel name.
        kernel: &'static str,
        /// The prepared kernel.
        run: Box<Prepared>,
    },
}

impl Selected {
    /// What runs: the MSCCL algorithm's name, or `library:<kernel>`.
    pub fn name(&self) -> String {
        match self {
            Selected::Msccl(p) => p.name.clone(),
            Selected::Library { kernel, .. } => format!("library:{kernel}"),
        }
    }

    /// Writes fresh inputs, launches once, and checks against the plain math.
    pub fn verify_after_launch(&mut self, seed: u64) -> Result<(bool, f64), KernelError> {
        match self {
            Selected::Msccl(p) => p.verify_after_launch(seed),
            Selected::Library { run, .. } => {
                run.seed(seed)?;
                run.verify_after_launch()
            }
        }
    }

    /// Launches once; returns its wall time.
    pub fn launch(&mut self) -> Result<Duration, KernelError> {
        match self {
            Selected::Msccl(p) => Ok(p.launch()?.elapsed),
            Selected::Library { run, .. } => run.launch(),
        }
    }
}

/// The library kernel that implements `kind` with the same `elems` convention.
pub fn fallback_kernel(kind: CollectiveKind) -> Option<&'static str> {
    match kind {
        CollectiveKind::AllReduce => Some("allreduce"),
        CollectiveKind::AllGather => Some("allgather"),
        CollectiveKind::ReduceScatter => Some("reduce_scatter"),
        CollectiveKind::Broadcast => Some("broadcast"),
        _ => None,
    }
}

/// The MSCCL-IR a registration names: a built-in algorithm (built for `world`'s ranks and
/// nodes) or a path to an MSCCL-IR XML file.
pub fn resolve(reg: &Registration, world: &World) -> Result<MscclIr, KernelError> {
    if algorithms::lookup(&reg.algorithm).is_ok() {
        let topo = world.topology();
        let params = AlgoParams::topology(topo.nodes, topo.local_size);
        return Ok(algorithms::build(&reg.algorithm, &params)?.to_ir()?);
    }
    let text = std::fs::read_to_string(&reg.algorithm).map_err(|e| KernelError::Unsupported {
        kernel: reg.algorithm.clone(),
        what: format!("loading: it is neither a built-in algorithm nor a readable XML file ({e})"),
    })?;
    Ok(xml::from_xml(&text)?)
}

/// Prepares `kind` on `elems` elements per rank: the registered MSCCL algorithm for this size
/// and rank count, else the library kernel.
pub fn prepare_selected(
    world: &World,
    table: &SelectionTable,
    kind: CollectiveKind,
    elems: usize,
    opts: &MscclOptions,
) -> Result<Selected, KernelError> {
    let bytes = (elems as u64).saturating_mul(opts.dtype.size_bytes() as u64);
    if let Some(reg) = table.select_for_ranks(kind, world.n_ranks(), bytes) {
        // A table written by `weft tune --sizes` names tuned configs, not bare algorithms.
        if let Some(sel) = crate::tune::table::prepare_registered(world, reg, elems, opts)? {
            return Ok(sel);
        }
        let ir = resolve(reg, world)?;
        return Ok(Selected::Msccl(Box::new(prepare_msccl(world, &ir, elems, opts)?)));
    }
    let kernel = fallback_kernel(kind).ok_or_else(|| KernelError::Unsupported {
        kernel: kind.xml_name().into(),
        what: format!("{bytes} bytes: no MSCCL algorithm is registered for that size and the library has no built-in kernel for it"),
    })?;
    let c = crate::default_constexprs(kernel, opts.dtype.name())?;
    let run = prepare(world, kernel, elems, opts.dtype, &c)?;
    Ok(Selected::Library { kernel, run: Box::new(run) })
}
