//! Analyses of kernel IR shared by the CPU and GPU lowerings.

pub mod axis_info;
#[cfg(test)]
mod axis_info_tests;
pub mod axis_walk;
pub mod int_range;
pub mod narrow_index;
pub mod specialize;

pub use axis_info::AxisInfo;
pub use axis_walk::AxisInfos;
pub use specialize::{ArgFact, Specialization};
