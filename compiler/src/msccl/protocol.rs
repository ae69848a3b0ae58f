//! NCCL's three point-to-point protocols and the connection parameters each implies.

use std::fmt;

/// NCCL's FIFO depth: a connection buffer is divided into this many steps.
pub const NCCL_STEPS: usize = 8;

/// NCCL steps one MSCCL Simple transmission occupies (msccl's `MSCCL_CHUNKSTEPS`).
const SIMPLE_STEPS_PER_SLOT: usize = NCCL_STEPS / 2;

/// A communication protocol; it decides slot size, slot count and the wire format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Protocol {
    /// Plain stores plus a flag per slot: highest bandwidth, highest latency.
    Simple,
    /// Low latency: 8 data bytes and 8 flag bytes per 16-byte line.
    LL,
    /// 120 data bytes and one flag word per 128-byte line.
    LL128,
}

impl Protocol {
    /// All protocols.
    pub const ALL: [Protocol; 3] = [Protocol::Simple, Protocol::LL, Protocol::LL128];

    /// MSCCL-IR spelling (`proto` attribute).
    pub const fn name(self) -> &'static str {
        match self {
            Protocol::Simple => "Simple",
            Protocol::LL => "LL",
            Protocol::LL128 => "LL128",
        }
    }

    /// Parses the MSCCL-IR spelling.
    pub fn parse(s: &str) -> Option<Protocol> {
        match s {
            "Simple" => Some(Protocol::Simple),
            "LL" => Some(Protocol::LL),
            "LL128" => Some(Protocol::LL128),
            _ => None,
        }
    }

    /// FIFO slots per connection: how many sends may complete before their receives.
    ///
    /// The buffer has [`NCCL_STEPS`] steps. An MSCCL Simple transmission spans several steps
    /// (`MSCCL_CHUNKSTEPS` = 4), so only 2 fit; LL and LL128 transmissions take one step each.
    pub const fn fifo_slots(self) -> usize {
        match self {
            Protocol::Simple => NCCL_STEPS / SIMPLE_STEPS_PER_SLOT,
            Protocol::LL | Protocol::LL128 => NCCL_STEPS,
        }
    }

    /// Default bytes of one FIFO slot, wire format included (NCCL's default buffer sizes:
    /// Simple 4 MiB, LL 512 KiB, LL128 about 4.7 MiB, divided by the slot count).
    pub const fn default_slot_bytes(self) -> usize {
        match self {
            Protocol::Simple => (4 << 20) / (NCCL_STEPS / SIMPLE_STEPS_PER_SLOT),
            Protocol::LL => (512 << 10) / NCCL_STEPS,
            // 640 threads x 120 eight-byte words per step.
            Protocol::LL128 => 640 * 120 * 8,
        }
    }

    /// Payload bytes a slot of `slot_bytes` carries once the protocol's flags are paid for.
    pub const fn payload_bytes(self, slot_bytes: usize) -> usize {
        match self {
            Protocol::Simple => slot_bytes,
            // Each 16-byte line holds two 4-byte data words and two 4-byte flags.
            Protocol::LL => slot_bytes / 16 * 8,
            // Each 128-byte line holds 120 data bytes and one 8-byte flag word.
            Protocol::LL128 => slot_bytes / 128 * 120,
        }
    }
}

impl fmt::Display for Protocol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
