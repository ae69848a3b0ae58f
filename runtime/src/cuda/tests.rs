//! The CUDA transport without a GPU: the missing-driver error, error texts, the launcher
//! environment, the unique-id exchange, architectures, and code/transport mismatches.

use super::bootstrap::{await_uid, publish_uid, Bootstrap, Placement, UID_BYTES};
use super::{arch_for, BootstrapError, CudaError, CudaOptions};
use crate::{GpuCode, GpuParam, Launchable, RuntimeError, World};
use std::collections::HashMap;
use std::time::Duration;

fn vars(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
    let m: HashMap<String, String> = pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    move |k| m.get(k).cloned()
}

fn placement(pairs: &[(&str, &str)]) -> Result<Placement, BootstrapError> {
    Placement::from_vars(&vars(pairs))
}

#[test]
fn world_cuda_says_what_is_missing() {
    let err = match World::cuda() {
        Ok(w) => return eprintln!("skipped: a CUDA world opened here ({} ranks)", w.n_ranks()),
        Err(e) => e,
    };
    let text = err.to_string();
    // Whatever this machine lacks, the error is the CUDA transport's own and names it.
    let RuntimeError::Cuda(cuda) = &err else { panic!("not a CUDA error: {text}") };
    if super::driver::probe_driver().is_err() {
        assert!(matches!(cuda, CudaError::DriverNotFound { lib: "libcuda.so.1", .. }), "{text}");
        assert!(text.starts_with("CUDA driver not found: libcuda.so.1 could not be loaded ("), "{text}");
        // The listing says the same.
        assert_eq!(super::devices().unwrap_err().to_string(), text);
    } else {
        eprintln!("driver present; World::cuda() said: {text}");
    }
}

#[test]
fn error_messages_name_what_to_do() {
    let cases: Vec<(CudaError, &[&str])> = vec![
        (CudaError::NvshmemUnbound { why: "NVSHMEM headers not found in /x".into() }, &["headers not found in /x", "run ./setup.sh"]),
        (CudaError::NvshmemNotFound { path: "/t/libnvshmem_host.so.3".into(), reason: "no such file".into() }, &["/t/libnvshmem_host.so.3", "WEFT_NVSHMEM_LIB"]),
        (CudaError::NoGpu("cuDeviceGetCount returned 0".into()), &["no CUDA GPU visible", "cuDeviceGetCount returned 0", "CUDA_VISIBLE_DEVICES"]),
        (CudaError::UnsupportedGpu { device: 1, name: "T4".into(), major: 7, minor: 5 }, &["GPU 1 (T4)", "7.5", "sm_90a"]),
        (CudaError::DeviceOutOfRange { local_rank: 3, device: 3, count: 2 }, &["local rank 3", "GPU 3", "only 2"]),
        (CudaError::Nvshmem { call: "nvshmem_malloc", message: "no room".into() }, &["NVSHMEM call nvshmem_malloc failed: no room"]),
        (CudaError::Finalized, &["cannot be initialized again"]),
        (BootstrapError::NoBootstrap { size: 4 }.into(), &["4 ranks", "WEFT_NVSHMEM_UID_FILE", "NVSHMEM_BOOTSTRAP"]),
    ];
    for (e, parts) in cases {
        let text = RuntimeError::from(e).to_string();
        for p in parts {
            assert!(text.contains(p), "{text:?} lacks {p:?}");
        }
    }
}

#[test]
fn placement_from_launcher_variables() {
    let single = placement(&[]).unwrap();
    assert_eq!((single.rank, single.size, single.local_rank, single.local_size, single.bootstrap), (0, 1, 0, 1, Bootstrap::UidInProcess));
    // Open MPI's variables, two nodes of four; weft's own win over them.
    let ompi = [("OMPI_COMM_WORLD_RANK", "5"), ("OMPI_COMM_WORLD_SIZE", "8"), ("OMPI_COMM_WORLD_LOCAL_RANK", "1"), ("OMPI_COMM_WORLD_LOCAL_SIZE", "4"), ("WEFT_NVSHMEM_UID_FILE", "/shared/uid")];
    let p = placement(&ompi).unwrap();
    assert_eq!((p.rank, p.size, p.local_rank, p.local_size), (5, 8, 1, 4));
    assert_eq!(p.bootstrap, Bootstrap::UidFile("/shared/uid".into()));
    let p = placement(&[("WEFT_RANK", "1"), ("WEFT_WORLD_SIZE", "2"), ("PMI_RANK", "0"), ("NVSHMEM_BOOTSTRAP", "MPI"), ("WEFT_BOOTSTRAP_TIMEOUT_MS", "5")]).unwrap();
    assert_eq!((p.rank, p.local_rank, p.bootstrap, p.uid_timeout), (1, 1, Bootstrap::NvshmemEnv, Duration::from_millis(5)));
    let o = CudaOptions::from_vars(&vars(&[("WEFT_CUDA_DEVICE", "3")])).unwrap();
    assert_eq!(o.device, Some(3));
}

