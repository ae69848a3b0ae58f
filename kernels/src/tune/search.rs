//! The search itself: agreed cache lookup, pruning, ranking by the cost model, parallel
//! compilation of the candidates, timing with early stops, a verified winner chosen by the
//! agreed times with a deterministic tie-break, and the entry written to every rank's cache.

use super::agree::Agreement;
use super::cache::{self, Entry, Measured};
use super::cost::{predict, Machine};
use super::gpu_cost::{self, GpuSpec};
use super::tiles::TileCosts;
use super::measure::{self, Runner, Schedule};
use super::space::{self, Config, Pruned};
use super::{agreed_lookup, key, target_of, CacheDirs, Problem, TuneError};
use std::collections::BTreeMap;
use std::path::PathBuf;
use weft_compiler::pipeline::Target;
use weft_runtime::World;

/// Where the winner came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// Every rank's cache held it.
    Cache,
    /// Measured now.
    Tuned,
}

/// What the tuner reports as it goes.
#[derive(Debug)]
pub enum Progress<'a> {
    /// The plan: space size, pruned, candidates to time, timings reused from the cache.
    Planned { space: usize, pruned: usize, candidates: usize, reused: usize },
    /// Candidates compiled so far.
    Compiled { done: usize, total: usize },
    /// A candidate is about to be prepared and timed (the `index`th of at most `of`): a
    /// caller that notes the time sees which config a stall under load was spent on.
    Timing { config: &'a Config, index: usize, of: usize },
    /// One candidate timed (agreed microseconds).
    Measured { config: &'a Config, us: f64 },
    /// Timing stopped before the end of the candidate list.
    Stopped { why: String },
    /// The closest measured configs re-timed in alternation (agreed microseconds), and, when
    /// another finalist re-timed faster than the default, how their paired rounds went and
    /// whether the default stayed first or was replaced.
    Finalists { times: Vec<(String, f64)>, versus_default: Option<String> },
}

/// Options of [`tune`].
#[derive(Clone, Debug)]
pub struct Options {
    /// Cache directories.
    pub dirs: CacheDirs,
    /// Fraction of the (pruned) space to time at most.
    pub fraction: f64,
    /// Timing schedule of each candidate.
    pub schedule: Schedule,
    /// Re-tune even on a cache hit.
    pub force: bool,
    /// Time every config once, without re-timing finalists (for the bench's reference, which
    /// re-times its contenders head to head).
    pub exhaustive: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options { dirs: CacheDirs::default(), fraction: 0.25, schedule: Schedule::default(), force: false, exhaustive: false }
    }
}

/// The result of [`tune`].
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The winning config.
    pub winner: Config,
    /// Cache hit or measured now.
    pub source: Source,
    /// Every measured config: the re-timed finalists first (fastest first by their re-timed
    /// rounds; those within 2% of the fastest in the model's order), then the rest by their
    /// first-pass time.
    pub ranked: Vec<(String, Measured)>,
    /// How many leading entries of `ranked` were re-timed in alternation (0 on a cache hit,
    /// whose entry keeps one time per config).
    pub retimed: usize,
    /// Size of the space.
    pub space: usize,
    /// Configs pruned before compiling.
    pub pruned: Vec<Pruned>,
    /// Configs timed in this call.
    pub measured_now: usize,
    /// Timings reused from the cache.
    pub reused: usize,
    /// Warnings (corrupt cache, disagreeing ranks).
    pub notes: Vec<String>,
    /// The cache file of this process's first rank.
    pub path: PathBuf,
}

