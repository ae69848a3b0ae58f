//! Reports of a CTA that can make no progress: which threads wait where, grouped, so that a
//! divergent barrier or an incomplete warp collective reads like a deadlock report.

use crate::cta::{Cta, St};

/// Describes why no thread of `cta` can run.
pub fn stuck(cta: &Cta) -> String {
    let mut groups: Vec<(String, Vec<u32>)> = vec![];
    for l in &cta.lanes {
        let what = match l.state {
            St::Done => "exited".to_string(),
            St::Block => format!("wait at {}", cta.op(cta.meet.site)),
            St::Warp => {
                let wc = &cta.warps[(l.tid as usize) / cta.warp];
                format!("wait in warp {} at {} (member mask {:#x}, arrived {:#x})", l.tid as usize / cta.warp, cta.op(wc.site), wc.mask, wc.arrived)
            }
            St::Mbar { site, off, phase } => crate::mbarrier::describe_wait(cta, site, off, phase),
            St::Run | St::Spin { .. } => "run".to_string(),
        };
        match groups.iter_mut().find(|g| g.0 == what) {
            Some(g) => g.1.push(l.tid),
            None => groups.push((what, vec![l.tid])),
        }
    }
    let parts: Vec<String> = groups.iter().map(|(what, tids)| format!("threads {} {what}", ranges(tids))).collect();
    let kind = if cta.lanes.iter().any(|l| matches!(l.state, St::Mbar { .. })) {
        "mbarrier deadlock"
    } else if cta.lanes.iter().any(|l| l.state == St::Warp) {
        "divergent warp collective"
    } else {
        "divergent barrier"
    };
    format!("{kind}: no thread of the CTA can proceed; {}", parts.join("; "))
}

/// `0-31, 64, 96-127`.
fn ranges(ids: &[u32]) -> String {
    let mut out: Vec<String> = vec![];
    let mut i = 0;
    while i < ids.len() {
        let mut j = i;
        while j + 1 < ids.len() && ids[j + 1] == ids[j] + 1 {
            j += 1;
        }
        out.push(if i == j { ids[i].to_string() } else { format!("{}-{}", ids[i], ids[j]) });
        i = j + 1;
    }
    out.join(", ")
}
