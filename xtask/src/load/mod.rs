//! The load harness: `cargo xtask bench` (ratios against baselines from
//! the same run) and `cargo xtask soak` (a long mixed load that watches
//! errors and memory), both over [`server_process`].

pub mod bench;
pub mod server_process;
pub mod soak;