/// Tunes `problem` on `world` (or returns the agreed cached result).
pub fn tune(world: &World, problem: &Problem, opts: &Options, progress: &mut dyn FnMut(Progress)) -> Result<Outcome, TuneError> {
    let target = target_of(world);
    let key = key(world, problem)?;
    let full = space::space(&problem.op, target)?;
    let space_hash = blake3::hash(full.iter().map(Config::id).collect::<Vec<_>>().join("\n").as_bytes()).to_hex()[..32].to_string();
    let (valid, pruned) = space::prune(full.clone(), problem, world.topology(), target);
    let mut agree = Agreement::new(world)?;
    let agreed = agreed_lookup(world, &key, &opts.dirs, &mut agree)?;
    let first_dir = opts.dirs.for_rank(world.host_ranks().start);
    let path = first_dir.join(key.file_name());
    if let Some(e) = agreed.hit.as_ref().filter(|e| !opts.force && e.space_hash == space_hash)
        && let Some(winner) = Config::parse(&e.winner)
    {
        // The winner first: the entry keeps the finalists' re-timed rounds beside other
        // configs' first-pass loops, and a first-pass loop caught in a quiet moment can be
        // shorter than the winner's low-quartile round (0.72x of it on `weft tune ag_gemm`).
        let ranked = ordered(&e.measured, std::slice::from_ref(&e.winner));
        return Ok(Outcome { winner, source: Source::Cache, ranked, retimed: 0, space: full.len(), pruned, measured_now: 0, reused: 0, notes: agreed.notes, path });
    }
    let Some(first) = valid.first().cloned() else {
        let first = pruned.first().map(|p| format!("{}: {}", p.config.id(), p.why)).unwrap_or_default();
        return Err(TuneError::EmptySpace { op: problem.op.clone(), first });
    };
    let machine = agreed_machine(world, &first_dir, problem, target, &mut agree)?;
    // GPU tiles are ranked by the GPU's model; collectives (and CPU code) by the CPU's.
    let gpu = (target != Target::Cpu).then(|| GpuSpec::of(target, world.gpu_sms()));
    let model = |c: &Config| gpu.as_ref().and_then(|g| gpu_cost::predict(c, problem, world.topology(), g)).unwrap_or_else(|| predict(c, problem, world.topology(), &machine));
    let mut by_model: Vec<(Config, f64)> = valid.iter().map(|c| (c.clone(), model(c))).collect();
    by_model.sort_by(|a, b| a.1.total_cmp(&b.1).then_with(|| a.0.cmp(&b.0)));
    let n = if opts.exhaustive { valid.len() } else { ((valid.len() as f64 * opts.fraction).floor() as usize).clamp(valid.len().min(2), valid.len()) };
    let default = space::default_config(problem, world.topology(), target).unwrap_or(first);
    let method_default = |alg: &str| space::method_default(alg, problem, world.topology(), target).ok();
    let seeds = seeds(&by_model, &default, &method_default, n);
    let ids: std::collections::BTreeSet<String> = valid.iter().map(Config::id).collect();
    let mut measured: BTreeMap<String, Measured> =
        agreed.reusable.filter(|_| !opts.force).map(|e| e.measured.into_iter().filter(|(id, _)| ids.contains(id)).collect()).unwrap_or_default();
    let reused = measured.len();
    progress(Progress::Planned { space: full.len(), pruned: pruned.len(), candidates: n, reused });
    let mut warm = seeds.clone();
    warm.extend(neighbours(&by_model[0].0, &by_model));
    warm.retain(|c| !measured.contains_key(&c.id()));
    warm.truncate(n);
    precompile(world, problem, &warm, progress);
    let plan = Plan { seeds, default: default.id(), by_model, budget: n };
    let measured_now = time_candidates(world, problem, &plan, opts, &mut agree, &mut measured, progress)?;
    let model = |id: &str| plan.by_model.iter().find(|(c, _)| c.id() == id).map_or(f64::MAX, |p| p.1);
    // A sweep's caller (the tune bench) re-times the contenders it takes from it itself.
    let finalists = if opts.exhaustive { vec![] } else { retime_finalists(world, problem, opts, &mut agree, &mut measured, (&default.id(), &model), progress)? };
    let mut notes = agreed.notes;
    let winner = verified_winner(world, problem, &finalists, &mut measured, &mut agree, &mut notes)?;
    let entry = Entry { key, winner: winner.id(), measured: measured.clone(), space: full.len(), space_hash, pruned: pruned.len() };
    let mut dirs: Vec<PathBuf> = world.host_ranks().map(|r| opts.dirs.for_rank(r)).collect();
    dirs.dedup();
    for d in dirs {
        cache::store(&d, &entry)?;
    }
    let retimed = finalists.iter().filter(|id| measured.contains_key(*id)).count();
    Ok(Outcome { winner, source: Source::Tuned, ranked: ordered(&measured, &finalists), retimed, space: full.len(), pruned, measured_now, reused, notes, path })
}

