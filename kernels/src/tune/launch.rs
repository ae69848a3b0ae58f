//! The fixed cost of one launch and the cost of one signal on the world being tuned (the
//! model's [`Machine::launch_s`] and [`Machine::signal_s`]): two minimal launches timed on
//! that world. The runtimes keep their workers across launches, so starting threads (what
//! the launch constant used to measure: 4.1 ms at load 9, charged to every prediction) is
//! not what a launch pays; and a ping-pong between two threads that yield (the machine
//! file's signal, 1.5-4.4 us) is 5-10x what a signal costs inside a launch (the 4 KiB
//! ReduceScatter's 8 signals on 1x4 in 3.5 us in all), which made the steps outweigh the
//! bytes at every small size.

use super::agree::Agreement;
use super::cost::{predict, Machine};
use super::measure::{self, Runner, Schedule};
use super::{space, target_of, Problem, Shape, TuneError};
use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};
use std::time::Duration;
use weft_runtime::{DType, World};

/// `m` with the agreed launch and signal costs of `world` (see [`fit`]): measured once per
/// process and world shape; every rank measures when any rank lacks them, so a launch is
/// never left to some ranks alone; the lowest rank's values, so every rank ranks the space
/// alike.
pub fn on_world(world: &World, agree: &mut Agreement, m: &Machine) -> Result<Machine, TuneError> {
    static MEMO: OnceLock<Mutex<HashMap<String, (f64, f64)>>> = OnceLock::new();
    let memo = MEMO.get_or_init(Default::default);
    let t = world.topology();
    let id = format!("{} {}x{} {}", world.transport(), t.nodes, t.local_size, target_of(world).name());
    let known = memo.lock().unwrap_or_else(|e| e.into_inner()).get(&id).copied();
    let all_know = agree.gather(|_| vec![known.is_some() as u32])?.iter().all(|v| v[0] == 1);
    let (launch, signal) = match known.filter(|_| all_know) {
        Some(k) => k,
        None => {
            let k = measure_once(world, agree, m)?;
            memo.lock().unwrap_or_else(|e| e.into_inner()).insert(id, k);
            k
        }
    };
    let agreed = super::search::agreed_f64s(agree, &[launch, signal])?;
    Ok(Machine { launch_s: agreed[0], signal_s: agreed[1], ..*m })
}

/// The two problems timed: one f32 element per rank broadcast (a launch and one signal), and
/// the library ReduceScatter of one whole tile per rank (a launch and the most signals of the
/// library's collectives, `2(w - 1)` steps, with no padding for the model to misjudge).
fn probes(world: &World) -> Result<[(Problem, space::Config); 2], TuneError> {
    let (topo, target, w) = (world.topology(), target_of(world), world.n_ranks().max(1));
    let problem = |op: &str, elems: usize| Problem { op: op.into(), shape: Shape::Elems(elems), dtype: DType::F32 };
    let bcast = problem("broadcast", w);
    let rs_default = space::default_config(&problem("reduce_scatter", w), topo, target)?;
    let block = rs_default.int("BLOCK").unwrap_or(1).max(1) as usize;
    let rs = problem("reduce_scatter", w * block);
    Ok([(space::default_config(&bcast, topo, target)?, bcast), (space::default_config(&rs, topo, target)?, rs)].map(|(c, p)| (p, c)))
}

/// The launch and signal costs that make the model's predictions of the two probes (`probe_s`,
/// seconds each; the model's predictions are linear in both constants) match their measured
/// times `t`: the signal from the difference of the two (their bytes are a few cache lines,
/// their steps differ by `2w - 3`), clamped to `[0, m.signal_s]` (the ping-pong bounds it:
/// a signal inside a launch finds its peer already spinning); the launch from the broadcast,
/// at least 0. Without a difference in steps (one rank) the machine file's signal stays.
pub(super) fn fit(m: &Machine, probe_s: &dyn Fn(&Machine) -> [f64; 2], t: [f64; 2]) -> (f64, f64) {
    let base = probe_s(&Machine { launch_s: 0.0, signal_s: 0.0, ..*m });
    let unit = probe_s(&Machine { launch_s: 0.0, signal_s: 1.0, ..*m });
    let steps = [unit[0] - base[0], unit[1] - base[1]];
    let signal = if steps[1] - steps[0] > 0.0 { ((t[1] - base[1] - (t[0] - base[0])) / (steps[1] - steps[0])).clamp(0.0, m.signal_s) } else { m.signal_s };
    let launch = (t[0] - base[0] - signal * steps[0]).max(0.0);
    (launch, signal)
}

fn measure_once(world: &World, agree: &mut Agreement, m: &Machine) -> Result<(f64, f64), TuneError> {
    let probes = probes(world)?;
    // Probes some rank cannot prepare leave the model without a launch cost and with the
    // machine file's signal (on every rank alike: the others must not start launching alone).
    let runners: Result<Vec<Runner>, _> = probes.iter().map(|(p, c)| Runner::prepare(world, p, c)).collect();
    let ok = agree.gather(|_| vec![runners.is_ok() as u32])?.iter().all(|v| v[0] == 1);
    let (Ok(mut runners), true) = (runners, ok) else { return Ok((0.0, m.signal_s)) };
    // Loops of 2 ms (hundreds of launches) in alternation, the best of 9 each: outside load
    // only adds time, and alternating gives both probes the same quiet moments.
    let s = Schedule { warmup: 3, round: 2, rounds: 9, min_loop: Duration::from_millis(2), budget: Duration::from_secs(1), sample: Duration::ZERO, ..Schedule::default() };
    let rounds = measure::interleaved_rounds(&mut runners, agree, &s)?;
    let best = |i: usize| rounds[i].iter().copied().fold(f64::MAX, f64::min);
    let topo = world.topology();
    let probe_s = |m: &Machine| probes.clone().map(|(p, c)| predict(&c, &p, topo, m));
    Ok(fit(m, &probe_s, [best(0), best(1)]))
}
