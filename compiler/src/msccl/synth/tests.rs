//! Synthesis tests: topologies, bounds, and synthesized algorithms checked by the symbolic
//! executor (postcondition, races, deadlocks) through `Algorithm::to_ir`.

use super::*;

fn quiet() -> impl FnMut(String) {
    |_| {}
}

#[test]
fn dgx1_matches_msccl_tools_matrix() {
    let expect = [
        [0, 2, 1, 1, 2, 0, 0, 0],
        [2, 0, 1, 2, 0, 1, 0, 0],
        [1, 1, 0, 2, 0, 0, 2, 0],
        [1, 2, 2, 0, 0, 0, 0, 1],
        [2, 0, 0, 0, 0, 2, 1, 1],
        [0, 1, 0, 0, 2, 0, 1, 2],
        [0, 0, 2, 0, 1, 1, 0, 2],
        [0, 0, 0, 1, 1, 2, 2, 0],
    ];
    let t = Topology::dgx1();
    for (s, row) in expect.iter().enumerate() {
        assert_eq!(t.links[s], row.to_vec(), "row {s}");
    }
}

#[test]
fn dgx1_allgather_frontier() {
    let t = Topology::dgx1();
    let start = std::time::Instant::now();
    let mut lines = Vec::new();
    let f = pareto_optimal(&t, SynthCollective::AllGather, 8, DEFAULT_BUDGET, &mut |l| {
        eprintln!("{l}");
        lines.push(l)
    })
    .unwrap();
    eprintln!("{}\n{:?}", lines.join("\n"), start.elapsed());
    let got: Vec<(usize, u32, usize)> = f.iter().map(|a| (a.steps, a.rounds, a.chunks)).collect();
    assert_eq!(got, vec![(2, 3, 2), (3, 7, 6)]);
    for a in &f {
        a.to_ir().unwrap();
    }
}