/// What the first pass times before anything else, about two thirds of the budget `n` (the
/// rest walks the neighbours of the best measured config, which corrects the model where it
/// misjudges one parameter): the `default` (so tuning never picks something slower than no
/// tuning), one config of every method (algorithm) the model puts within [`SEED_METHODS_WITHIN`]
/// of its best, in the model's order (the model's best first: its method's seed), then the
/// model's order, one past the two thirds. A method's config is its own
/// defaults (`method_default`) where they are in the space (and neither the default nor of
/// the model's best method), else the model's best of it: the
/// model misjudges whole methods and their tiles (it ranked every `allgather_bidir` behind the
/// library AllGather at 16 MiB on 1x4, and its 1024-wide tiles first, where the tune bench timed
/// the ring's own 64-wide tile at 11.0 ms against 18.5), and a method never timed has no
/// neighbours walked.
pub(super) fn seeds(by_model: &[(Config, f64)], default: &Config, method_default: &dyn Fn(&str) -> Option<Config>, n: usize) -> Vec<Config> {
    let in_space = |c: &Config| by_model.iter().any(|(o, _)| o == c);
    let mut out: Vec<Config> = in_space(default).then(|| default.clone()).into_iter().collect();
    let best = by_model.first().map_or(0.0, |(_, t)| *t);
    let mut methods = std::collections::BTreeSet::new();
    // A method's seed is the model's best of it where its own defaults are already seeded
    // (they are the default) or where it holds the model's best (seeded below anyway): two
    // seeds of one method leave another method untimed (4 KiB ReduceScatter on 1x4, a budget
    // of 3: the default `reduce_scatter BLOCK=1024`, the bidirectional ring's own defaults and
    // its model-best at CHUNK=1024, while the library's at BLOCK=64, the sweep's best at 3.3
    // us against 3.6, was never timed).
    let first = by_model.first().map(|(c, _)| c.algorithm.clone());
    let per_method = by_model
        .iter()
        .filter(|(c, t)| *t <= best * SEED_METHODS_WITHIN && methods.insert(c.algorithm.clone()))
        .map(|(c, _)| {
            let own = method_default(&c.algorithm).filter(|d| in_space(d) && d != default && first.as_ref() != Some(&c.algorithm));
            own.unwrap_or_else(|| c.clone())
        });
    // The model's best is the first method's seed (past the two thirds if need be: a small
    // budget spent on the default and the methods' defaults, then the walk, never timed it;
    // 4 KiB ReduceScatter on 1x4, a budget of 3: the bidirectional ring at CHUNK=1024, the
    // head-to-head's best, was left out for its BLOCK=1024 neighbour, 2x slower).
    let top = by_model.iter().map(|(c, _)| c.clone());
    for c in per_method.chain(top) {
        if out.len() >= ((2 * n / 3).max(2) + 1).min(n) {
            break;
        }
        if !out.contains(&c) {
            out.push(c);
        }
    }
    out
}

/// Methods the model predicts slower than its best by more than this factor get no seed of
/// their own (LL protocols on CPU threads, one-shot at 16 MiB): the budget is a quarter of the
/// space, and their configs still come up in the model's order or as neighbours.
const SEED_METHODS_WITHIN: f64 = 2.0;

/// Measured configs, fastest first, ties by id.
fn rank(m: &BTreeMap<String, Measured>) -> Vec<(String, Measured)> {
    let mut v: Vec<(String, Measured)> = m.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
    v.sort_by(|a, b| a.1.us.total_cmp(&b.1.us).then_with(|| a.0.cmp(&b.0)));
    v
}

/// Measured configs with the re-timed `finalists` first (fastest first by their re-timed
/// rounds), then the rest by [`rank`]: the others were slower than every finalist in the first
/// pass and were not re-timed, so their best loops do not compete with the finalists' re-timed rounds.
pub(super) fn ordered(m: &BTreeMap<String, Measured>, finalists: &[String]) -> Vec<(String, Measured)> {
    let first = finalists.iter().filter_map(|id| m.get(id).map(|x| (id.clone(), x.clone())));
    first.chain(rank(m).into_iter().filter(|(id, _)| !finalists.contains(id))).collect()
}

