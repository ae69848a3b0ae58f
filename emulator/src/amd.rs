//! What AMD GPU code needs beyond the NVIDIA runtime entry points: `ds_bpermute` over a
//! 64-lane wavefront, code object v5's implicit kernel arguments (the grid's block counts),
//! and the peer-heap shmem device state (`weft_shmem_state`, see the compiler's
//! `lower::gpu::shmem_peer`) filled for each rank of the `local` world.

use crate::cta::{lane, WarpColl};
use crate::sync;
use weft_runtime::abi::KernelCtx;

/// PEs the device state describes (the lowering's `MAX_PES`).
const MAX_PES: usize = 64;

/// `ds_bpermute`: every lane reads `x` of the lane whose byte address (`lane * 4`) it passes.
pub extern "C" fn bpermute(site: i32, addr: i32, x: i32) -> i32 {
    let input = [addr as u32 as u64, x as u32 as u64, 0, 0, 0, 0, 0, 0, 0, 0];
    let (out, _) = sync::warp(site, sync::full_mask(), input, permute);
    out[0] as u32 as i32
}

/// The wavefront's `ds_bpermute`: the source lane is `(addr / 4) % lanes`, as the hardware
/// wraps the address.
fn permute(wc: &mut WarpColl) -> Result<(), String> {
    let n = wc.input.len();
    for l in 0..n {
        let from = ((wc.input[l][0] as usize) >> 2) % n;
        wc.out[l][0] = wc.input[from][1];
    }
    Ok(())
}

/// The implicit kernel arguments: `hidden_block_count_{x,y,z}` (u32) first, as in code
/// object v5.
pub extern "C" fn implicit_args(_site: i32) -> *mut u8 {
    let cta = lane().cta();
    // SAFETY: the instance context lives for the launch.
    let n = unsafe { (*cta.ctx).num_programs };
    for (w, v) in cta.implicit.iter_mut().zip(n) {
        *w = v as u32;
    }
    cta.implicit.as_mut_ptr() as *mut u8
}

/// Fills `{ i32 my_pe, i32 n_pes, i64 sync_offset, [64 x i64] heap_base }` at `state` for
/// this rank: `heap_base[q]` places the rank's device area (see `Heap::device_area`) at
/// offset 0 of every peer's "heap", so a symmetric address moves by the real heap delta and
/// the barrier's sync words (at `sync_offset` 0) are each rank's own device area.
pub fn fill_state(ctx: *mut KernelCtx, state: *mut u8) -> Result<(), String> {
    // SAFETY: `ctx` is the live instance context and `state` 528 bytes of this rank's globals.
    unsafe {
        let fns = &*(*ctx).fns;
        let (rank, n) = ((*ctx).rank, (*ctx).n_ranks);
        if n as usize > MAX_PES {
            return Err(format!("the AMD shmem device state describes at most {MAX_PES} PEs, not {n}"));
        }
        let area = (fns.device_area)(ctx, -1) as i64;
        *(state as *mut i32) = rank;
        *(state.add(4) as *mut i32) = n;
        *(state.add(8) as *mut i64) = 0;
        for q in 0..n {
            let delta = (fns.peer_delta)(ctx, q, -1);
            *(state.add(16 + 8 * q as usize) as *mut i64) = area + delta;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn bpermute_reads_the_addressed_lane_and_wraps() {
        let mut wc = crate::cta::WarpColl {
            arrived: 0,
            site: 0,
            mask: u64::MAX,
            input: (0..64u64).map(|l| [((l ^ 5) * 4 + 256 * (l % 2)), 1000 + l, 0, 0, 0, 0, 0, 0, 0, 0]).collect(),
            out: vec![[0; 4]; 64],
        };
        super::permute(&mut wc).unwrap();
        assert!((0..64u64).all(|l| wc.out[l as usize][0] == 1000 + (l ^ 5)));
    }
}
