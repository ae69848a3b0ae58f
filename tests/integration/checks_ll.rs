//! The race detector on LL words (kernels compiled with race checks): an LL store is a write.
//! Every rank's program 0 LL-stores a tile into the next rank's LL buffer; program 1 of that
//! rank then takes the same words out with `ll_recv` (the protocol: clean, and the values are
//! the sender's), or LL-stores over them, or loads them plainly, with nothing ordering it
//! after the sender: both are reported, naming the two accesses' rank, program, op and line.

use crate::checks_compiled::{compile, race, racecheck, Lines, Rng, TILE};
use weft::compiler::dsl::shmem::*;
use weft::compiler::dsl::*;
use weft::compiler::ir::{Kernel, Scalar};
use weft::runtime::{AccessKind, Arg, RaceKind, World};

/// What program 1 does with the LL words program 0 of the previous rank stored.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Second {
    Recv,
    Store,
    Load,
}

const FLAG: i32 = 7;

/// Args: ll (i64, TILE words), out (i64, TILE), n. Program 0 stores `rank * 100 + lane` with
/// flag `FLAG` over `ll[..n]` of the next rank; program 1 does `second` on its own `ll[..n]`,
/// storing what it read (if anything) to `out[..n]`.
fn ll_pair(second: Second, lines: &mut Lines) -> Kernel {
    kernel(&format!("ll_pair_{second:?}"), &Constexprs::new(), |a| {
        let (ll, out, n) = (a.ptr("ll", Scalar::I64), a.ptr("out", Scalar::I64), a.i64("n"));
        let offs = arange(0, TILE);
        let m = offs.to(Scalar::I64).lt(n);
        let me = my_pe();
        if_(program_id(0).eq_(0), || {
            lines.first = line!() + 1;
            store_masked(remote_ptr(ll + offs, (me + 1) % n_pes()), ll_pack(me * 100 + offs, FLAG), m);
        });
        if_(program_id(0).eq_(1), || match second {
            Second::Recv => store_masked(out + offs, ll_recv(ll + offs, FLAG, Some(m)).to(Scalar::I64), m),
            Second::Store => {
                lines.second = line!() + 1;
                store_masked(ll + offs, ll_pack(offs, FLAG), m);
            }
            Second::Load => {
                lines.second = line!() + 1;
                let v = load_masked(ll + offs, m, 0i64);
                store_masked(out + offs, v, m);
            }
        });
        Ok(())
    })
    .expect("kernel builds")
}

#[test]
fn ll_recv_of_the_words_an_ll_store_carried_is_clean() {
    let mut rng = Rng(0x5eed_0011);
    let k = compile(&ll_pair(Second::Recv, &mut Lines::default()), true);
    for _ in 0..4 {
        let ranks = 1 + rng.below(4) as usize;
        let n = 1 + rng.below(TILE as u64) as i64;
        let world = World::local(ranks).expect("world");
        let (ll, out) = (world.alloc::<u64>(TILE as usize).expect("alloc"), world.alloc::<i64>(TILE as usize).expect("alloc"));
        world.launch_with(&k, [2, 1, 1], &[Arg::from(&ll), Arg::from(&out), Arg::I64(n)], &racecheck()).expect("the LL protocol is no race");
        for r in 0..ranks {
            let from = ((r + ranks - 1) % ranks) as i64;
            let want: Vec<i64> = (0..TILE as i64).map(|i| if i < n { from * 100 + i } else { 0 }).collect();
            assert_eq!(world.read(&out, r).expect("read"), want, "rank {r} of {ranks}, n {n}");
        }
    }
}

#[test]
fn an_ll_store_racing_with_another_ll_store_or_a_plain_load_is_reported() {
    let mut rng = Rng(0x5eed_0012);
    for second in [Second::Store, Second::Load] {
        let mut lines = Lines::default();
        let k = compile(&ll_pair(second, &mut lines), true);
        for _ in 0..2 {
            let ranks = 1 + rng.below(4) as usize;
            let n = 1 + rng.below(TILE as u64) as i64;
            let world = World::local(ranks).expect("world");
            let (ll, out) = (world.alloc::<u64>(TILE as usize).expect("alloc"), world.alloc::<i64>(TILE as usize).expect("alloc"));
            let rep = race(world.launch_with(&k, [2, 1, 1], &[Arg::from(&ll), Arg::from(&out), Arg::I64(n)], &racecheck()));
            let text = rep.to_string();
            let RaceKind::DataRace { first, second: other } = &rep.kind else { panic!("{text}") };
            let mut seen = [first, other];
            seen.sort_by_key(|a| a.origin.program);
            let [sender, owner] = seen;
            assert_eq!((sender.origin.program, owner.origin.program), ([0, 0, 0], [1, 0, 0]), "{text}");
            // Both touch the owner's words: the sender is its left neighbour.
            assert_eq!(owner.origin.rank, owner.span.rank, "{text}");
            assert_eq!(sender.origin.rank, (owner.span.rank + ranks - 1) % ranks, "{text}");
            assert!(sender.origin.loc.contains(&format!("checks_ll.rs:{}:", lines.first)), "{text}");
            assert!(owner.origin.loc.contains(&format!("checks_ll.rs:{}:", lines.second)), "{text}");
            assert_eq!((sender.origin.op.as_str(), sender.kind), ("tile.store", AccessKind::Write), "{text}");
            let want = if second == Second::Store { ("tile.store", AccessKind::Write) } else { ("tile.load", AccessKind::Read) };
            assert_eq!((owner.origin.op.as_str(), owner.kind), want, "{text}");
            for a in [sender, owner] {
                assert_eq!((a.span.rank, a.span.alloc, a.span.offset, a.span.len), (owner.span.rank, Some((ll.raw.id, 8 * TILE as usize)), 0, 8 * n as usize), "{text}");
            }
        }
    }
}
