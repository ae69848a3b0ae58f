//! The library's registry: every kernel's name, what it implements, its builder and its
//! default constexprs.

use crate::{ag_gemm, allgather, broadcast, ep_dispatch_fp8, flash_decode, gemm, gemm_ar, gemm_rs, gemm_rs_ps, moe, moe_align, moe_gemm, moe_gemm_v, moe_v, reduce, ring_allreduce, ring_bidir, KernelError};
use std::sync::OnceLock;
use weft_compiler::dsl::{Constexprs, DslError};
use weft_compiler::ir::Kernel;

/// Which collective a kernel implements (and so which reference checks it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Collective {
    /// Every rank gets every rank's shard (`elems` per rank in, `world * elems` out).
    AllGather,
    /// Rank `r` gets segment `r` of the sum (`elems` per rank in, about `elems / world` out).
    ReduceScatter,
    /// Every rank gets the elementwise sum (`elems` in and out).
    AllReduce,
    /// Every rank gets the root's buffer (`elems`, in place).
    Broadcast,
    /// `C = A · B` on every rank (matrix shapes, not `elems`).
    Gemm,
    /// `C = AllGather(A_shard) · B`.
    AllGatherGemm,
    /// `C_shard = ReduceScatter(A · B)`.
    GemmReduceScatter,
    /// `C = AllReduce(A · B)`.
    GemmAllReduce,
    /// Decoding attention over a KV cache split over the ranks (decode shapes).
    FlashDecode,
    /// Expert-parallel dispatch: each token to the ranks of its top-k experts (MoE shapes).
    ExpertDispatch,
    /// Expert-parallel combine: expert outputs back to their tokens, summed with the routing weights.
    ExpertCombine,
    /// Grouped GEMM: each expert's rows (per-expert offsets) times its own weights.
    GroupedGemm,
    /// AllGather of tokens, then the grouped GEMM of the local experts' rows.
    AllGatherMoe,
    /// Grouped GEMM, then ReduceScatter of the top-k weighted outputs to the tokens' ranks.
    MoeReduceScatter,
    /// The expert GEMMs' row layout (offsets, row tokens, choice rows) from top-k routing.
    MoeAlign,
}

impl Collective {
    /// Lower-case name (`allgather`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Collective::AllGather => "allgather",
            Collective::ReduceScatter => "reduce_scatter",
            Collective::AllReduce => "allreduce",
            Collective::Broadcast => "broadcast",
            Collective::Gemm => "gemm",
            Collective::AllGatherGemm => "ag_gemm",
            Collective::GemmReduceScatter => "gemm_rs",
            Collective::GemmAllReduce => "gemm_ar",
            Collective::FlashDecode => "flash_decode",
            Collective::ExpertDispatch => "ep_dispatch",
            Collective::ExpertCombine => "ep_combine",
            Collective::GroupedGemm => "moe_gemm",
            Collective::AllGatherMoe => "ag_moe",
            Collective::MoeReduceScatter => "moe_rs",
            Collective::MoeAlign => "moe_align",
        }
    }

    /// Whether it takes an element count (`elems`): the collectives, not the GEMM family,
    /// decoding or the expert-parallel kernels.
    pub fn takes_elems(self) -> bool {
        !self.is_matmul() && !self.is_grouped() && !matches!(self, Collective::FlashDecode | Collective::ExpertDispatch | Collective::ExpertCombine | Collective::MoeAlign)
    }

    /// Whether it is an expert GEMM (MoE shapes with an output width `n`, GEMM tiles).
    pub fn is_grouped(self) -> bool {
        matches!(self, Collective::GroupedGemm | Collective::AllGatherMoe | Collective::MoeReduceScatter)
    }

    /// Whether it takes an expert-parallel shape (tokens, hidden, topk, experts).
    pub fn is_moe(self) -> bool {
        matches!(self, Collective::ExpertDispatch | Collective::ExpertCombine)
    }

    /// Whether it takes matrix shapes (`m`, `n`, `k`) rather than an element count.
    pub fn is_matmul(self) -> bool {
        matches!(self, Collective::Gemm | Collective::AllGatherGemm | Collective::GemmReduceScatter | Collective::GemmAllReduce)
    }
}

