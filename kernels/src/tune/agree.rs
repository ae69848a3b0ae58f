//! Rank agreement: every rank's view of a decision (a cache hit, a measured time) exchanged
//! through the library's own pull AllGather on the world, so every process decides from the
//! same data whatever the transport (threads on `local`, one process per PE on `cuda` or a
//! multi-process transport). Nobody acts on a decision before the exchange, so ranks whose
//! caches differ still launch the same kernels and never wait on each other forever. When
//! this process holds every rank (`local`), it already sees every view: the words are
//! collected in place and nothing is compiled or launched.

use crate::KernelError;
use weft_compiler::dsl::Constexprs;
use weft_runtime::{Arg, Launchable, RawBuf, World};

/// Words each rank contributes per exchange.
pub const WORDS: usize = 16;

/// An exchange of every rank's words: in place when this process holds every rank, else a
/// compiled AllGather on fixed buffers.
pub struct Agreement {
    world: World,
    exchange: Option<Exchange>,
}

/// The compiled AllGather of a world spread over processes.
struct Exchange {
    kernel: Launchable,
    /// Two (input, output) pairs used alternately: the pull kernel reads peers' outputs, and
    /// a rank can only be one exchange ahead of a peer (the barrier inside each exchange), so
    /// alternating keeps a slow peer's reads on buffers nobody is rewriting.
    bufs: [(RawBuf, RawBuf); 2],
    calls: usize,
}

impl Agreement {
    /// An exchange for `world`: the collective only when other processes hold some ranks.
    pub fn new(world: &World) -> Result<Agreement, KernelError> {
        if world.host_ranks() == (0..world.n_ranks()) {
            return Ok(Agreement { world: world.clone(), exchange: None });
        }
        Agreement::collective(world)
    }

    /// An exchange through the AllGather kernel whatever the transport (tests of the kernel
    /// path run it on `local`).
    pub fn collective(world: &World) -> Result<Agreement, KernelError> {
        let c = Constexprs::new().with("T", "i32").with("BLOCK", WORDS);
        let kernel = crate::gpu::launchable_for(world, &crate::registry::build("allgather_pull", &c)?)?;
        let bytes = WORDS * 4;
        let b = crate::run::alloc_all(world, &[bytes, bytes * world.n_ranks(), bytes, bytes * world.n_ranks()])?;
        Ok(Agreement { world: world.clone(), exchange: Some(Exchange { kernel, bufs: [(b[0], b[1]), (b[2], b[3])], calls: 0 }) })
    }

    /// Every rank's words in rank order, given `mine(rank)` for the ranks this process holds
    /// (at most [`WORDS`] each; shorter ones are padded with zeros).
    pub fn gather(&mut self, mine: impl Fn(usize) -> Vec<u32>) -> Result<Vec<Vec<u32>>, KernelError> {
        let padded = |r: usize| {
            let mut words = mine(r);
            words.resize(WORDS, 0);
            words
        };
        let Some(x) = self.exchange.as_mut() else { return Ok((0..self.world.n_ranks()).map(padded).collect()) };
        let (inp, out) = x.bufs[x.calls % 2];
        x.calls += 1;
        for r in self.world.host_ranks() {
            let bytes: Vec<u8> = padded(r).iter().flat_map(|w| w.to_ne_bytes()).collect();
            self.world.write_bytes(inp, r, 0, &bytes)?;
        }
        self.world.launch(&x.kernel, [1, 1, 1], &[Arg::Buf(inp), Arg::Buf(out), Arg::I64(WORDS as i64)])?;
        let me = self.world.host_ranks().start;
        let mut bytes = vec![0u8; WORDS * 4 * self.world.n_ranks()];
        self.world.read_bytes(out, me, 0, &mut bytes)?;
        let words: Vec<u32> = bytes.chunks_exact(4).map(|c| u32::from_ne_bytes([c[0], c[1], c[2], c[3]])).collect();
        Ok(words.chunks(WORDS).map(<[u32]>::to_vec).collect())
    }

    /// The largest of every rank's `value(rank)` (times are MAX-reduced: the operation is as
    /// slow as its slowest rank).
    pub fn max_f64(&mut self, value: impl Fn(usize) -> f64) -> Result<f64, KernelError> {
        let all = self.gather(|r| {
            let b = value(r).to_bits();
            vec![b as u32, (b >> 32) as u32]
        })?;
        Ok(all.iter().map(|w| f64::from_bits(w[0] as u64 | (w[1] as u64) << 32)).fold(f64::MIN, f64::max))
    }
}

impl Drop for Agreement {
    fn drop(&mut self) {
        for &(a, b) in self.exchange.iter().flat_map(|x| &x.bufs) {
            self.world.free_raw(a);
            self.world.free_raw(b);
        }
    }
}
