//! MSCCL-IR XML: the format msccl-tools writes and the msccl runtime interprets.

mod export;
mod import;

pub use export::to_xml;
pub use import::from_xml;
