//! Where each logical chunk of a collective lives in a rank's input, output and scratch
//! buffers, shared by MSCCL algorithms and MSCCL++ plans: inputs are written chunk by chunk
//! (the last chunks short or empty), in-place buffers alias as the collective says, and
//! outputs are read back cut to their valid lengths and checked against plain math.

use super::{check_reduced, reference};
use crate::host::{check, HostVec};
use crate::KernelError;
use weft_compiler::msccl::{Buffer, Collective};
use weft_runtime::{DType, RawBuf, World};

/// A collective laid out in chunks of `chunk_elems` over `elems` input elements per rank.
pub(super) struct Chunked {
    /// The collective.
    pub collective: Collective,
    /// Whether output and input alias.
    pub inplace: bool,
    /// Elements per chunk.
    pub chunk_elems: usize,
    /// Elements of each rank's logical input.
    pub elems: usize,
    /// Element type.
    pub dtype: DType,
}

impl Chunked {
    /// Valid elements of logical input chunk `index` (the last chunks may be short or empty).
    pub fn valid(&self, index: usize) -> usize {
        self.elems.saturating_sub(index * self.chunk_elems).min(self.chunk_elems)
    }

    /// Where logical chunk (`rank`, `buffer`, `k`) lives: buffer position (input, output,
    /// scratch) and element offset.
    fn place(&self, rank: usize, buffer: Buffer, k: usize) -> (usize, usize) {
        let (b, idx) = self.collective.canonical(rank, buffer, k, self.inplace);
        (b.slot(), idx * self.chunk_elems)
    }

    /// Writes rank `r`'s logical input `x` into `bufs` (input, output, scratch, ...).
    pub fn write_input(&self, world: &World, bufs: &[RawBuf], r: usize, x: &[f64]) -> Result<(), KernelError> {
        for j in 0..self.collective.input_chunks() {
            let (b, at) = self.place(r, Buffer::Input, j);
            let part = &x[(j * self.chunk_elems).min(self.elems)..][..self.valid(j)];
            HostVec::from_f64(self.dtype, part).write(world, bufs[b], r, at, self.dtype)?;
        }
        Ok(())
    }

    /// Length of rank `r`'s natural output: its output chunks, each as long as the input
    /// chunk it holds.
    pub fn output_len(&self, r: usize) -> usize {
        (0..self.collective.output_chunks()).filter_map(|k| self.collective.expected(r, k)).map(|v| self.valid(v.contributions()[0].index)).sum()
    }

    /// Rank `r`'s natural output: every constrained output chunk, cut to its valid length.
    pub fn output(&self, world: &World, bufs: &[RawBuf], r: usize) -> Result<Vec<f64>, KernelError> {
        let mut out = vec![];
        for k in 0..self.collective.output_chunks() {
            let Some(v) = self.collective.expected(r, k) else { continue };
            let n = self.valid(v.contributions()[0].index);
            let (b, at) = self.place(r, Buffer::Output, k);
            out.extend(HostVec::read(world, bufs[b], r, at, n, self.dtype)?.to_f64());
        }
        Ok(out)
    }

    /// Checks the output of every rank this process holds against the plain math of
    /// `inputs` (every rank's logical input).
    pub fn verify(&self, world: &World, bufs: &[RawBuf], inputs: &[Vec<f64>]) -> Result<(bool, f64), KernelError> {
        let seg = self.collective.chunk_factor() * self.chunk_elems;
        let expected = reference::expected(&self.collective, inputs, seg, self.chunk_elems);
        let (mut ok, mut max_err) = (true, 0.0f64);
        for (r, want) in expected.iter().enumerate().filter(|(r, _)| world.host_ranks().contains(r)) {
            let Some(want) = want else { continue };
            let got = self.output(world, bufs, r)?;
            let (k, e) = if want.scale.iter().all(|&s| s == 0.0) {
                check(&got, &want.values, self.dtype, 1)
            } else {
                check_reduced(&got, want, self.dtype, world.n_ranks())
            };
            ok &= k;
            max_err = max_err.max(e);
        }
        Ok((ok, max_err))
    }

    /// Fresh random inputs (seeded) for every rank, written on the ranks this process holds;
    /// returns all of them, for the reference.
    pub fn seed(&self, world: &World, bufs: &[RawBuf], seed: u64, name: &str) -> Result<Vec<Vec<f64>>, KernelError> {
        let mut inputs = Vec::with_capacity(world.n_ranks());
        for r in 0..world.n_ranks() {
            let x = HostVec::random(self.dtype, self.elems, seed.wrapping_add(r as u64 * 7919))
                .map_err(|d| KernelError::Unsupported { kernel: name.to_string(), what: format!("dtype {d}") })?
                .to_f64();
            if world.host_ranks().contains(&r) {
                self.write_input(world, bufs, r, &x)?;
            }
            inputs.push(x);
        }
        Ok(inputs)
    }
}