/// The machine constants (and, for a GEMM, its element type's tile costs, and the launch and
/// signal costs measured on `world`) of the lowest rank, so every rank ranks the space the same way.
fn agreed_machine(world: &World, dir: &std::path::Path, problem: &Problem, target: Target, agree: &mut Agreement) -> Result<Machine, TuneError> {
    let mut m = Machine::cached(dir);
    // The CPU tile costs rank CPU tiles only (a GPU's tiles have their own model).
    if matches!(problem.shape, super::Shape::Matmul(_)) && target == Target::Cpu {
        m.tiles = TileCosts::cached(dir, problem.dtype);
    }
    let machine = [m.flops_per_core, m.copy_bytes_per_s, m.cache_copy_bytes_per_s, m.signal_s, m.spawn_s, m.cores as f64, m.poll_share];
    let f = agreed_f64s(agree, &machine)?;
    let mut tiles = TileCosts::NONE;
    for (s, v) in tiles.s_per_flop.iter_mut().flatten().zip(agreed_f64s(agree, &m.tiles.s_per_flop.concat())?) {
        *s = v;
    }
    let f = |i: usize| f[i];
    let m = Machine { flops_per_core: f(0), copy_bytes_per_s: f(1), cache_copy_bytes_per_s: f(2), signal_s: f(3), launch_s: 0.0, spawn_s: f(4), cores: f(5) as usize, poll_share: f(6), tiles };
    super::launch::on_world(world, agree, &m)
}

/// The lowest rank's `values`, gathered 8 at a time ([`super::agree::WORDS`] words).
pub(super) fn agreed_f64s(agree: &mut Agreement, values: &[f64]) -> Result<Vec<f64>, TuneError> {
    let mut out = Vec::with_capacity(values.len());
    for part in values.chunks(super::agree::WORDS / 2) {
        let all = agree.gather(|_| part.iter().flat_map(|x| [x.to_bits() as u32, (x.to_bits() >> 32) as u32]).collect())?;
        out.extend((0..part.len()).map(|i| f64::from_bits(all[0][2 * i] as u64 | (all[0][2 * i + 1] as u64) << 32)));
    }
    Ok(out)
}

/// Compiles the library kernels of `configs` on as many threads as there are cores, so the
/// timing loop finds them in the compile cache. Failures are left for the timing loop, which
/// reports them after the ranks agree.
fn precompile(world: &World, problem: &Problem, configs: &[Config], progress: &mut dyn FnMut(Progress)) {
    let threads = std::thread::available_parallelism().map(|c| c.get()).unwrap_or(1);
    let library: Vec<&Config> = configs.iter().filter(|c| c.msccl().is_none()).collect();
    let total = library.len();
    let mut done = 0;
    for batch in library.chunks(threads) {
        std::thread::scope(|s| {
            for c in batch {
                s.spawn(|| {
                    if let Ok(k) = crate::build(&c.algorithm, &c.constexprs(problem.dtype.name())) {
                        let _ = crate::gpu::launchable_for(world, &k);
                    }
                });
            }
        });
        done += batch.len();
        progress(Progress::Compiled { done, total });
    }
}

/// What to time: seeds first, then neighbours of the best, then the model's order.
struct Plan {
    seeds: Vec<Config>,
    /// The default's id: a start of the walk.
    default: String,
    by_model: Vec<(Config, f64)>,
    budget: usize,
}

/// The configs of `all` that differ from `c` in exactly one knob, best neighbour of each knob
/// first (coordinate descent): the model's best value of every parameter, then its second of
/// every parameter, and so on, so a single-knob win (a ring's `CHUNK`) is timed within the
/// budget even where the model puts every value of another knob ahead of it. The method counts
/// as a knob: another algorithm with every parameter the two share equal (and at least one
/// shared) is a neighbour too, since the model misjudges whole methods at some sizes (two-shot
/// against multimem at 64 KiB) while the tile parameters carry over. `all` is in model order.
pub(super) fn neighbours(c: &Config, all: &[(Config, f64)]) -> Vec<Config> {
    let knob = |o: &Config| -> Option<String> {
        if o.algorithm == c.algorithm {
            let mut differ = o.params.iter().filter(|(k, v)| c.params.get(*k) != Some(*v)).map(|(k, _)| k.clone());
            return match (differ.next(), differ.next()) {
                (Some(k), None) => Some(k),
                _ => None,
            };
        }
        let shared: Vec<&String> = o.params.keys().filter(|k| c.params.contains_key(*k)).collect();
        (!shared.is_empty() && shared.iter().all(|k| o.params.get(*k) == c.params.get(*k))).then(|| METHOD_KNOB.to_string())
    };
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut out: Vec<(usize, usize, Config)> = all
        .iter()
        .enumerate()
        .filter_map(|(i, (o, _))| {
            let k = knob(o)?;
            let rank = seen.entry(k).or_insert(0);
            *rank += 1;
            Some((*rank, i, o.clone()))
        })
        .collect();
    out.sort_by_key(|(rank, i, _)| (*rank, *i));
    out.into_iter().map(|(_, _, o)| o).collect()
}