/// A library kernel.
#[derive(Clone, Copy, Debug)]
pub struct KernelInfo {
    /// Name used by the CLI and the API.
    pub name: &'static str,
    /// One line on what it does and how.
    pub about: &'static str,
    /// The collective it implements.
    pub collective: Collective,
}

/// The algorithm behind a name (`allreduce` resolves to one of the two shots by size).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Algo {
    AllGatherRing,
    AllGatherPull,
    AllGatherLl,
    AllGather2d,
    AllGatherLlMesh,
    AllGatherBidir,
    ReduceScatterRing,
    ReduceScatterBidir,
    AllReduceAuto,
    AllReduceOneShot,
    AllReduceTwoShot,
    AllReduceMultimem,
    AllReduceRing,
    AllReduceRingBidir,
    AllReduceLlMesh,
    AllReduceHier,
    Broadcast,
    Gemm,
    AgGemm,
    GemmRs,
    AgGemmCe,
    GemmRsCe,
    GemmAr,
    FlashDecode,
    FlashDecodeV,
    GemmRsPs,
    EpDispatch,
    EpDispatchV,
    EpCombine,
    EpCombineV,
    MoeGemm,
    AgMoe,
    AgMoeV,
    MoeRs,
    MoeRsV,
    MoeAlign,
    EpDispatchFp8,
}

/// A registry entry.
pub(crate) struct Def {
    pub(crate) info: KernelInfo,
    pub(crate) algo: Algo,
    pub(crate) build: fn(&Constexprs) -> Result<Kernel, DslError>,
}

const fn def(name: &'static str, about: &'static str, algo: Algo, build: fn(&Constexprs) -> Result<Kernel, DslError>) -> Def {
    let collective = match algo {
        Algo::AllGatherRing | Algo::AllGatherPull | Algo::AllGatherLl | Algo::AllGather2d | Algo::AllGatherLlMesh | Algo::AllGatherBidir => Collective::AllGather,
        Algo::ReduceScatterRing | Algo::ReduceScatterBidir => Collective::ReduceScatter,
        Algo::Broadcast => Collective::Broadcast,
        Algo::Gemm => Collective::Gemm,
        Algo::AgGemm | Algo::AgGemmCe => Collective::AllGatherGemm,
        Algo::GemmRs | Algo::GemmRsCe | Algo::GemmRsPs => Collective::GemmReduceScatter,
        Algo::GemmAr => Collective::GemmAllReduce,
        Algo::FlashDecode | Algo::FlashDecodeV => Collective::FlashDecode,
        Algo::EpDispatch | Algo::EpDispatchV | Algo::EpDispatchFp8 => Collective::ExpertDispatch,
        Algo::EpCombine | Algo::EpCombineV => Collective::ExpertCombine,
        Algo::MoeGemm => Collective::GroupedGemm,
        Algo::AgMoe | Algo::AgMoeV => Collective::AllGatherMoe,
        Algo::MoeRs | Algo::MoeRsV => Collective::MoeReduceScatter,
        Algo::MoeAlign => Collective::MoeAlign,
        _ => Collective::AllReduce,
    };
    Def { info: KernelInfo { name, about, collective }, algo, build }
}

