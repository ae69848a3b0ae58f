//! The load-time check of the proxy-transport specialization: weft compiles NVSHMEM kernels for
//! NVSHMEM's proxy transport by default, removing the IBGDA and GPUNetIO GDAKI device paths
//! (most of their compile time). Such a cubin carries [`MARKER`], whose value is the byte
//! offset of `selected_device_transport` in NVSHMEM's device state; once
//! `nvshmemx_cumodule_init` has filled that state in, the transport reads the field back and
//! refuses the kernel unless NVSHMEM selected the proxy, so a kernel never takes a path it
//! was compiled without.

use super::CudaError;

/// The cubin global that marks a proxy-only kernel (the compiler's
/// `backend::nvshmem_transport::MARKER`).
pub const MARKER: &str = "weft_nvshmem_proxy_transport";

/// NVSHMEM's device state global, as its host library fills it in per module.
pub const STATE: &str = "nvshmemi_device_state_d";

/// Checks that NVSHMEM selected `selected` (`nvshmemi_selected_device_transport_t`) is the
/// proxy transport, which kernel `kernel` on PE `pe` was compiled for.
pub fn check_proxy(kernel: &str, pe: usize, selected: u32) -> Result<(), CudaError> {
    if selected == 0 {
        return Ok(());
    }
    let transport = match selected {
        1 => "IBGDA".to_string(),
        2 => "GPUNetIO GDAKI".to_string(),
        n => format!("device transport {n}"),
    };
    Err(CudaError::DeviceTransport { kernel: kernel.into(), pe, transport })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proxy_passes_and_device_initiated_transports_are_refused() {
        assert!(check_proxy("ag_gemm", 0, 0).is_ok());
        for (selected, name) in [(1, "IBGDA"), (2, "GPUNetIO GDAKI"), (7, "device transport 7")] {
            let e = check_proxy("ag_gemm", 3, selected).unwrap_err().to_string();
            assert!(e.contains("`ag_gemm`") && e.contains("PE 3") && e.contains(name) && e.contains("nvshmem_transport=any"), "{e}");
        }
    }
}