/// The unmeasured (`fresh`) neighbours to walk next, from the fastest measured config, from
/// the `default` and from the fastest config of every other method within
/// [`OTHER_METHOD_WITHIN`] of the fastest (up to [`WALK_METHODS`] methods), taken in turn
/// starting with start `turn` (the caller counts its walk's steps, since it takes one config
/// and asks again): one first-pass loop of a 30 ms launch moves by a third at load 12, so the
/// method that leads the first pass is not always the one whose knobs hold the win (16 MiB
/// AllGather on 1x4: the library ring led, `allgather_bidir`'s CHUNK won by 1.7x, and every
/// step walked the library ring's BLOCK). The default is a start of its own because a
/// winner has to beat it by a margin and one knob away from it is where such a lead most often
/// is (the tune bench's ag_gemm 1x2 rows: the sweep's best was the default with `SWIZZLE=1`,
/// never timed while the walk spent the budget around a first-pass leader 2% ahead of it).
pub(super) fn walk(ranked: &[(String, Measured)], all: &[(Config, f64)], default: &str, turn: usize, fresh: &dyn Fn(&Config) -> bool) -> Vec<Config> {
    let method = |id: &str| id.split_whitespace().next().unwrap_or("").to_string();
    let fastest = ranked.first().map_or(0.0, |(_, m)| m.us);
    let near: Vec<&str> = ranked.iter().take_while(|(_, m)| m.us <= fastest * OTHER_METHOD_WITHIN).map(|(id, _)| id.as_str()).collect();
    let mut starts: Vec<&str> = near.iter().take(1).copied().collect();
    if near.contains(&default) && !starts.contains(&default) {
        starts.push(default);
    }
    for id in near.iter().skip(1) {
        if !starts.iter().any(|s| method(s) == method(id)) && starts.iter().filter(|s| **s != default).count() < WALK_METHODS {
            starts.push(id);
        }
    }
    let mut lists: Vec<Vec<Config>> = starts.iter().filter_map(|id| Config::parse(id)).map(|c| neighbours(&c, all).into_iter().filter(|n| fresh(n)).collect()).collect();
    lists.retain(|l| !l.is_empty());
    if !lists.is_empty() {
        let by = turn % lists.len();
        lists.rotate_left(by);
    }
    let mut out: Vec<Config> = vec![];
    for i in 0..lists.iter().map(Vec::len).max().unwrap_or(0) {
        for c in lists.iter().filter_map(|l| l.get(i)) {
            if !out.contains(c) {
                out.push(c.clone());
            }
        }
    }
    out
}

/// Methods whose fastest configs the walk starts from.
const WALK_METHODS: usize = 2;

/// The knob a neighbour under another method differs in.
const METHOD_KNOB: &str = "(method)";