pub(crate) static DEFS: [Def; 37] = [
    def("allgather", "AllGather, push ring: put_signal to the next rank, one signal per chunk", Algo::AllGatherRing, allgather::push_ring),
    def("allgather_pull", "AllGather, full mesh: barrier_all, then remote_ptr loads of every peer", Algo::AllGatherPull, allgather::pull),
    def("allgather_ll", "AllGather, LL protocol (small messages): flag-tagged stores, ll_recv polling", Algo::AllGatherLl, allgather::ll),
    def("allgather_2d", "AllGather, 2-D: LL words put across nodes, multimem_st broadcast within a node", Algo::AllGather2d, allgather::two_d),
    def("allgather_ll_mesh", "AllGather, put-only LL mesh (several nodes): LL rows stored into node peers, put (nbi, one quiet) to one rank per other node, forwarded there by stores; no signals", Algo::AllGatherLlMesh, allgather::ll_mesh),
    def("allgather_bidir", "AllGather, bidirectional pipelined ring: half of each shard each way, chunk by chunk", Algo::AllGatherBidir, ring_bidir::allgather),
    def("reduce_scatter", "ReduceScatter (sum), ring of put_signal partials", Algo::ReduceScatterRing, reduce::reduce_scatter),
    def("reduce_scatter_bidir", "ReduceScatter (sum), bidirectional pipelined ring: half each way, slots + credits", Algo::ReduceScatterBidir, ring_bidir::reduce_scatter),
    def("allreduce", "AllReduce (sum), by size and topology: one-shot, two-shot or the ring (see `allreduce_choice`); ring across nodes", Algo::AllReduceAuto, reduce::two_shot),
    def("allreduce_one_shot", "AllReduce, one-shot: remote_ptr loads of all peers + local reduce", Algo::AllReduceOneShot, reduce::one_shot),
    def("allreduce_two_shot", "AllReduce, two-shot: reduce-scatter then all-gather", Algo::AllReduceTwoShot, reduce::two_shot),
    def("allreduce_ring", "AllReduce, pipelined ring: ReduceScatter through slots + credits, AllGather into the outputs, chunk by chunk (crosses nodes)", Algo::AllReduceRing, ring_allreduce::ring),
    def("allreduce_ring_bidir", "AllReduce, pipelined ring, half of each segment each way round (crosses nodes)", Algo::AllReduceRingBidir, ring_allreduce::ring_bidir),
    def("allreduce_ll_mesh", "AllReduce, put-only LL mesh (several nodes, small messages): every input gathered as in allgather_ll_mesh, then summed by each rank; no signals", Algo::AllReduceLlMesh, crate::ll_mesh::allreduce),
    def("allreduce_hier", "AllReduce, hierarchical (several nodes): node reduce-scatter by remote_ptr loads, one put of each node partial to each counterpart (data, fence, flag put), node all-gather by remote_ptr stores", Algo::AllReduceHier, crate::allreduce_hier::allreduce),
    def("allreduce_multimem", "AllReduce over one node: multimem_ld_reduce + multimem_st", Algo::AllReduceMultimem, reduce::multimem),
    def("broadcast", "Broadcast from any root: put_signal from the root to every peer", Algo::Broadcast, broadcast::broadcast),
    def("gemm", "Tile GEMM, f32 accumulation, grouped program order", Algo::Gemm, gemm::gemm),
    def("ag_gemm", "AllGather-GEMM: put_signal per row tile, tiles wait on their chunk only", Algo::AgGemm, ag_gemm::ag_gemm),
    def("gemm_rs", "GEMM-ReduceScatter: tiles pushed to their owner, reduced on arrival (hierarchical)", Algo::GemmRs, gemm_rs::gemm_rs),
    def("ag_gemm_ce", "AllGather-GEMM, gather on the copy engine (push; -D CE_PULL=1 pulls), every program computes", Algo::AgGemmCe, ag_gemm::ag_gemm_ce),
    def("gemm_ar", "GEMM-AllReduce: partial tiles reduced as they finish (-D METHOD=1 one-shot, 2 two-shot, 3 multimem; by size)", Algo::GemmAr, gemm_ar::gemm_ar),
    def("gemm_rs_ps", "GEMM-ReduceScatter, producer fused with the scatter (AMD style): tiles stored straight to their owner, barrier_all, reduce (one node)", Algo::GemmRsPs, gemm_rs_ps::gemm_rs_ps),
    def("flash_decode", "Flash decoding, KV cache split over ranks: partial attention + log-sum-exp put to the block's owner, rescaled sum there, output put to every rank", Algo::FlashDecode, flash_decode::flash_decode),
    def("flash_decode_v", "Flash decoding baseline: local partial attention, AllGather of the partials (put, signal), every block combined on every rank, three launches", Algo::FlashDecodeV, flash_decode::flash_decode_v),
    def("ep_dispatch", "Expert-parallel dispatch, low latency: tokens stored into their experts' ranks, each (expert, source) block's count an LL word behind its rows (the block's flag), no counts round trip", Algo::EpDispatch, moe::ep_dispatch),
    def("ep_combine", "Expert-parallel combine, low latency: expert outputs stored back as plain words with one LL count per block, weighted sum of the top-k in f32", Algo::EpCombine, moe::ep_combine),
    def("ep_dispatch_v", "Expert-parallel dispatch baseline: counts exchange (put_signal), then AllToAllv (get), two launches", Algo::EpDispatchV, moe_v::ep_counts),
    def("ep_combine_v", "Expert-parallel combine baseline: AllToAllv back (put per row, signal per block), then the weighted sum, two launches", Algo::EpCombineV, moe_v::ep_combine_a2a),
    def("moe_gemm", "Grouped GEMM: each expert's rows (per-expert offsets, gathered by token index) times its own weights", Algo::MoeGemm, moe_gemm::moe_gemm),
    def("ag_moe", "AllGather-MoE: each rank's tokens put with one signal (GPUs) or pulled by each rank (CPUs, -D PULL), grouped GEMM tiles of each local expert (all sources' rows) wait on the sources their rows span", Algo::AgMoe, moe_gemm::ag_moe),
    def("ag_moe_v", "AllGather-MoE baseline: AllGather, then the grouped GEMM, two launches", Algo::AgMoeV, moe_gemm_v::moe_allgather),
    def("moe_rs", "MoE-ReduceScatter: grouped GEMM tiles put to their tokens' ranks, one count word per launch, then the top-k weighted sum", Algo::MoeRs, moe_gemm::moe_rs),
    def("moe_rs_v", "MoE-ReduceScatter baseline: grouped GEMM, then get each token's top-k rows and sum them weighted, two launches", Algo::MoeRsV, moe_gemm::moe_gemm),
    def("ep_dispatch_fp8", "Expert-parallel dispatch, low latency, FP8 payload: tokens quantized to e4m3 per 128-element group (f32 scale amax/448), sent as plain words behind one count per block, dequantized on receipt", Algo::EpDispatchFp8, ep_dispatch_fp8::ep_dispatch_fp8),
    def("moe_align", "MoE row layout on the device: per-block and per-expert row offsets (masked-count prefix), row tokens and choice rows (in-order scatter), stable by token then choice", Algo::MoeAlign, moe_align::moe_align),
    def("gemm_rs_ce", "GEMM-ReduceScatter, intra-node scatter on the copy engine, reduced on arrival (hierarchical)", Algo::GemmRsCe, gemm_rs::gemm_rs_ce),
];

