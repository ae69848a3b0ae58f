//! Collectives: each has a precondition (what every input slot holds at the start) and a
//! postcondition (what every output slot must hold at the end), in symbolic chunk values.

use std::fmt;
use std::sync::Arc;

use super::buffer::Buffer;
use super::error::{MscclError, Result};
use super::value::ChunkValue;

/// The collective families, without their parameters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CollectiveKind {
    /// Every rank ends with every rank's input.
    AllGather,
    /// Every rank ends with the sum of all inputs.
    AllReduce,
    /// Rank r ends with the sum of slice r of all inputs.
    ReduceScatter,
    /// Rank r ends with slice r of every rank's input.
    AllToAll,
    /// Every rank ends with the root's input.
    Broadcast,
    /// The root ends with the sum of all inputs.
    Reduce,
    /// The root ends with every rank's input.
    Gather,
    /// Rank r ends with slice r of the root's input.
    Scatter,
    /// User-defined pre- and postcondition.
    Custom,
}

impl CollectiveKind {
    /// MSCCL-IR spelling (`coll` attribute) as the msccl runtime reads it.
    pub const fn xml_name(self) -> &'static str {
        match self {
            CollectiveKind::AllGather => "allgather",
            CollectiveKind::AllReduce => "allreduce",
            CollectiveKind::ReduceScatter => "reducescatter",
            CollectiveKind::AllToAll => "alltoall",
            CollectiveKind::Broadcast => "broadcast",
            CollectiveKind::Reduce => "reduce",
            CollectiveKind::Gather => "gather",
            CollectiveKind::Scatter => "scatter",
            CollectiveKind::Custom => "custom",
        }
    }

    /// Parses a `coll` attribute; msccl-tools also writes `reduce_scatter`.
    pub fn from_xml_name(s: &str) -> Option<Self> {
        Some(match s {
            "allgather" => CollectiveKind::AllGather,
            "allreduce" => CollectiveKind::AllReduce,
            "reducescatter" | "reduce_scatter" => CollectiveKind::ReduceScatter,
            "alltoall" => CollectiveKind::AllToAll,
            "broadcast" => CollectiveKind::Broadcast,
            "reduce" => CollectiveKind::Reduce,
            "gather" => CollectiveKind::Gather,
            "scatter" => CollectiveKind::Scatter,
            _ => return None,
        })
    }
}

/// Precondition of a custom collective: whether `in[rank:index]` is initialized.
pub type PreconditionFn = Arc<dyn Fn(usize, usize) -> bool + Send + Sync>;
/// Postcondition of a custom collective: what `out[rank][index]` must hold (`None`: anything).
pub type PostconditionFn = Arc<dyn Fn(usize, usize) -> Option<ChunkValue> + Send + Sync>;

/// A collective defined by user functions, like msccl's `build_collective`.
#[derive(Clone)]
pub struct CustomCollective {
    /// Name written to the `coll` attribute.
    pub name: String,
    /// Number of ranks.
    pub ranks: usize,
    /// Input chunks per rank.
    pub input_chunks: usize,
    /// Output chunks per rank.
    pub output_chunks: usize,
    /// Which input slots start initialized.
    pub precondition: PreconditionFn,
    /// What each output slot must end with.
    pub postcondition: PostconditionFn,
}

impl fmt::Debug for CustomCollective {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CustomCollective")
            .field("name", &self.name)
            .field("ranks", &self.ranks)
            .field("input_chunks", &self.input_chunks)
            .field("output_chunks", &self.output_chunks)
            .finish_non_exhaustive()
    }
}

/// A collective with its parameters: `ranks`, the chunk factor `chunks` (chunks per rank, or
/// per rank-slice for the collectives whose buffers hold one slice per rank), and a `root`.
#[derive(Debug, Clone)]
pub enum Collective {
    /// `chunks` input chunks per rank; output slot `s*chunks+k` = rank s's chunk k.
    AllGather { ranks: usize, chunks: usize },
    /// `chunks` chunks per rank; output slot k = the sum over ranks of chunk k.
    AllReduce { ranks: usize, chunks: usize },
    /// `ranks*chunks` input chunks; output slot k of rank r = the sum of chunk `r*chunks+k`.
    ReduceScatter { ranks: usize, chunks: usize },
    /// `ranks*chunks` chunks; output slot `s*chunks+k` of rank r = rank s's chunk `r*chunks+k`.
    AllToAll { ranks: usize, chunks: usize },
    /// Every rank's output = the root's `chunks` input chunks (only the root's input exists).
    Broadcast { ranks: usize, chunks: usize, root: usize },
    /// The root's output slot k = the sum over ranks of chunk k; other outputs are free.
    Reduce { ranks: usize, chunks: usize, root: usize },
    /// The root's output slot `s*chunks+k` = rank s's chunk k; other outputs are free.
    Gather { ranks: usize, chunks: usize, root: usize },
    /// Rank r's output slot k = the root's chunk `r*chunks+k` (only the root's input exists).
    Scatter { ranks: usize, chunks: usize, root: usize },
    /// User-defined.
    Custom(CustomCollective),
}