/// Times up to `plan.budget` configs not yet measured: the seeds, then the unmeasured
/// neighbours of the best so far (a local search from wherever the model was wrong), then the
/// model's order, stopping when the model (scaled by its best observed error) gives the rest
/// no chance. Every choice depends only on agreed times, so every rank times the same
/// configs. Returns how many were timed.
fn time_candidates(
    world: &World,
    problem: &Problem,
    plan: &Plan,
    opts: &Options,
    agree: &mut Agreement,
    measured: &mut BTreeMap<String, Measured>,
    progress: &mut dyn FnMut(Progress),
) -> Result<usize, TuneError> {
    let pred = |c: &Config| plan.by_model.iter().find(|(o, _)| o == c).map_or(f64::MAX, |p| p.1);
    let mut best = measured.values().map(|m| m.us * 1e-6).reduce(f64::min);
    let (mut ratio, mut timed, mut walked) = (f64::MAX, 0, 0);
    let mut failed: std::collections::BTreeSet<String> = Default::default();
    // The first config this call times (the default, first of the seeds) and its time: every
    // later candidate is timed in alternation with it (`measure::time_against`). Not in a
    // sweep (`exhaustive`), whose caller re-times its contenders head to head.
    let mut reference: Option<(Runner, f64)> = None;
    while timed < plan.budget {
        let fresh = |c: &&Config| !measured.contains_key(&c.id()) && !failed.contains(&c.id());
        let local = walk(&rank(measured), &plan.by_model, &plan.default, walked, &|c| fresh(&c));
        let seed = plan.seeds.iter().find(fresh);
        walked += usize::from(seed.is_none() && !local.is_empty());
        let next = match seed.or_else(|| local.first()).cloned() {
            Some(c) => c,
            None => {
                let Some(c) = plan.by_model.iter().map(|(c, _)| c).find(fresh).cloned() else { break };
                if !opts.exhaustive && best.is_some_and(|b| pred(&c) * ratio > b * opts.schedule.give_up) {
                    progress(Progress::Stopped { why: format!("the model gives the remaining configs no chance against {:.1} us", best.unwrap_or(0.0) * 1e6) });
                    break;
                }
                c
            }
        };
        progress(Progress::Timing { config: &next, index: timed + 1, of: plan.budget });
        let runner = Runner::prepare(world, problem, &next);
        let ok = agree.gather(|_| vec![runner.is_ok() as u32])?.iter().all(|v| v[0] == 1);
        let (Ok(mut runner), true) = (runner, ok) else {
            failed.insert(next.id());
            continue;
        };
        let (t, runs) = match reference.take() {
            Some((r, ref_s)) => {
                let (t, runs, r) = measure::time_against(runner, r, ref_s, agree, &opts.schedule)?;
                reference = Some((r, ref_s));
                (t, runs)
            }
            None => {
                let (t, runs) = measure::time(&mut runner, agree, &opts.schedule, best)?;
                reference = (!opts.exhaustive).then_some((runner, t));
                (t, runs)
            }
        };
        timed += 1;
        measured.insert(next.id(), Measured { us: t * 1e6, runs });
        progress(Progress::Measured { config: &next, us: t * 1e6 });
        best = Some(best.map_or(t, |b: f64| b.min(t)));
        ratio = ratio.min(t / pred(&next).max(1e-12));
    }
    Ok(timed)
}

/// Finalists: the fastest measured configs re-timed together, and the rounds they get.
const FINALISTS: usize = 4;
/// Finalists of other methods beside those, at most.
const OTHER_METHODS: usize = 2;
/// How much slower than the fastest first-pass time another method's fastest may be and still
/// be re-timed: one config's first-pass loops moved 2-3x between calls at load 11 (the tune
/// bench's 1x8 rows), so a first pass alone cannot rule a method out.
const OTHER_METHOD_WITHIN: f64 = 2.0;
const FINAL_ROUNDS: usize = 7;
/// Rounds the finalists get at most while the leader is not settled ([`measure::leader_settled`]);
/// the time budget ends them sooner for long launches.
const MAX_FINAL_ROUNDS: usize = 31;
/// How far past its time budget the finalists' rounds go while the sign test is unsettled
/// (a factor; bounded, so a tie between long launches costs at most this many budgets).
const FINAL_EXTEND: f64 = 2.0;
/// Another config replaces the default only when its re-timed time beats the default's by
/// this factor: a smaller lead is within what differs between runs on a shared machine (the
/// tune bench's noise column is 2-6%), and a wrong switch costs the user more than the lead
/// would have bought. At 3% the quiet tune bench (efe5dbe) replaced the gemm_rs 344 2x2
/// default on a 3.4% lead, faster in 61 of 70 pairs, which its head to head then timed 3%
/// behind the default; every other replacement in that run led by 7% or more, and a lead
/// under 5% cannot lift a row below the bench's 95% of the best.
const DEFAULT_MARGIN: f64 = 1.05;