/// Bytes up to which `allreduce` picks the one-shot algorithm in GPU code (not measured here:
/// no GPU; NVIDIA's and Triton-distributed's cut-over). CPU code has its own, measured rule
/// (see [`allreduce_choice`]).
pub const ONE_SHOT_MAX_BYTES: usize = 256 << 10;

/// Bytes up to which CPU code picks one-shot on 4 or more ranks: one launch, one barrier.
pub const CPU_ONE_SHOT_MAX_BYTES: usize = 4 << 10;

/// The kernel `allreduce` runs for `bytes` per rank on `topo`, in GPU code (`gpu`) or CPU
/// code. Across nodes in CPU code the hierarchical kernel (`allreduce_hier`, one put per
/// counterpart), except where many nodes of few ranks make its all-to-all between counterparts
/// outweigh the ring's traffic (see [`CPU_HIER_ANY_NODES_MAX_BYTES`]); in GPU code the ring (the
/// shots load from peers, which reaches one node only; `allreduce_hier` is not measured on GPUs).
/// GPU code: one-shot up to [`ONE_SHOT_MAX_BYTES`], then two-shot. CPU code (ranks are
/// threads sharing the cores): one-shot up to [`CPU_ONE_SHOT_MAX_BYTES`] on 4 or more ranks
/// (two-shot's second barrier costs most there: at 1x4 4 KiB one-shot 53 us, two-shot 186, ring
/// 66; at 1x8 41 / 829 / 71, `weft run`, load 2.3-4), two-shot otherwise. Two-shot at its CPU
/// tile of 64 (`cpu_small_tile`) beats the pipelined ring in nearly every row of
/// `cargo bench --bench collectives` (% of memcpy, two-shot / ring, load 1.97-4.1, 2026-11-26):
///
/// | ranks | 64 KiB | 256 KiB | 1 MiB | 16 MiB | 64 MiB |
/// |---|---|---|---|---|---|
/// | 2 | 4 / 4 | 13 / 12 | 38 / 43 | 113 / 84 | 68 / 86 |
/// | 4 | 11 / 10 | 29 / 23 | 60 / 32 | 151 / 61 | 144 / 90 |
/// | 8 | 24 / 16 | 44 / 30 | 128 / 67 | 184 / 107 | 141 / 89 |
///
/// The ring leads only at 2 ranks from 1 MiB in some rows and not others; its 2(w-1) hand-offs
/// per chunk each wait for the next thread's time slice, which a loaded machine makes worse
/// (the tune bench at load 10-12 timed it at 77 ms to two-shot's 32 at 1x4 16 MiB). From
/// [`CPU_HIER_ONE_NODE_MIN_BYTES`] on 4 or more ranks, `allreduce_hier`.
pub fn allreduce_choice(topo: weft_runtime::Topology, bytes: usize, gpu: bool) -> &'static str {
    let w = topo.world_size();
    match bytes {
        b if topo.nodes > 1 && !gpu && (b <= CPU_HIER_ANY_NODES_MAX_BYTES || topo.nodes - 1 <= 2 * topo.local_size) => "allreduce_hier",
        _ if topo.nodes > 1 => "allreduce_ring",
        b if gpu && b <= ONE_SHOT_MAX_BYTES => "allreduce_one_shot",
        _ if gpu => "allreduce_two_shot",
        b if w >= 4 && b <= CPU_ONE_SHOT_MAX_BYTES => "allreduce_one_shot",
        b if w >= 4 && b >= CPU_HIER_ONE_NODE_MIN_BYTES => "allreduce_hier",
        _ => "allreduce_two_shot",
    }
}

