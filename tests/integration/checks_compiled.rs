//! The race detector on compiled tile loads and stores (kernels compiled with
//! `Options::racecheck`): two program instances or two ranks that store the same tile, or one
//! that loads what another stores, with nothing ordering them, are reported naming both
//! accesses' rank, program, op and DSL line; the same kernels ordered by a signal or a
//! barrier_all run clean and leave the values plain math says they must. A kernel compiled
//! without race checks is another cache entry, whose tile accesses the detector cannot see.

use weft::compiler::dsl::shmem::*;
use weft::compiler::dsl::*;
use weft::compiler::ir::{Kernel, Scalar};
use weft::runtime::{AccessKind, Arg, LaunchOptions, RaceKind, RaceReport, RuntimeError, World};

/// Lanes of every tile; the live prefix (`n`) is random and usually ragged.
pub(crate) const TILE: i32 = 32;

pub(crate) fn compile(k: &Kernel, racecheck: bool) -> weft::runtime::Launchable {
    weft::compile(k, &weft::Options { racecheck, ..weft::Options::default() }).expect("kernel compiles").launchable()
}

pub(crate) fn racecheck() -> LaunchOptions {
    LaunchOptions { racecheck: true, ..LaunchOptions::default() }
}

/// A small deterministic generator, so a failure names the case that failed.
pub(crate) struct Rng(pub(crate) u64);

