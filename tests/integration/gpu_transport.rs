//! The proxy-transport specialization of NVSHMEM kernels (no GPU needed): by default a kernel
//! is compiled for NVSHMEM's proxy transport, without the IBGDA / GDAKI device paths, and its
//! cubin carries the marker the `cuda` transport checks when it loads it; the constexpr
//! `nvshmem_transport = "any"` keeps every path.

use crate::gpu::{kernel, tools_or_skip};
use weft::compiler::backend::nvshmem_transport::{DeviceTransport, CONSTEXPR, MARKER};
use weft::compiler::pipeline::{run, Options, Target};
use weft::compiler::CompileError;

/// `offsetof(nvshmemi_device_host_state_v1, selected_device_transport)` in NVSHMEM 3.8's
/// `device_host/nvshmem_types.h` (NVPTX's 64-bit layout), counted from the header by hand:
/// an independent reference for the compiler's walk of the struct type.
const FIELD_OFFSET: u32 = 772;

/// The marker's value in PTX text, if the module has one.
fn marker(ptx: &str) -> Option<u32> {
    let line = ptx.lines().find(|l| l.contains(MARKER))?;
    line.rsplit('=').next()?.trim().trim_end_matches(';').parse().ok()
}

#[test]
fn nvshmem_kernels_drop_device_initiated_transports_unless_asked_for_any() {
    if !tools_or_skip("nvshmem_kernels_drop_device_initiated_transports_unless_asked_for_any") {
        return;
    }
    let sm90 = Target::parse("sm_90a").unwrap();
    let k = kernel("allgather", "f32", &[]);
    let proxy = run(&k, sm90, Some("ptx"), &Options::default()).unwrap();
    let any = run(&DeviceTransport::Any.apply(&k), sm90, Some("ptx"), &Options::default()).unwrap();
    // IBGDA's completion-queue poll and GDAKI's quiet are the device paths the proxy lacks.
    for path in ["ibgda_poll_cq", "gdaki_quiet"] {
        assert!(any.text.contains(path), "the `any` variant keeps {path}");
        assert!(!proxy.text.contains(path), "the proxy variant drops {path}");
    }
    assert_eq!(marker(&proxy.text), Some(FIELD_OFFSET), "proxy variant's marker");
    assert_eq!(marker(&any.text), None, "the `any` variant is not marked");
    assert!(proxy.text.len() * 2 < any.text.len(), "proxy PTX {} B vs any {} B", proxy.text.len(), any.text.len());
    // The marker survives ptxas: the loader finds it by name in the cubin.
    let cubin = run(&k, sm90, None, &Options::default()).unwrap().object.unwrap();
    assert!(cubin.windows(MARKER.len()).any(|w| w == MARKER.as_bytes()), "cubin has {MARKER}");
    // The runtime checks the marker under the same name.
    assert_eq!(MARKER, weft::runtime::cuda::device_transport::MARKER);
}

#[test]
fn an_unknown_transport_choice_is_a_typed_error() {
    let mut k = kernel("allgather", "f32", &[]);
    k.constexprs.push((CONSTEXPR.into(), "ibgda".into()));
    match run(&k, Target::parse("sm_80").unwrap(), Some("gpu"), &Options::default()) {
        Err(e @ CompileError::BadConstexpr { .. }) => assert!(e.to_string().contains("nvshmem_transport = \"ibgda\"") && e.to_string().contains("`proxy` or `any`"), "{e}"),
        other => panic!("expected BadConstexpr, got {:?}", other.map(|o| o.symbol)),
    }
}