/// Bytes from which CPU `allreduce` on one node of 4 or more ranks runs `allreduce_hier` (on
/// one node a two-shot by stores: 2 waits a launch against two-shot's 4, every peer's output
/// written by the shard's owner). `cargo bench --bench collectives`, % of memcpy (wall) hier /
/// two-shot, both at their CPU tile 64, load 9.4-9.8, 6 runs of 7-11 rounds: 4 ranks 16 MiB
/// 164-207 / 94-124 in 5 runs (106 / 135 in the sixth), 64 MiB 140-194 / 115-118 in 4; 8 ranks
/// 16 MiB 171-230 / 96-126 in 4 (128 / 146 in one), 64 MiB 155-254 / 118-133 in 3; 4 MiB no
/// steady lead (4 ranks 121 / 118 and 93 / 123, 8 ranks 200 / 128 and 101 / 92), 1 MiB behind;
/// 2 ranks no steady lead at any size (16 MiB 64-129 / 63-84).
pub const CPU_HIER_ONE_NODE_MIN_BYTES: usize = 16 << 20;

/// Bytes up to which CPU `allreduce` on several nodes runs `allreduce_hier` whatever the grid;
/// above, only where `nodes - 1 <= 2 * local` (its counterparts' exchange puts `(nodes - 1) /
/// local` of the buffer per rank, the ring about twice the buffer). `cargo bench --bench mpi`,
/// weft µs hier / ring (LL mesh at 4 KiB), load 8-10.5: 2x2 4 KiB 37-51 / 54, 16 KiB 54 / 108,
/// 64 KiB 82 / 260, 1 MiB 829 / 1344, 16 MiB 9654 / 10649; 4x1 4 KiB 70 / 93, 64 KiB 263 / 366,
/// 1 MiB 2500 / 2799, 16 MiB 33507 / 12367. (It replaced the put-only LL mesh, which the library
/// picked up to 16 KiB: 2x2 4 KiB 54 µs, 16 KiB 108.)
pub const CPU_HIER_ANY_NODES_MAX_BYTES: usize = 1 << 20;