/// How an in-place program aliases its buffers.
enum Alias {
    /// Output slot k is input slot k.
    OutputIsInput,
    /// Input slot k of rank r is output slot r*c + k.
    InputInOutput,
    /// Output slot k of rank r is input slot r*c + k.
    OutputInInput,
}

impl Collective {
    /// The family.
    pub fn kind(&self) -> CollectiveKind {
        match self {
            Collective::AllGather { .. } => CollectiveKind::AllGather,
            Collective::AllReduce { .. } => CollectiveKind::AllReduce,
            Collective::ReduceScatter { .. } => CollectiveKind::ReduceScatter,
            Collective::AllToAll { .. } => CollectiveKind::AllToAll,
            Collective::Broadcast { .. } => CollectiveKind::Broadcast,
            Collective::Reduce { .. } => CollectiveKind::Reduce,
            Collective::Gather { .. } => CollectiveKind::Gather,
            Collective::Scatter { .. } => CollectiveKind::Scatter,
            Collective::Custom(_) => CollectiveKind::Custom,
        }
    }

    /// `coll` attribute value.
    pub fn xml_name(&self) -> &str {
        match self {
            Collective::Custom(c) => &c.name,
            other => other.kind().xml_name(),
        }
    }

    /// Number of ranks.
    pub fn ranks(&self) -> usize {
        match self {
            Collective::Custom(c) => c.ranks,
            _ => self.params().0,
        }
    }

    /// Chunk factor (1 for custom collectives).
    pub fn chunk_factor(&self) -> usize {
        match self {
            Collective::Custom(_) => 1,
            _ => self.params().1,
        }
    }

    /// The root of a rooted collective.
    pub fn root(&self) -> Option<usize> {
        match self {
            Collective::Broadcast { root, .. }
            | Collective::Reduce { root, .. }
            | Collective::Gather { root, .. }
            | Collective::Scatter { root, .. } => Some(*root),
            _ => None,
        }
    }

    /// (ranks, chunk factor, root or 0) of a built-in collective.
    fn params(&self) -> (usize, usize, usize) {
        match *self {
            Collective::AllGather { ranks, chunks }
            | Collective::AllReduce { ranks, chunks }
            | Collective::ReduceScatter { ranks, chunks }
            | Collective::AllToAll { ranks, chunks } => (ranks, chunks, 0),
            Collective::Broadcast { ranks, chunks, root }
            | Collective::Reduce { ranks, chunks, root }
            | Collective::Gather { ranks, chunks, root }
            | Collective::Scatter { ranks, chunks, root } => (ranks, chunks, root),
            Collective::Custom(ref c) => (c.ranks, 1, 0),
        }
    }

    /// Checks the parameters.
    pub fn validate(&self) -> Result<()> {
        let (ranks, chunks, root) = self.params();
        let bad = |why: String| Err(MscclError::InvalidProgram(why));
        if ranks == 0 {
            return bad(format!("{} needs at least one rank", self.xml_name()));
        }
        if let Collective::Custom(c) = self {
            if c.input_chunks == 0 && c.output_chunks == 0 {
                return bad(format!("custom collective `{}` has no chunks", c.name));
            }
            return Ok(());
        }
        if chunks == 0 {
            return bad(format!("{} needs a chunk factor of at least 1", self.xml_name()));
        }
        if root >= ranks {
            return bad(format!("{}: root {root} is not one of the {ranks} ranks", self.xml_name()));
        }
        Ok(())
    }