#[test]
fn bad_placements_are_typed_errors() {
    let bad_value = |pairs: &[(&str, &str)], var: &str| match placement(pairs) {
        Err(BootstrapError::BadValue { var: v, .. }) => assert_eq!(v, var),
        other => panic!("{pairs:?}: {other:?}"),
    };
    bad_value(&[("WEFT_RANK", "one"), ("WEFT_WORLD_SIZE", "2")], "WEFT_RANK");
    bad_value(&[("PMI_SIZE", "-2")], "PMI_SIZE");
    bad_value(&[("WEFT_BOOTSTRAP_TIMEOUT_MS", "soon")], "WEFT_BOOTSTRAP_TIMEOUT_MS");
    let inconsistent = |pairs: &[(&str, &str)], says: &str| match placement(pairs) {
        Err(e @ BootstrapError::Inconsistent(_)) => assert!(e.to_string().contains(says), "{e}"),
        other => panic!("{pairs:?}: {other:?}"),
    };
    let uid = ("WEFT_NVSHMEM_UID_FILE", "/u");
    inconsistent(&[("WEFT_RANK", "4"), ("WEFT_WORLD_SIZE", "4"), uid], "rank 4 is not below the world size 4");
    inconsistent(&[("WEFT_WORLD_SIZE", "4"), uid], "no rank variable");
    inconsistent(&[("WEFT_WORLD_SIZE", "0")], "world size is 0");
    inconsistent(&[("WEFT_RANK", "0"), ("WEFT_WORLD_SIZE", "6"), ("WEFT_LOCAL_SIZE", "4"), uid], "do not divide");
    inconsistent(&[("WEFT_RANK", "5"), ("WEFT_WORLD_SIZE", "8"), ("WEFT_LOCAL_SIZE", "4"), ("WEFT_LOCAL_RANK", "0"), uid], "node by node");
    assert!(matches!(placement(&[("WEFT_RANK", "1"), ("WEFT_WORLD_SIZE", "2")]), Err(BootstrapError::NoBootstrap { size: 2 })));
    let e = CudaOptions::from_vars(&vars(&[("WEFT_CUDA_DEVICE", "gpu0")])).unwrap_err();
    assert!(matches!(&e, CudaError::Bootstrap(BootstrapError::BadValue { var, .. }) if var == "WEFT_CUDA_DEVICE"), "{e}");
    for bad in ["0", "two", "-1"] {
        let e = CudaOptions::from_vars(&vars(&[("WEFT_PES_PER_GPU", bad)])).unwrap_err();
        assert!(matches!(&e, CudaError::Bootstrap(BootstrapError::BadValue { var, .. }) if var == "WEFT_PES_PER_GPU"), "{bad}: {e}");
    }
}

#[test]
fn pes_sharing_a_gpu_split_its_sms() {
    use super::pes_per_gpu;
    assert_eq!(CudaOptions::from_vars(&vars(&[("WEFT_PES_PER_GPU", "3")])).unwrap().pes_per_gpu, Some(3));
    assert_eq!(CudaOptions::from_vars(&vars(&[])).unwrap().pes_per_gpu, None);
    // One PE per GPU by the local rank: no sharing, however many PEs a node has.
    assert_eq!(pes_per_gpu(None, false, 8, 8), 1);
    assert_eq!(pes_per_gpu(None, false, 4, 1), 1);
    // Ordinals chosen by hand, more PEs than GPUs: the node's PEs spread over its GPUs.
    assert_eq!(pes_per_gpu(None, true, 4, 1), 4);
    assert_eq!(pes_per_gpu(None, true, 8, 3), 3);
    assert_eq!(pes_per_gpu(None, true, 2, 8), 1);
    // The variable wins either way.
    assert_eq!(pes_per_gpu(Some(2), false, 8, 8), 2);
    assert_eq!(pes_per_gpu(Some(1), true, 4, 1), 1);
}