/// Gathered bytes (all ranks' shards) up to which `allgather` on several nodes runs the
/// put-only LL mesh (twice the bytes on the wire, but no step waits on another process).
pub const LL_MESH_MAX_BYTES: usize = 64 << 10;

/// Per-rank shard bytes up to which `allgather` on one node of `mpi` processes runs the LL
/// AllGather (`allgather_ll`: one hop of flag-tagged stores, no signal waits); above, the push
/// ring. `cargo bench --bench mpi`, weft µs push ring / LL: 1x4 (1 KiB shards at 4 KiB) 4 KiB
/// 13.8 / 7.3, 8 KiB 14.1 / 9.3 (Open MPI 14.2), 16 KiB 15.2 / 12.4 (load 5.2, the ring with
/// its closing step); 1x2 4 KiB (2 KiB shards) 0.9-1.6 / 1.3-2.0 (load 7.7, both self-closing;
/// the LL words carry twice the bytes). Not on `local`, where the ranks share one process's
/// workers: `weft run`, 512 f32 per rank, algbw GB/s push / LL at 2 / 4 / 8 ranks 3.86 / 2.90,
/// 2.67 / 1.83, 1.53 / 0.70 (load 3.9).
pub const LL_ONE_NODE_MAX_SHARD: usize = 1 << 10;

/// The kernel `allgather` runs for `bytes` gathered on `topo` (a choice apart from
/// [`allreduce_choice`]; `processes`: one rank per process, the `mpi` transport): across nodes
/// the two-level LL mesh up to [`LL_MESH_MAX_BYTES`], whose puts need no target inside MPI,
/// where the ring's cross-node `put_signal`s each wait for their target process (`cargo bench
/// --bench mpi`, 2x2: 4 KiB 30-33 µs mesh, 66-134 ring; 64 KiB 80-110 / 83-120; 256 KiB 353 /
/// 204); within a node of CPU processes the LL AllGather up to [`LL_ONE_NODE_MAX_SHARD`] per
/// rank; else the push ring.
pub fn allgather_choice(topo: weft_runtime::Topology, bytes: usize, gpu: bool, processes: bool) -> &'static str {
    if topo.nodes > 1 && bytes <= LL_MESH_MAX_BYTES {
        "allgather_ll_mesh"
    } else if topo.nodes == 1 && !gpu && processes && bytes.div_ceil(topo.world_size().max(1)) <= LL_ONE_NODE_MAX_SHARD {
        "allgather_ll"
    } else {
        "allgather"
    }
}

/// Every library kernel, the default (`allgather`) first.
pub fn list() -> &'static [KernelInfo] {
    static LIST: OnceLock<Vec<KernelInfo>> = OnceLock::new();
    LIST.get_or_init(|| DEFS.iter().map(|d| d.info).collect())
}

/// The entry named `name`, or an error listing every name.
pub(crate) fn find(name: &str) -> Result<&'static Def, KernelError> {
    DEFS.iter().find(|d| d.info.name == name).ok_or_else(|| KernelError::Unknown {
        name: name.into(),
        known: DEFS.iter().map(|d| d.info.name).collect::<Vec<_>>().join(", "),
    })
}

