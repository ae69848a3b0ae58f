//! The proxy-transport specialization of NVSHMEM kernels. Every NVSHMEM transfer that may
//! leave the node switches at run time on `nvshmemi_device_state_d.selected_device_transport`:
//! proxy (the host thread moves the data; NVSHMEM's default), IBGDA or GPUNetIO GDAKI (the GPU
//! drives the NIC itself). The IBGDA and GDAKI paths are most of an NVSHMEM kernel's PTX and
//! ptxas time (ag_gemm, sm_90a: 664 KB of PTX and 3.4 s in ptxas with them, 161 KB and 0.8 s
//! without). A variant
//! compiled for the proxy transport folds that field to `PROXY` before O3, so the other paths
//! are dead; the cubin then carries [`MARKER`], whose value is the field's byte offset, and the
//! `cuda` transport checks after loading the module that NVSHMEM really selected the proxy
//! transport (a typed error otherwise, never a kernel taking the wrong path). A kernel with the
//! constexpr `nvshmem_transport = "any"` keeps every path.

use inkwell::context::Context;
use inkwell::module::{Linkage, Module};
use inkwell::targets::TargetMachine;
use inkwell::types::{AnyTypeEnum, BasicTypeEnum};
use inkwell::AddressSpace;

use crate::error::CompileError;
use crate::ir::Kernel;

/// The kernel constexpr that picks the variant: `proxy` (the default) or `any`.
pub const CONSTEXPR: &str = "nvshmem_transport";

/// The `gpu`-stage module metadata that carries the choice to the `llvm` stage (so a
/// compilation resumed from a dumped `gpu` file keeps it).
pub const METADATA: &str = "weft.nvshmem_transport";

/// The cubin's global saying that the kernel assumes the proxy transport; its value is the byte
/// offset of `selected_device_transport` in `nvshmemi_device_state_d`.
pub const MARKER: &str = "weft_nvshmem_proxy_transport";

/// NVSHMEM's device state global and its struct (`device_host/nvshmem_types.h`).
const STATE: &str = "nvshmemi_device_state_d";
const STATE_TYPE: &str = "struct.nvshmemi_device_host_state_v1";
/// `selected_device_transport` is field 44, right after the three flags
/// `ibgda_is_initialized`, `nvshmemi_is_nvshmem_initialized` and `..._bootstrapped`.
const FIELD: u32 = 44;
/// `NVSHMEMI_DEVICE_TRANSPORT_TYPE_PROXY`.
pub const PROXY: u64 = 0;

/// Which device transports a variant's NVSHMEM transfers can take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeviceTransport {
    /// Only the proxy: IBGDA and GDAKI code is removed; checked when the module is loaded.
    Proxy,
    /// Whatever NVSHMEM selects at run time (every path compiled).
    Any,
}

impl DeviceTransport {
    /// The variant `kernel` asks for (`proxy` unless its constexpr says `any`).
    pub fn of(kernel: &Kernel) -> Result<DeviceTransport, CompileError> {
        match kernel.constexpr(CONSTEXPR) {
            None | Some("proxy") => Ok(DeviceTransport::Proxy),
            Some("any") => Ok(DeviceTransport::Any),
            Some(v) => Err(CompileError::BadConstexpr { name: CONSTEXPR, value: v.into(), expected: "`proxy` or `any`" }),
        }
    }

    /// The variant NVSHMEM's own environment calls for: `any` when it enables IBGDA or GDAKI
    /// (`NVSHMEM_IB_ENABLE_IBGDA`, `NVSHMEM_GPUNETIO_ENABLE_GDAKI`), else `proxy`. The load
    /// check stays the guarantee; this only saves a launch that would fail it.
    pub fn from_env() -> DeviceTransport {
        let on = |v: &str| std::env::var(v).is_ok_and(|s| matches!(s.trim().to_ascii_lowercase().as_str(), "1" | "y" | "yes" | "true" | "on"));
        if on("NVSHMEM_IB_ENABLE_IBGDA") || on("NVSHMEM_GPUNETIO_ENABLE_GDAKI") { DeviceTransport::Any } else { DeviceTransport::Proxy }
    }

    /// `kernel` with this choice as its constexpr (none for the default, `proxy`).
    pub fn apply(self, kernel: &Kernel) -> Kernel {
        let mut k = kernel.clone();
        k.constexprs.retain(|(n, _)| n != CONSTEXPR);
        if self == DeviceTransport::Any {
            k.constexprs.push((CONSTEXPR.into(), "any".into()));
        }
        k
    }

    /// Records the choice in the `gpu`-stage module (only `any`: no metadata means `proxy`).
    pub fn mark<'c>(self, ctx: &'c Context, m: &Module<'c>) {
        if self == DeviceTransport::Any {
            let node = ctx.metadata_node(&[ctx.metadata_string("any").into()]);
            // Fails only for a key with a NUL; METADATA has none.
            let _ = m.add_global_metadata(METADATA, &node);
        }
    }

    /// The choice recorded in a module by [`DeviceTransport::mark`].
    pub fn of_module(m: &Module) -> DeviceTransport {
        let any = m.get_global_metadata(METADATA).iter().any(|n| {
            n.get_node_values().unwrap_or_default().iter().any(|v| v.into_metadata_value().get_string_value() == Some(b"any"))
        });
        if any { DeviceTransport::Any } else { DeviceTransport::Proxy }
    }
}

/// Folds every load of `selected_device_transport` in `m` (NVSHMEM's bitcode linked in) to
/// `PROXY` and adds [`MARKER`]. Returns the number of loads folded: none when the kernel has
/// no transfer that switches on the transport, or when the device state is not the struct
/// this was written for (then nothing changes, and the code keeps every path).
pub fn assume_proxy<'c>(ctx: &'c Context, m: &Module<'c>, tm: &TargetMachine) -> usize {
    let Some(offset) = field_offset(m, tm) else { return 0 };
    let n = crate::backend::llvm::fold_global_loads(m, STATE, offset as i64, PROXY);
    if n > 0 {
        let i32t = ctx.i32_type();
        let g = m.add_global(i32t, Some(AddressSpace::from(4u16)), MARKER);
        g.set_initializer(&i32t.const_int(offset, false));
        g.set_constant(true);
        g.set_linkage(Linkage::External);
    }
    n
}

/// The byte offset of `selected_device_transport`, after checking that field 44 of the state
/// struct is the `i32` that follows the three `bool` flags.
fn field_offset(m: &Module, tm: &TargetMachine) -> Option<u64> {
    let AnyTypeEnum::StructType(st) = m.get_global(STATE)?.get_value_type() else { return None };
    if st.get_name().is_none_or(|n| n.to_bytes() != STATE_TYPE.as_bytes()) {
        return None;
    }
    let int = |i: u32, bits: u32| matches!(st.get_field_type_at_index(i), Some(BasicTypeEnum::IntType(t)) if t.get_bit_width() == bits);
    if !(int(FIELD - 3, 8) && int(FIELD - 2, 8) && int(FIELD - 1, 8) && int(FIELD, 32)) {
        return None;
    }
    tm.get_target_data().offset_of_element(&st, FIELD)
}
