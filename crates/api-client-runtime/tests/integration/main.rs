//! api-client-runtime against real servers on loopback (serving-checks'
//! scripted server): one test binary (dropshot's habit), a module per
//! concern.

mod retries;
mod spans;