impl Rng {
    pub(crate) fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

/// Lines of the DSL calls the reports must name.
#[derive(Default)]
pub(crate) struct Lines {
    pub(crate) first: u32,
    pub(crate) second: u32,
}

/// Args: buf (f32, 2 * TILE elements), sig (u64), n. Program 0 of every rank stores 1 over
/// `buf[..n]` and signals its own rank; program 1 stores 2 over `buf[..n]`, or with `read`
/// loads `buf[..n]` and stores it doubled to `buf[TILE..TILE + n]`. With `ordered` program 1
/// waits for the signal before it touches `buf`, else after.
fn two_programs(ordered: bool, read: bool, lines: &mut Lines) -> Kernel {
    kernel(&format!("two_programs_{}_{}", ordered as u8, read as u8), &Constexprs::new(), |a| {
        let (buf, sig, n) = (a.ptr("buf", Scalar::F32), a.ptr("sig", Scalar::I64), a.i64("n"));
        let offs = arange(0, TILE);
        let m = offs.to(Scalar::I64).lt(n);
        let p = program_id(0);
        if_(p.eq_(0), || {
            lines.first = line!() + 1;
            store_masked(buf + offs, 1.0f32, m);
            signal_op(sig, 1i64, Signal::Set, my_pe());
        });
        if_(p.eq_(1), || {
            if ordered {
                let _ = wait_until(sig, Cmp::Eq, 1i64);
            }
            if read {
                lines.second = line!() + 1;
                let v = load_masked(buf + offs, m, 0.0f32);
                store_masked(buf + TILE + offs, v * 2.0f32, m);
            } else {
                lines.second = line!() + 1;
                store_masked(buf + offs, 2.0f32, m);
            }
            if !ordered {
                let _ = wait_until(sig, Cmp::Eq, 1i64);
            }
        });
        Ok(())
    })
    .expect("kernel builds")
}

/// The race report of a launch that must have one.
pub(crate) fn race(r: Result<weft::runtime::LaunchReport, RuntimeError>) -> RaceReport {
    match r {
        Err(RuntimeError::Race(rep)) => rep,
        Err(e) => panic!("expected a race report, got {e}"),
        Ok(_) => panic!("expected a race report, the launch passed"),
    }
}

#[test]
fn two_programs_storing_one_tile_unordered_are_reported_at_their_lines() {
    let mut rng = Rng(0x5eed_0001);
    for read in [false, true] {
        let mut lines = Lines::default();
        let k = compile(&two_programs(false, read, &mut lines), true);
        let ranks = 1 + rng.below(4) as usize;
        let n = 1 + rng.below(TILE as u64) as i64;
        let world = World::local(ranks).expect("world");
        let (buf, sig) = (world.alloc::<f32>(2 * TILE as usize).expect("alloc"), world.alloc::<u64>(1).expect("alloc"));
        let args = [Arg::from(&buf), Arg::from(&sig), Arg::I64(n)];
        let rep = race(world.launch_with(&k, [2, 1, 1], &args, &racecheck()));
        let text = rep.to_string();
        let RaceKind::DataRace { first, second } = &rep.kind else { panic!("{text}") };
        let mut seen = [first, second];
        seen.sort_by_key(|a| a.origin.program);
        let [p0, p1] = seen;
        assert_eq!((p0.origin.program, p1.origin.program), ([0, 0, 0], [1, 0, 0]), "{text}");
        assert_eq!(p0.origin.rank, p1.origin.rank, "{text}");
        assert!(p0.origin.loc.contains(&format!("checks_compiled.rs:{}:", lines.first)), "{text}");
        assert!(p1.origin.loc.contains(&format!("checks_compiled.rs:{}:", lines.second)), "{text}");
        assert_eq!((p0.origin.op.as_str(), p0.kind), ("tile.store", AccessKind::Write), "{text}");
        let want = if read { ("tile.load", AccessKind::Read) } else { ("tile.store", AccessKind::Write) };
        assert_eq!((p1.origin.op.as_str(), p1.kind), want, "{text}");
        for a in [p0, p1] {
            assert_eq!((a.span.rank, a.span.alloc, a.span.offset, a.span.len), (a.origin.rank, Some((buf.raw.id, 8 * TILE as usize)), 0, 4 * n as usize), "{text}");
        }
        assert!(text.contains("missing ordering"), "{text}");
    }
}

#[test]
fn a_signal_between_the_two_programs_orders_them() {
    let mut rng = Rng(0x5eed_0002);
    for read in [false, true] {
        let k = compile(&two_programs(true, read, &mut Lines::default()), true);
        for _ in 0..3 {
            let ranks = 1 + rng.below(5) as usize;
            let n = 1 + rng.below(TILE as u64) as i64;
            let world = World::local(ranks).expect("world");
            let (buf, sig) = (world.alloc::<f32>(2 * TILE as usize).expect("alloc"), world.alloc::<u64>(1).expect("alloc"));
            world.launch_with(&k, [2, 1, 1], &[Arg::from(&buf), Arg::from(&sig), Arg::I64(n)], &racecheck()).expect("ordered by the signal");
            // Program 1 ran after program 0: it overwrote 1 with 2, or read 1 and stored 1 * 2.
            let (head, tail) = if read { (1.0, 2.0) } else { (2.0, 0.0) };
            let want: Vec<f32> = (0..2 * TILE as i64).map(|i| if i < n { head } else if (TILE as i64..TILE as i64 + n).contains(&i) { tail } else { 0.0 }).collect();
            for r in 0..ranks {
                assert_eq!(world.read(&buf, r).expect("read"), want, "rank {r} of {ranks}, n {n}, read {read}");
            }
        }
    }
}

/// Args: buf (f32, TILE elements), n. Every rank stores `rank + 1` over `buf[..n]` of the next
/// rank (through remote_ptr) and `-(rank + 1)` over its own; with `barrier`, a barrier_all
/// between the two stores orders them.
fn neighbours(barrier: bool, lines: &mut Lines) -> Kernel {
    kernel(&format!("neighbours_{}", barrier as u8), &Constexprs::new(), |a| {
        let (buf, n) = (a.ptr("buf", Scalar::F32), a.i64("n"));
        let offs = arange(0, TILE);
        let m = offs.to(Scalar::I64).lt(n);
        let me = my_pe();
        let v = (me + 1).to(Scalar::F32);
        lines.first = line!() + 1;
        store_masked(remote_ptr(buf + offs, (me + 1) % n_pes()), v, m);
        if barrier {
            barrier_all();
        }
        lines.second = line!() + 1;
        store_masked(buf + offs, v * -1.0f32, m);
        Ok(())
    })
    .expect("kernel builds")
}

#[test]
fn two_ranks_storing_one_tile_unordered_are_reported_and_a_barrier_orders_them() {
    let mut rng = Rng(0x5eed_0003);
    let mut lines = Lines::default();
    let racy = compile(&neighbours(false, &mut lines), true);
    let ordered = compile(&neighbours(true, &mut Lines::default()), true);
    for _ in 0..3 {
        let ranks = 2 + rng.below(5) as usize;
        let n = 1 + rng.below(TILE as u64) as i64;
        let world = World::local(ranks).expect("world");
        let buf = world.alloc::<f32>(TILE as usize).expect("alloc");
        let args = [Arg::from(&buf), Arg::I64(n)];
        let rep = race(world.launch_with(&racy, [1, 1, 1], &args, &racecheck()));
        let text = rep.to_string();
        let RaceKind::DataRace { first, second } = &rep.kind else { panic!("{text}") };
        // One is the owner's own store, the other its left neighbour's remote store.
        let (own, remote) = if first.origin.rank == first.span.rank { (first, second) } else { (second, first) };
        assert_eq!(own.origin.rank, remote.span.rank, "{text}");
        assert_eq!(remote.origin.rank, (own.origin.rank + ranks - 1) % ranks, "{text}");
        assert!(own.origin.loc.contains(&format!("checks_compiled.rs:{}:", lines.second)), "{text}");
        assert!(remote.origin.loc.contains(&format!("checks_compiled.rs:{}:", lines.first)), "{text}");
        for a in [own, remote] {
            assert_eq!((a.kind, a.origin.program, a.span.offset, a.span.len), (AccessKind::Write, [0, 0, 0], 0, 4 * n as usize), "{text}");
        }
        world.launch_with(&ordered, [1, 1, 1], &args, &racecheck()).expect("ordered by barrier_all");
        for r in 0..ranks {
            let want: Vec<f32> = (0..TILE as i64).map(|i| if i < n { -(r as f32 + 1.0) } else { 0.0 }).collect();
            assert_eq!(world.read(&buf, r).expect("read"), want, "rank {r} of {ranks}, n {n}");
        }
    }
}

#[test]
fn race_checks_are_their_own_compile_and_only_they_see_tile_accesses() {
    let k = two_programs(false, false, &mut Lines::default());
    let (plain, checked) = (compile(&k, false), compile(&k, true));
    let world = World::local(2).expect("world");
    let (buf, sig) = (world.alloc::<f32>(2 * TILE as usize).expect("alloc"), world.alloc::<u64>(1).expect("alloc"));
    let args = [Arg::from(&buf), Arg::from(&sig), Arg::I64(TILE as i64)];
    // The uninstrumented code makes no access calls: the detector sees only the signal.
    world.launch_with(&plain, [2, 1, 1], &args, &racecheck()).expect("tile accesses unseen");
    world.fill(&sig, 0).expect("reset");
    race(world.launch_with(&checked, [2, 1, 1], &args, &racecheck()));
    // Without the detector the instrumented code runs, and its accesses are not checked.
    world.fill(&sig, 0).expect("reset");
    world.launch(&checked, [2, 1, 1], &args).expect("no detector, no report");
}