    /// Input chunks per rank (logical, before in-place aliasing).
    pub fn input_chunks(&self) -> usize {
        let (n, c, _) = self.params();
        match self {
            Collective::Custom(cc) => cc.input_chunks,
            Collective::ReduceScatter { .. } | Collective::AllToAll { .. } | Collective::Scatter { .. } => n * c,
            _ => c,
        }
    }

    /// Output chunks per rank (logical, before in-place aliasing).
    pub fn output_chunks(&self) -> usize {
        let (n, c, _) = self.params();
        match self {
            Collective::Custom(cc) => cc.output_chunks,
            Collective::AllGather { .. } | Collective::AllToAll { .. } | Collective::Gather { .. } => n * c,
            _ => c,
        }
    }

    /// Logical size of `buffer` (scratch has no fixed size: 0).
    pub fn buffer_chunks(&self, buffer: Buffer) -> usize {
        match buffer {
            Buffer::Input => self.input_chunks(),
            Buffer::Output => self.output_chunks(),
            Buffer::Scratch => 0,
        }
    }

    /// Precondition: what `in[rank][index]` holds at the start (`None`: uninitialized).
    pub fn initial(&self, rank: usize, index: usize) -> Option<ChunkValue> {
        let (_, _, root) = self.params();
        let present = match self {
            Collective::Custom(c) => (c.precondition)(rank, index),
            Collective::Broadcast { .. } | Collective::Scatter { .. } => rank == root,
            _ => true,
        };
        (present && index < self.input_chunks()).then(|| ChunkValue::input(rank, index))
    }

    /// Postcondition: what `out[rank][index]` must hold at the end (`None`: unconstrained).
    pub fn expected(&self, rank: usize, index: usize) -> Option<ChunkValue> {
        let (n, c, root) = self.params();
        if index >= self.output_chunks() {
            return None;
        }
        let all = 0..n;
        match self {
            Collective::AllGather { .. } => Some(ChunkValue::input(index / c, index % c)),
            Collective::AllReduce { .. } => ChunkValue::sum_over_ranks(all, index),
            Collective::ReduceScatter { .. } => ChunkValue::sum_over_ranks(all, rank * c + index),
            Collective::AllToAll { .. } => Some(ChunkValue::input(index / c, rank * c + index % c)),
            Collective::Broadcast { .. } => Some(ChunkValue::input(root, index)),
            Collective::Reduce { .. } => (rank == root).then(|| ChunkValue::sum_over_ranks(all, index)).flatten(),
            Collective::Gather { .. } => (rank == root).then(|| ChunkValue::input(index / c, index % c)),
            Collective::Scatter { .. } => Some(ChunkValue::input(root, rank * c + index)),
            Collective::Custom(cc) => (cc.postcondition)(rank, index),
        }
    }

    fn alias(&self) -> Alias {
        match self {
            Collective::AllGather { .. } | Collective::Gather { .. } => Alias::InputInOutput,
            Collective::ReduceScatter { .. } | Collective::Scatter { .. } => Alias::OutputInInput,
            _ => Alias::OutputIsInput,
        }
    }

    /// Checks that the collective can run in place (custom ones need equal buffer sizes).
    pub fn validate_in_place(&self) -> Result<()> {
        match self {
            Collective::Custom(c) if c.input_chunks != c.output_chunks => Err(MscclError::InvalidProgram(format!(
                "custom collective `{}` cannot run in place: {} input chunks but {} output chunks",
                c.name, c.input_chunks, c.output_chunks
            ))),
            _ => Ok(()),
        }
    }

    /// Where a logical slot really lives: in place, one of input and output aliases into
    /// the other, as in MSCCLang.
    pub fn canonical(&self, rank: usize, buffer: Buffer, index: usize, in_place: bool) -> (Buffer, usize) {
        let c = self.chunk_factor();
        match (in_place, self.alias(), buffer) {
            (true, Alias::OutputIsInput, Buffer::Output) => (Buffer::Input, index),
            (true, Alias::InputInOutput, Buffer::Input) => (Buffer::Output, rank * c + index),
            (true, Alias::OutputInInput, Buffer::Output) => (Buffer::Input, rank * c + index),
            _ => (buffer, index),
        }
    }

    /// Size of `buffer` after aliasing: a buffer that aliases into the other has size 0.
    pub fn canonical_chunks(&self, buffer: Buffer, in_place: bool) -> usize {
        match (in_place, self.alias(), buffer) {
            (true, Alias::OutputIsInput | Alias::OutputInInput, Buffer::Output) => 0,
            (true, Alias::InputInOutput, Buffer::Input) => 0,
            _ => self.buffer_chunks(buffer),
        }
    }

