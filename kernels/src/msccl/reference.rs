//! Plain math of every collective an MSCCL algorithm can implement, on each rank's natural
//! (unpadded) input of `elems` values. Independent of the MSCCL front end's symbolic
//! postconditions, except for custom collectives, whose only definition is theirs.

use weft_compiler::msccl::{Collective, Contribution};

/// What rank `r` must end with: the values, and for reductions the sum of the absolute
/// values of the terms (the scale of the rounding error); `None` where the collective
/// leaves the output free.
pub struct Expected {
    /// Values.
    pub values: Vec<f64>,
    /// Σ|term| per element (all zero for pure data movement).
    pub scale: Vec<f64>,
}

fn sum(inputs: &[&[f64]]) -> Expected {
    let n = inputs.first().map_or(0, |x| x.len());
    let values = (0..n).map(|i| inputs.iter().map(|x| x[i]).sum()).collect();
    let scale = (0..n).map(|i| inputs.iter().map(|x| x[i].abs()).sum()).collect();
    Expected { values, scale }
}

fn moved(values: Vec<f64>) -> Expected {
    let scale = vec![0.0; values.len()];
    Expected { values, scale }
}

/// Elements `[s*seg, (s+1)*seg)` of `x`, clipped to its end.
fn slice(x: &[f64], s: usize, seg: usize) -> &[f64] {
    &x[(s * seg).min(x.len())..((s + 1) * seg).min(x.len())]
}

/// The expected outputs of every rank. `seg` is the length of one rank's slice (chunk factor
/// times chunk length) for the collectives that slice their input per rank.
pub fn expected(coll: &Collective, inputs: &[Vec<f64>], seg: usize, chunk: usize) -> Vec<Option<Expected>> {
    let n = inputs.len();
    let all: Vec<&[f64]> = inputs.iter().map(|x| x.as_slice()).collect();
    let concat = |parts: Vec<&[f64]>| parts.concat();
    (0..n)
        .map(|r| match coll {
            Collective::AllReduce { .. } => Some(sum(&all)),
            Collective::AllGather { .. } => Some(moved(concat(all.clone()))),
            Collective::ReduceScatter { .. } => Some(sum(&all.iter().map(|x| slice(x, r, seg)).collect::<Vec<_>>())),
            Collective::AllToAll { .. } => Some(moved(concat(all.iter().map(|x| slice(x, r, seg)).collect()))),
            Collective::Broadcast { root, .. } => Some(moved(inputs[*root].clone())),
            Collective::Reduce { root, .. } => (r == *root).then(|| sum(&all)),
            Collective::Gather { root, .. } => (r == *root).then(|| moved(concat(all.clone()))),
            Collective::Scatter { root, .. } => Some(moved(slice(&inputs[*root], r, seg).to_vec())),
            Collective::Custom(_) => custom(coll, inputs, r, chunk),
        })
        .collect()
}

/// A custom collective's outputs, chunk by chunk from its postcondition.
fn custom(coll: &Collective, inputs: &[Vec<f64>], r: usize, chunk: usize) -> Option<Expected> {
    let mut out = Expected { values: vec![], scale: vec![] };
    for k in 0..coll.output_chunks() {
        let Some(v) = coll.expected(r, k) else { continue };
        let parts: Vec<&[f64]> = v.contributions().iter().map(|&Contribution { rank, index }| slice(&inputs[rank], index, chunk)).collect();
        let e = if parts.len() == 1 { moved(parts[0].to_vec()) } else { sum(&parts) };
        out.values.extend(e.values);
        out.scale.extend(e.scale);
    }
    Some(out)
}