/// Moves the `default` to the front of the re-timed `by_time` (fastest first) when it is within
/// [`DEFAULT_MARGIN`] of the fastest, or when the fastest did not beat it over their paired
/// rounds (`proven(fastest)`: a sign test, and faster in three quarters of the pairs, a
/// tenth ahead in total, or steadily ahead, see [`measure::robustly_beats`]): a lead the
/// rounds do not decide is noise, and a non-default config chosen on noise or on the good
/// mode of a bimodal launch can be 2x slower than the default in the next run (the tune
/// bench's 4 KiB AllReduce: 0.47x; 256 KiB: ring 194 us against two-shot 91).
pub(super) fn prefer_default(by_time: &mut Vec<(String, f64)>, default: &str, proven: &dyn Fn(&str) -> bool) {
    let Some((lead, fastest)) = by_time.first().cloned() else { return };
    if let Some(at) = by_time.iter().position(|(id, t)| id == default && (*t <= fastest * DEFAULT_MARGIN || !proven(&lead))) {
        let d = by_time.remove(at);
        by_time.insert(0, d);
    }
}

/// Re-timed finalists this close to the fastest are a tie the rounds cannot resolve (the tune
/// bench's head-to-head moves such pairs by 5-8% between its halves); the model breaks it.
const TIE: f64 = 1.02;

/// The finalists' ids from `ranked` (fastest first): the `FINALISTS` fastest, then the fastest
/// of each method (algorithm) not among them, if within `OTHER_METHOD_WITHIN` of the fastest,
/// up to `OTHER_METHODS` of them: which method wins (the copy engine against communication
/// programs) is then decided by the interleaved rounds, not by one loop of each. Then the
/// `default` if it was measured: tuning must not pick something slower than no tuning, and one
/// first-pass loop of the default caught by a burst of load (3.0 ms, where the bench's 20
/// rounds at load 15 timed it at 0.56-1.1 ms) would otherwise leave it out.
pub(super) fn finalist_ids(ranked: &[(String, Measured)], default: &str) -> Vec<String> {
    let method = |id: &str| id.split_whitespace().next().unwrap_or("").to_string();
    let mut ids: Vec<String> = ranked.iter().take(FINALISTS).map(|(id, _)| id.clone()).collect();
    let Some(fastest) = ranked.first().map(|(_, m)| m.us) else { return ids };
    for (id, _) in ranked.iter().skip(FINALISTS).take_while(|(_, m)| m.us <= fastest * OTHER_METHOD_WITHIN) {
        if ids.len() < FINALISTS + OTHER_METHODS && !ids.iter().any(|f| method(f) == method(id)) {
            ids.push(id.clone());
        }
    }
    if !ids.iter().any(|id| id == default) && ranked.iter().any(|(id, _)| id == default) {
        ids.push(default.to_string());
    }
    ids
}

/// Re-times the fastest measured configs in alternation and keeps their low-quartile rounds: timed
/// one after another, a burst of load from other processes can make a slower config look best
/// (or a faster one look 2x slower), and interleaved loops give every finalist the same
/// conditions. Agreed like the rest: a
/// finalist any rank cannot prepare leaves the times as they were.
fn retime_finalists(
    world: &World,
    problem: &Problem,
    opts: &Options,
    agree: &mut Agreement,
    measured: &mut BTreeMap<String, Measured>,
    (default, model): (&str, &dyn Fn(&str) -> f64),
    progress: &mut dyn FnMut(Progress),
) -> Result<Vec<String>, TuneError> {
    let finalists: Vec<Config> = finalist_ids(&rank(measured), default).iter().filter_map(|id| Config::parse(id)).collect();
    if finalists.len() < 2 {
        return Ok(vec![]);
    }
    let runners: Result<Vec<Runner>, _> = finalists.iter().map(|c| Runner::prepare(world, problem, c)).collect();
    let ok = agree.gather(|_| vec![runners.is_ok() as u32])?.iter().all(|v| v[0] == 1);
    let (Ok(mut runners), true) = (runners, ok) else { return Ok(vec![]) };
    let schedule = Schedule { rounds: opts.schedule.rounds.max(MAX_FINAL_ROUNDS), extend: opts.schedule.extend.max(FINAL_EXTEND), ..opts.schedule };
    let rounds = measure::interleaved_until(&mut runners, agree, &schedule, opts.schedule.rounds.max(FINAL_ROUNDS), &measure::leader_settled)?;
    let times = measure::paired_times(&rounds);
    for (c, t) in finalists.iter().zip(&times) {
        if let Some(m) = measured.get_mut(&c.id()) {
            m.us = t * 1e6;
        }
    }
    let mut by_time: Vec<(String, f64)> = finalists.iter().map(Config::id).zip(times.iter().map(|t| t * 1e6)).collect();
    by_time.sort_by(|a, b| a.1.total_cmp(&b.1).then_with(|| a.0.cmp(&b.0)));
    let tied = by_time.iter().take_while(|(_, t)| *t <= by_time[0].1 * TIE).count();
    by_time[..tied].sort_by(|a, b| model(&a.0).total_cmp(&model(&b.0)).then_with(|| a.0.cmp(&b.0)));
    let at = |id: &str| finalists.iter().position(|c| c.id() == id);
    let proven = |lead: &str| match (at(lead), at(default)) {
        (Some(l), Some(d)) => measure::robustly_beats(&rounds[l], &rounds[d]),
        _ => true,
    };
    let lead = by_time[0].0.clone();
    prefer_default(&mut by_time, default, &proven);
    let versus_default = match (at(&lead), at(default)) {
        (Some(l), Some(d)) if lead != default => Some(versus_default_note(by_time[0].0 != lead, &lead, &rounds[l], &rounds[d])),
        _ => None,
    };
    progress(Progress::Finalists { times: by_time.clone(), versus_default });
    Ok(by_time.into_iter().map(|(id, _)| id).collect())
}

