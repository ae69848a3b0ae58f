//! The postcondition check shared by the DSL (which traces values eagerly) and the MSCCL-IR
//! executor: every constrained output slot must hold exactly the expected chunk value.

use super::buffer::Buffer;
use super::collective::Collective;
use super::error::{MscclError, Result};
use super::value::ChunkValue;

/// Compares every output slot the postcondition constrains with `value(rank, buffer, index)`
/// (canonical locations). The first wrong slot, in rank then index order, is reported, with
/// how many others are wrong too.
pub(crate) fn check_postcondition<'a>(
    coll: &Collective,
    in_place: bool,
    value: impl Fn(usize, Buffer, usize) -> Option<&'a ChunkValue>,
) -> Result<()> {
    let mut first: Option<(usize, usize, ChunkValue, Option<ChunkValue>)> = None;
    let mut others = 0;
    for rank in 0..coll.ranks() {
        for index in 0..coll.output_chunks() {
            let Some(expected) = coll.expected(rank, index) else { continue };
            let (buffer, at) = coll.canonical(rank, Buffer::Output, index, in_place);
            let actual = value(rank, buffer, at);
            if actual == Some(&expected) {
                continue;
            }
            if first.is_some() {
                others += 1;
            } else {
                first = Some((rank, index, expected, actual.cloned()));
            }
        }
    }
    match first {
        None => Ok(()),
        Some((rank, index, expected, actual)) => {
            Err(MscclError::WrongOutput { rank, buffer: Buffer::Output, index, expected, actual, others })
        }
    }
}
