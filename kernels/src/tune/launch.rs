//! The fixed cost of one launch on the world being tuned (the model's [`Machine::launch_s`]):
//! a minimal launch timed on that world. The runtimes keep their workers across launches, so
//! starting threads (what the constant used to measure: 4.1 ms at load 9, charged to every
//! prediction, which made every small size look alike to the model) is not what a launch
//! pays; and what it pays depends on the transport and the number of ranks.

use super::agree::Agreement;
use super::cost::{predict, Machine};
use super::measure::{self, Runner, Schedule};
use super::{space, target_of, Problem, Shape, TuneError};
use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};
use std::time::Duration;
use weft_runtime::{DType, World};

/// The agreed seconds one launch costs on `world` beyond what `m`'s other constants predict:
/// the best timed loop of a one-element-per-rank broadcast (a launch, one signal, the end)
/// less the model's prediction of it without a launch cost. Measured once per process and
/// world shape; every rank measures when any rank lacks it, so a launch is never left to
/// some ranks alone.
pub fn cost(world: &World, agree: &mut Agreement, m: &Machine) -> Result<f64, TuneError> {
    static MEMO: OnceLock<Mutex<HashMap<String, f64>>> = OnceLock::new();
    let memo = MEMO.get_or_init(Default::default);
    let t = world.topology();
    let id = format!("{} {}x{} {}", world.transport(), t.nodes, t.local_size, target_of(world).name());
    let known = memo.lock().unwrap_or_else(|e| e.into_inner()).get(&id).copied();
    let all_know = agree.gather(|_| vec![known.is_some() as u32])?.iter().all(|v| v[0] == 1);
    let s = match known.filter(|_| all_know) {
        Some(s) => s,
        None => {
            let s = measure_once(world, agree, m)?;
            memo.lock().unwrap_or_else(|e| e.into_inner()).insert(id, s);
            s
        }
    };
    // The lowest rank's value, so every rank ranks the space alike.
    let all = agree.gather(|_| vec![s.to_bits() as u32, (s.to_bits() >> 32) as u32])?;
    Ok(f64::from_bits(all[0][0] as u64 | (all[0][1] as u64) << 32))
}

/// The problem timed: one f32 element per rank, broadcast.
fn probe(world: &World) -> Problem {
    Problem { op: "broadcast".into(), shape: Shape::Elems(world.n_ranks().max(1)), dtype: DType::F32 }
}

fn measure_once(world: &World, agree: &mut Agreement, m: &Machine) -> Result<f64, TuneError> {
    let p = probe(world);
    let c = space::default_config(&p, world.topology(), target_of(world))?;
    // A probe some rank cannot prepare leaves the model without a launch cost (on every
    // rank alike: the others must not start launching alone).
    let runner = Runner::prepare(world, &p, &c);
    let ok = agree.gather(|_| vec![runner.is_ok() as u32])?.iter().all(|v| v[0] == 1);
    let (Ok(mut runner), true) = (runner, ok) else { return Ok(0.0) };
    // Loops of 2 ms (hundreds of launches), the best of 7: outside load only adds time.
    let s = Schedule { warmup: 3, round: 2, rounds: 7, min_loop: Duration::from_millis(2), first_pass: Duration::from_secs(1), sample: Duration::ZERO, ..Schedule::default() };
    let (t, _) = measure::time(&mut runner, agree, &s, None)?;
    let rest = predict(&c, &p, world.topology(), &Machine { launch_s: 0.0, ..*m });
    Ok((t - rest).max(0.0))
}
