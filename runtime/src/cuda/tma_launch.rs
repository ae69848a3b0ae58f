//! The tensor maps a TMA kernel takes after its own parameters: one per [`TmaParam`] of the
//! code, resolved against the launch's argument words and encoded by the driver. A map the
//! driver would reject is a `BadLaunch` naming the field; without a driver, the driver's
//! error (`DriverNotFound`) comes back as it is.

use super::tensor_map::{TensorMap, TensorMapError, TmaParam};
use crate::RuntimeError;

/// The encoded maps of `params` for argument words `args` of kernel `kernel`, in order.
pub fn encode_maps(kernel: &str, params: &[TmaParam], args: &[u64]) -> Result<Vec<TensorMap>, RuntimeError> {
    let err = |i: usize, e: TensorMapError| match e {
        TensorMapError::Cuda(c) => RuntimeError::Cuda(c),
        e => RuntimeError::BadLaunch { kernel: kernel.into(), message: format!("tensor map {i}: {e}") },
    };
    // Every map is checked before any is encoded, so a bad argument is named with or
    // without a driver.
    let maps = params.iter().enumerate().map(|(i, p)| p.resolve(args).map_err(|e| err(i, e))).collect::<Result<Vec<_>, _>>()?;
    maps.iter().enumerate().map(|(i, m)| m.encode().map_err(|e| err(i, e))).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cuda::tensor_map::{TmaElem, TmaSwizzle};
    use crate::cuda::CudaError;

    /// A and B of `gemm(a, b, c, m, n, k)` as the compiler emits them at 128x128x64.
    fn gemm_maps() -> [TmaParam; 2] {
        let p = |ptr, rows, cols, box_rows| TmaParam { ptr, rows, cols, ld: cols, box_rows, box_cols: 64, elem: TmaElem::Bf16, swizzle: TmaSwizzle::B128 };
        [p(0, 3, 5, 128), p(1, 5, 4, 64)]
    }

    #[test]
    fn a_map_the_driver_would_reject_is_a_bad_launch_naming_it() {
        let args = [0x10000u64, 0x20000, 0x30000, 300, 200, 64];
        let msg = |args: &[u64]| match encode_maps("gemm", &gemm_maps(), args) {
            Err(RuntimeError::BadLaunch { kernel, message }) if kernel == "gemm" => message,
            other => panic!("expected a bad launch, got {other:?}"),
        };
        // N = 201 bf16: B's rows are 402 bytes apart.
        assert!(msg(&[0x10000, 0x20000, 0x30000, 300, 201, 64]).contains("tensor map 1: tensor map: the row stride in bytes is 402"));
        assert!(msg(&args[..4]).contains("tensor map 0: tensor map: argument 5 is missing"));
        assert!(msg(&[0x10008, 0x20000, 0x30000, 300, 200, 64]).contains("tensor map 0: tensor map: the global address"));
    }

    #[test]
    fn valid_maps_need_the_driver_and_say_so_without_one() {
        let args = [0x10000u64, 0x20000, 0x30000, 300, 200, 64];
        match (crate::cuda::driver::probe_driver(), encode_maps("gemm", &gemm_maps(), &args)) {
            // No driver here: the typed error, never a made-up descriptor.
            (Err(_), Err(RuntimeError::Cuda(CudaError::DriverNotFound { .. }))) => {}
            (Ok(()), Ok(maps)) => assert!(maps.len() == 2 && maps.iter().all(|m| m.0 != [0; 128])),
            (_, other) => panic!("maps or DriverNotFound, got {other:?}"),
        }
    }
}