/// How `lead`'s paired rounds (`a`) went against the default's (`b`) when `lead` re-timed
/// faster, whether the default was `kept` first or replaced, beside what replacing it takes
/// ([`prefer_default`]): a kept default can be told from a lost comparison (the tune bench's
/// near-tie rows), and a replacement shows the margin it won by.
pub(super) fn versus_default_note(kept: bool, lead: &str, a: &[f64], b: &[f64]) -> String {
    let ratios: Vec<f64> = a.iter().zip(b).map(|(x, y)| x / y.max(1e-12)).collect();
    let wins = ratios.iter().filter(|r| **r < 1.0).count();
    format!(
        "default {}: `{lead}` was faster in {wins} of {} paired rounds (median ratio {:.2}, upper quartile {:.2}, total time {:.2}); replacing the default takes a {:.0}% lead, the sign test and three quarters of the rounds, a total under {:.2}, or a slow quarter and a total within {:.0}%",
        if kept { "kept" } else { "replaced" },
        ratios.len(),
        measure::median(ratios.clone()),
        measure::upper_quartile(&ratios),
        measure::paired_total_ratio(a, b),
        (DEFAULT_MARGIN - 1.0) * 100.0,
        measure::MEAN_LEAD,
        (measure::STEADY_LOSS - 1.0) * 100.0
    )
}

/// The fastest measured config (in [`ordered`]'s order) whose result matches the reference on
/// every rank (agreed); configs that fail are dropped from `measured` and named in `notes` (a
/// faster config that fails is a kernel bug to see, not a silent fall-back).
fn verified_winner(world: &World, problem: &Problem, finalists: &[String], measured: &mut BTreeMap<String, Measured>, agree: &mut Agreement, notes: &mut Vec<String>) -> Result<Config, TuneError> {
    let mut why = "nothing was measured".to_string();
    for (id, _) in ordered(measured, finalists) {
        let Some(c) = Config::parse(&id) else { continue };
        let r = Runner::prepare(world, problem, &c).and_then(|mut r| r.verify());
        let ok = matches!(r, Ok((true, _)));
        if agree.gather(|_| vec![ok as u32])?.iter().all(|v| v[0] == 1) {
            return Ok(c);
        }
        why = match r {
            Ok((_, err)) => format!("{id}: wrong result (max error {err:.3e})"),
            Err(e) => format!("{id}: {e}"),
        };
        notes.push(format!("left out, it failed verification: {why}"));
        measured.remove(&id);
    }
    Err(TuneError::NothingRan { op: problem.op.clone(), why })
}

/// The agreed time of one config on `world` in seconds (the bench's default and exhaustive
/// rows use it).
pub fn measure_config(world: &World, problem: &Problem, config: &Config, schedule: &Schedule) -> Result<f64, TuneError> {
    let mut agree = Agreement::new(world)?;
    let mut r = Runner::prepare(world, problem, config)?;
    Ok(measure::time(&mut r, &mut agree, schedule, None)?.0)
}