#[test]
fn unique_id_travels_through_a_file() {
    let dir = std::env::temp_dir().join(format!("weft-uid-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("uid");
    let _ = std::fs::remove_file(&path);
    let uid: [u8; UID_BYTES] = std::array::from_fn(|i| (i * 7 + 3) as u8);
    // A reader started first waits for the writer.
    let reader = {
        let path = path.clone();
        std::thread::spawn(move || await_uid(&path, Duration::from_secs(10)))
    };
    std::thread::sleep(Duration::from_millis(30));
    publish_uid(&path, &uid).unwrap();
    assert_eq!(reader.join().unwrap().unwrap(), uid);
    // A file left by an earlier run is refused rather than silently reused.
    let stale = publish_uid(&path, &uid).unwrap_err().to_string();
    assert!(stale.contains("already exists"), "{stale}");
    std::fs::write(&path, b"garbage").unwrap();
    assert!(await_uid(&path, Duration::ZERO).unwrap_err().to_string().contains("not a weft unique-id file"));
    std::fs::remove_file(&path).unwrap();
    match await_uid(&path, Duration::from_millis(20)) {
        Err(BootstrapError::UidTimeout { waited_ms, .. }) => assert!(waited_ms >= 20),
        other => panic!("{other:?}"),
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn architectures_by_compute_capability() {
    let cases = [((8, 0), Some("sm_80")), ((8, 6), Some("sm_80")), ((8, 9), Some("sm_80")), ((9, 0), Some("sm_90a")), ((10, 0), Some("sm_100a")), ((7, 5), None), ((10, 3), None), ((12, 0), None)];
    for (cc, arch) in cases {
        assert_eq!(arch_for(cc), arch, "{cc:?}");
    }
}

#[test]
fn gpu_code_on_the_local_transport_is_a_typed_error() {
    let code = GpuCode { arch: "sm_90a".into(), image: vec![0x7f, b'E', b'L', b'F'], symbol: "k".into(), num_warps: 4, dynamic_smem: 0, cooperative: false, remote_ptr: false, multimem: false, params: vec![GpuParam::Ptr], tma: vec![] };
    assert_eq!(code.threads(), 128);
    let world = World::local(2).unwrap();
    let buf = world.alloc::<u64>(1).unwrap();
    let err = world.launch(&Launchable::gpu("k", code), [1, 1, 1], &[(&buf).into()]).unwrap_err();
    assert!(matches!(err, RuntimeError::WrongCode { .. }), "{err}");
    assert_eq!(err.to_string(), "kernel `k` is a cubin for sm_90a, but the local transport runs CPU code");
    assert_eq!((world.gpu_arch(), world.host_ranks()), (None, 0..2));
}

/// NVSHMEM's address queries as a platform without NVLS, where PE `no_p2p` is not reachable.
struct StubPlatform {
    no_p2p: Option<usize>,
    multicast: bool,
}

impl super::preflight::PeerPointers for StubPlatform {
    fn ptr(&self, addr: u64, pe: usize) -> u64 {
        if Some(pe) == self.no_p2p { 0 } else { addr + (pe as u64) << 40 }
    }

    fn mc_ptr(&self, addr: u64) -> u64 {
        if self.multicast { addr | 1 << 50 } else { 0 }
    }
}

fn code_using(remote_ptr: bool, multimem: bool) -> GpuCode {
    GpuCode { arch: "sm_90a".into(), image: vec![], symbol: "k".into(), num_warps: 4, dynamic_smem: 0, cooperative: true, remote_ptr, multimem, params: vec![GpuParam::Ptr; 2], tma: vec![] }
}

#[test]
fn null_multicast_or_peer_pointer_is_a_typed_error_naming_kernel_and_pe() {
    use super::preflight::check_peer_access;
    let bufs = [0x1000, 0x2000];
    let full = StubPlatform { no_p2p: None, multicast: true };
    for (r, m) in [(false, false), (true, false), (false, true), (true, true)] {
        check_peer_access("k", &code_using(r, m), 1, 4, &bufs, &full).unwrap();
    }
    // No NVLS: multimem kernels are refused on this PE, others run.
    let no_nvls = StubPlatform { no_p2p: None, multicast: false };
    match check_peer_access("allreduce_multimem", &code_using(false, true), 1, 4, &bufs, &no_nvls) {
        Err(e @ CudaError::PeerAccess { pe: 1, .. }) => {
            let text = e.to_string();
            assert!(text.contains("`allreduce_multimem`") && text.contains("PE 1") && text.contains("nvshmemx_mc_ptr") && text.contains("NULL"), "{text}");
        }
        other => panic!("{other:?}"),
    }
    check_peer_access("allgather_pull", &code_using(true, false), 1, 4, &bufs, &no_nvls).unwrap();
    // PE 2 has no P2P path: remote_ptr kernels name it, kernels without remote_ptr run.
    let no_p2p = StubPlatform { no_p2p: Some(2), multicast: true };
    match check_peer_access("allgather_pull", &code_using(true, false), 0, 4, &bufs, &no_p2p) {
        Err(e @ CudaError::PeerAccess { pe: 2, .. }) => assert!(e.to_string().contains("nvshmem_ptr(0x1000, 2) on PE 0 is NULL"), "{e}"),
        other => panic!("{other:?}"),
    }
    check_peer_access("allgather", &code_using(false, false), 0, 4, &bufs, &no_p2p).unwrap();
}

#[test]
fn grids_larger_than_the_resident_ctas_are_refused() {
    use super::preflight::check_co_resident;
    check_co_resident("ag_gemm", "H100", 132, 1, 132).unwrap();
    check_co_resident("ag_gemm", "H100", 264, 2, 132).unwrap();
    let e = check_co_resident("ring", "H100", 133, 1, 132).unwrap_err();
    assert!(matches!(e, CudaError::NotCoResident { ctas: 133, per_sm: 1, sms: 132, .. }), "{e}");
    assert!(e.to_string().contains("all 133 must be resident at once, but H100 holds 1 per SM x 132 SMs"), "{e}");
    // A kernel the driver says cannot be resident at all (per SM 0) is refused too.
    assert!(check_co_resident("big", "A100", 1, 0, 108).is_err());
}

/// A stream that finishes after `polls` queries (never, for `None`), recording global exits.
struct StubStream {
    polls: Option<usize>,
    seen: std::sync::atomic::AtomicUsize,
    exits: std::sync::Mutex<Vec<i32>>,
}

impl super::watchdog::Watched for StubStream {
    fn stream_done(&self) -> Result<bool, CudaError> {
        let n = self.seen.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        Ok(self.polls.is_some_and(|p| n >= p))
    }

    fn global_exit(&self, status: i32) {
        self.exits.lock().unwrap().push(status);
    }
}

#[test]
fn watchdog_reports_the_stuck_pe_and_exits_the_job() {
    use super::watchdog::{wait, Waiting};
    let stream = |polls| StubStream { polls, seen: 0.into(), exits: std::sync::Mutex::new(vec![]) };
    let finishing = stream(Some(3));
    wait(&finishing, "k", 0, Waiting::Kernel, Duration::from_secs(5)).unwrap();
    assert!(finishing.exits.lock().unwrap().is_empty());
    let stuck = stream(None);
    let start = std::time::Instant::now();
    let e = wait(&stuck, "ring_allgather", 3, Waiting::Kernel, Duration::from_millis(50)).unwrap_err();
    assert!(start.elapsed() >= Duration::from_millis(50) && start.elapsed() < Duration::from_secs(5));
    assert!(matches!(e, CudaError::LaunchTimeout { pe: 3, waited_ms: 50, .. }), "{e}");
    assert!(e.to_string().starts_with("PE 3 is stuck: kernel `ring_allgather` did not finish within 50 ms"), "{e}");
    assert_eq!(*stuck.exits.lock().unwrap(), vec![1]);
    let e = wait(&stream(None), "k", 1, Waiting::Barrier, Duration::from_millis(10)).unwrap_err();
    assert!(e.to_string().contains("another PE is stuck"), "{e}");
}

#[test]
fn launch_deadline_defaults_to_the_deadlock_timeout() {
    let o = CudaOptions::from_vars(&vars(&[])).unwrap();
    assert_eq!((o.deadline, o.barrier_deadline), (Duration::from_millis(5000), Duration::from_secs(300)));
    let o = CudaOptions::from_vars(&vars(&[("WEFT_DEADLOCK_TIMEOUT_MS", "250"), ("WEFT_BARRIER_TIMEOUT_MS", "900")])).unwrap();
    assert_eq!((o.deadline, o.barrier_deadline), (Duration::from_millis(250), Duration::from_millis(900)));
    let e = CudaOptions::from_vars(&vars(&[("WEFT_BARRIER_TIMEOUT_MS", "soon")])).unwrap_err();
    assert!(e.to_string().contains("WEFT_BARRIER_TIMEOUT_MS"), "{e}");
}