    /// The collective `instances` copies of an algorithm implement together: every chunk is
    /// split into `instances` sub-chunks, interleaved (chunk k, instance i -> k*instances+i).
    pub fn scaled(&self, instances: usize) -> Collective {
        let n = instances.max(1);
        match self.clone() {
            Collective::AllGather { ranks, chunks } => Collective::AllGather { ranks, chunks: chunks * n },
            Collective::AllReduce { ranks, chunks } => Collective::AllReduce { ranks, chunks: chunks * n },
            Collective::ReduceScatter { ranks, chunks } => Collective::ReduceScatter { ranks, chunks: chunks * n },
            Collective::AllToAll { ranks, chunks } => Collective::AllToAll { ranks, chunks: chunks * n },
            Collective::Broadcast { ranks, chunks, root } => Collective::Broadcast { ranks, chunks: chunks * n, root },
            Collective::Reduce { ranks, chunks, root } => Collective::Reduce { ranks, chunks: chunks * n, root },
            Collective::Gather { ranks, chunks, root } => Collective::Gather { ranks, chunks: chunks * n, root },
            Collective::Scatter { ranks, chunks, root } => Collective::Scatter { ranks, chunks: chunks * n, root },
            Collective::Custom(c) if n == 1 => Collective::Custom(c),
            Collective::Custom(c) => Collective::Custom(scale_custom(c, n)),
        }
    }

    /// The collective an MSCCL-IR header describes (`coll`, `ngpus`, `nchunksperloop`). The
    /// XML does not record roots: rooted collectives get `root`.
    pub fn from_xml(coll: &str, ngpus: usize, nchunksperloop: usize, root: usize) -> Result<Collective> {
        let kind = CollectiveKind::from_xml_name(coll)
            .ok_or_else(|| MscclError::InvalidConfig(format!("cannot verify unknown collective `{coll}`")))?;
        let per_rank_slices = matches!(
            kind,
            CollectiveKind::AllGather
                | CollectiveKind::ReduceScatter
                | CollectiveKind::AllToAll
                | CollectiveKind::Gather
                | CollectiveKind::Scatter
        );
        let chunks = if per_rank_slices {
            if ngpus == 0 || !nchunksperloop.is_multiple_of(ngpus) {
                return Err(MscclError::InvalidConfig(format!(
                    "{coll}: nchunksperloop {nchunksperloop} is not a multiple of ngpus {ngpus}"
                )));
            }
            nchunksperloop / ngpus
        } else {
            nchunksperloop
        };
        let (ranks, c) = (ngpus, chunks);
        let coll = match kind {
            CollectiveKind::AllGather => Collective::AllGather { ranks, chunks: c },
            CollectiveKind::AllReduce => Collective::AllReduce { ranks, chunks: c },
            CollectiveKind::ReduceScatter => Collective::ReduceScatter { ranks, chunks: c },
            CollectiveKind::AllToAll => Collective::AllToAll { ranks, chunks: c },
            CollectiveKind::Broadcast => Collective::Broadcast { ranks, chunks: c, root },
            CollectiveKind::Reduce => Collective::Reduce { ranks, chunks: c, root },
            CollectiveKind::Gather => Collective::Gather { ranks, chunks: c, root },
            CollectiveKind::Scatter => Collective::Scatter { ranks, chunks: c, root },
            CollectiveKind::Custom => {
                return Err(MscclError::InvalidConfig("a custom collective cannot be rebuilt from its name".into()));
            }
        };
        coll.validate()?;
        Ok(coll)
    }
}

/// Interleaved sub-chunk version of a custom collective.
fn scale_custom(c: CustomCollective, n: usize) -> CustomCollective {
    let (pre, post) = (c.precondition.clone(), c.postcondition.clone());
    CustomCollective {
        name: c.name,
        ranks: c.ranks,
        input_chunks: c.input_chunks * n,
        output_chunks: c.output_chunks * n,
        precondition: Arc::new(move |r, k| pre(r, k / n)),
        postcondition: Arc::new(move |r, k| {
            let sub = k % n;
            post(r, k / n).map(|v| v.map_indices(|i| i * n + sub))
        }),
    }
}