/// The default constexprs of `name` for element type `dtype`.
pub fn default_constexprs(name: &str, dtype: &str) -> Result<Constexprs, KernelError> {
    let d = find(name)?;
    if d.info.collective.is_matmul() || d.info.collective.is_grouped() {
        return Ok(crate::matmul::matmul_constexprs(dtype));
    }
    if d.info.collective == Collective::FlashDecode {
        // 8 query heads per KV head of 128 (the CPU's tiles are straight-line code: a 64-position
        // step at this width compiles in seconds, not minutes).
        return Ok(Constexprs::new().with("T", dtype).with("BLOCK_H", 8).with("BLOCK_D", 128).with("BLOCK_N", 32));
    }
    if d.algo == Algo::MoeAlign {
        return Ok(crate::moe_align_host::align_constexprs(8));
    }
    if d.info.collective.is_moe() {
        return Ok(Constexprs::new().with("T", dtype).with("BLOCK", 256).with("BLOCK_K", 8));
    }
    let block = match d.algo {
        Algo::AllGatherLl | Algo::AllGather2d | Algo::AllGatherLlMesh | Algo::AllReduceLlMesh => 256,
        // A CPU tile is straight-line vector code: 1024 f32 lanes are 64 zmm registers per
        // value, so the ring's load-add-store spilled every value to the stack and its reduce
        // took ~2x the CPU time it does at 64 (4 registers a value); the two-shot's sum of every
        // peer's tile likewise (2.5x at 16 MiB). GPUs get `GPU_BLOCK`.
        Algo::AllReduceHier => CPU_HIER_BLOCK,
        a if cpu_small_tile(a) => CPU_SMALL_BLOCK,
        _ => GPU_BLOCK,
    };
    Ok(Constexprs::new().with("T", dtype).with("BLOCK", block))
}

/// The elementwise collectives' tile on GPU targets (one CTA's 4 warps, 8 elements a thread).
const GPU_BLOCK: usize = 1024;
/// The reducing collectives' tile on the CPU (see `default_constexprs`).
const CPU_SMALL_BLOCK: usize = 64;
/// `allreduce_hier`'s tile on the CPU: its node sum loads each peer's tile once and its
/// gather stores one tile into every node peer, no ring slot to spill around. `cargo bench
/// --bench mpi` 2x2 (`WEFT_BENCH_MPI_COLL_CX=BLOCK=`), two rounds, load ~5, weft µs at 64 /
/// 128 / 256 / 512 / 1024: 1 MiB 536-713 / 399-431 / 367 / 370-374 / 386-404, 64 KiB 51-66 /
/// 44 / 42-43 / 41 / 41-42, 4 KiB 25-30 / 26 / 25-26 / 25 / 28.
const CPU_HIER_BLOCK: usize = 256;
/// `allreduce_hier`'s CPU tile on one node, where it is `allreduce`'s kernel from
/// [`CPU_HIER_ONE_NODE_MIN_BYTES`]: no put crosses a node there, and its node sum and gather are
/// the two-shot's loads and stores, whose CPU tile is 64 for the same reason (values in registers).
/// `cargo bench --bench collectives` (`WEFT_BENCH_BLOCK`, alternated, load 6.7-8), % of memcpy
/// 64 / 256 at 4 ranks 4 / 16 / 64 MiB then 8 ranks: 155 320 304 172 273 297 / 126 142 171 115
/// 124 182; 210 257 247 215 188 244 / 182 176 127 157 153 172; one pair the other way (162 112
/// 107 115 102 141 / 133 161 160 160 144 167); memcpy's CPU time over hier's 100-174 % at 64,
/// 75-128 % at 256 in every run. The quiet tune bench: 1x4 16 MiB 5239 µs at 64, 6375 at 256.
const CPU_HIER_ONE_NODE_BLOCK: usize = 64;

/// The kernels whose CPU tile differs from their GPU tile: the pipelined ring kernels (`ring`),
/// the two-shot AllReduce (also `allreduce`'s kernel), the push-ring and pull AllGathers and the
/// ring ReduceScatter. Their tiles is masked on the CPU, so a 1024-lane
/// tile is 128 masked AVX2 loads and stores even for a 2 KiB shard: `cargo bench --bench mpi`
/// 1x2 4 KiB (load 0.7-7, alternated), AllGather 3.4-4.1 µs at 1024 against 1.6-2.0 at 64
/// (kernel phase 2.9-3.3 / 1.1-1.2 µs), ReduceScatter 5.2-8.1 / 2.9-3.8; from 64 KiB to 16 MiB
/// (`--bench collectives`, CPU time against memcpy's, load 6.5) 64 was as fast or faster.
fn cpu_small_tile(a: Algo) -> bool {
    matches!(
        a,
        Algo::AllReduceRing
            | Algo::AllReduceRingBidir
            | Algo::ReduceScatterBidir
            | Algo::AllGatherBidir
            | Algo::AllReduceTwoShot
            | Algo::AllReduceAuto
            | Algo::AllReduceHier
            | Algo::AllGatherRing
            | Algo::AllGatherPull
            | Algo::ReduceScatterRing
    )
}

/// The default constexprs of `name` for `dtype` when compiling for `target`. A GPU program
/// instance is one CTA, whose registers and shared memory (48 KiB) bound the GEMM tiles: the
/// CPU's 64x256x64 would not fit, so GPU targets get the largest tiles that ptxas assembles
/// without spilling (gemm_rs carries its communication role's tiles too, so it gets smaller
/// ones), and a 3-stage shared-memory ring for the K loop (`num_stages`, sm_80+).
pub fn target_constexprs(name: &str, dtype: &str, target: weft_compiler::pipeline::Target) -> Result<Constexprs, KernelError> {
    let c = default_constexprs(name, dtype)?;
    if target != weft_compiler::pipeline::Target::Cpu && find(name)?.info.collective == Collective::FlashDecode {
        // An `mma` takes 16 rows.
        return Ok(c.with("BLOCK_H", 16).with("BLOCK_N", 64));
    }
    if target != weft_compiler::pipeline::Target::Cpu && cpu_small_tile(find(name)?.algo) {
        return Ok(c.with("BLOCK", GPU_BLOCK));
    }
    let gemm_like = find(name)?.info.collective.is_matmul() || find(name)?.info.collective.is_grouped();
    if target == weft_compiler::pipeline::Target::Cpu || !gemm_like {
        return Ok(c);
    }
    // gemm_ar's two-shot default is gemm_rs plus a gather; moe_rs also carries its reduction.
    let rs_like = name.starts_with("gemm_rs") || name == "gemm_ar" || name == "moe_rs";
    let (bm, bn) = if rs_like { (32, 32) } else { (64, 64) };
    let c = c.with("BLOCK_M", bm).with("BLOCK_N", bn).with("BLOCK_K", 32).with("num_warps", 4).with("num_stages", 3);
    Ok(if name == "moe_rs" { c.with("COMM_PROGRAMS", crate::moe_gemm_host::default_comm_programs(Algo::MoeRs, true)) } else { c })
}

/// The default constexprs of `name` for `dtype` on `target` in a world of topology `topo`:
/// [`target_constexprs`], except `allreduce_hier`'s CPU tile on one node
/// ([`CPU_HIER_ONE_NODE_BLOCK`]; across nodes [`CPU_HIER_BLOCK`], its default by name).
pub fn topology_constexprs(name: &str, dtype: &str, target: weft_compiler::pipeline::Target, topo: weft_runtime::Topology) -> Result<Constexprs, KernelError> {
    let c = target_constexprs(name, dtype, target)?;
    let one_node_hier = target == weft_compiler::pipeline::Target::Cpu && topo.nodes == 1 && find(name)?.algo == Algo::AllReduceHier;
    Ok(if one_node_hier { c.with("BLOCK", CPU_HIER_ONE_NODE_BLOCK) } else { c })
}

/// Builds kernel `name` with `constexprs`.
pub fn build(name: &str, constexprs: &Constexprs) -> Result<Kernel, KernelError> {
    Ok((find(name)?.build)(constexprs)?)
}

/// Every kernel that running `name` launches, in order: [`build`]'s, and for the baselines of
/// several launches their later steps as well.
pub fn build_all(name: &str, constexprs: &Constexprs) -> Result<Vec<Kernel>, KernelError> {
    let later: &[fn(&Constexprs) -> Result<Kernel, DslError>] = match find(name)?.algo {
        Algo::EpDispatchV => &[moe_v::ep_alltoallv],
        Algo::EpCombineV => &[moe_v::ep_combine_sum],
        Algo::AgMoeV => &[moe_gemm::moe_gemm],
        Algo::MoeRsV => &[moe_gemm_v::moe_rs_pull],
        Algo::FlashDecodeV => &[flash_decode::decode_gather, flash_decode::decode_combine],
        _ => &[],
    };
    let mut all = vec![build(name, constexprs)?];
    for step in later {
        all.push(step(constexprs)?);
    }
    Ok(all)
}
