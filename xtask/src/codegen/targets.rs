//! What the workspace generates, and from which spec: each target's spec,
//! the files its client and server contract go to, and the client's
//! interface and credentials.

use std::borrow::Cow;

/// The service's spec, relative to the workspace.
pub const SPEC_PATH: &str = "openapi/petstore.yaml";

/// A spec and the files generated from it.
pub struct Target {
    /// The spec, relative to the workspace.
    pub spec: Cow<'static, str>,
    /// The progenitor client.
    pub client: Cow<'static, str>,
    /// The client's httpmock mocks, if the crate has them.
    pub mocks: Option<&'static str>,
    /// The Rust path of the module the client is generated into, which
    /// the mocks import (`crate`, or `crate::v2` for a module).
    pub client_module: &'static str,
    /// The server contract (types, tables, dropshot trait, strict layer).
    pub server: Cow<'static, str>,
    /// What the client authenticates with.
    pub credentials: ClientCredentials,
    /// How the client's methods take their parameters.
    pub interface: ClientInterface,
}

/// How a generated client's methods take their parameters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClientInterface {
    /// `client.op(a, b, None, ..)`: every parameter, in progenitor's order.
    /// Kept where consumers already compile against it (v1).
    Positional,
    /// `client.op().a(..).send()`: optional parameters by name, so a new
    /// optional parameter in the spec breaks no caller.
    Builder,
}

/// What a generated client authenticates with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClientCredentials {
    /// The crate's own `crate::ApiKey`, sent by a hook the crate writes:
    /// the service's clients, whose consumers hold one key.
    CrateApiKey,
    /// A generated `Credentials` with a field per security scheme, and
    /// the hook that sends each operation's (`client_gen/credentials.rs`).
    Generated,
}

/// Version 2 of the service's spec, served beside version 1.
pub const SPEC_V2_PATH: &str = "openapi/v2/petstore.yaml";

/// The kitchen sink: every construct the generator maps, in one spec.
pub const KITCHEN_SINK_PATH: &str = "tests/fixtures/kitchen-sink.yaml";

/// The Swagger Petstore v3 as published (one of the corpus's documents),
/// served by `crates/swagger-petstore` as proof that a document written by
/// someone else runs.
pub const SWAGGER_PETSTORE_PATH: &str = "tests/fixtures/corpus/swagger-petstore-v3__openapi.yaml";

/// Every spec the workspace generates from: the service's two versions
/// (v1 at the crates' roots, v2 in their `v2` modules, so that a consumer
/// can use both), and the kitchen sink, a spec that uses every construct
/// the generator maps, compiled and served by the tests so that each
/// construct is proven on running code; and the Swagger Petstore, served.
pub const TARGETS: [Target; 4] = [
    Target {
        spec: Cow::Borrowed(SPEC_PATH),
        client: Cow::Borrowed("crates/petstore-client/src/generated.rs"),
        mocks: Some("crates/petstore-client/src/mock.rs"),
        client_module: "crate",
        server: Cow::Borrowed("crates/petstore-api/src/generated.rs"),
        credentials: ClientCredentials::CrateApiKey,
        interface: ClientInterface::Positional,
    },
    Target {
        spec: Cow::Borrowed(SPEC_V2_PATH),
        client: Cow::Borrowed("crates/petstore-client/src/v2/generated.rs"),
        mocks: Some("crates/petstore-client/src/v2/mock.rs"),
        client_module: "crate::v2",
        server: Cow::Borrowed("crates/petstore-api/src/v2/generated.rs"),
        credentials: ClientCredentials::CrateApiKey,
        interface: ClientInterface::Builder,
    },
    Target {
        spec: Cow::Borrowed(KITCHEN_SINK_PATH),
        client: Cow::Borrowed("crates/kitchen-sink/src/client/generated.rs"),
        mocks: None,
        client_module: "crate::client",
        server: Cow::Borrowed("crates/kitchen-sink/src/api/generated.rs"),
        credentials: ClientCredentials::Generated,
        interface: ClientInterface::Positional,
    },
    Target {
        spec: Cow::Borrowed(SWAGGER_PETSTORE_PATH),
        client: Cow::Borrowed("crates/swagger-petstore/src/client/generated.rs"),
        mocks: None,
        client_module: "crate::client",
        server: Cow::Borrowed("crates/swagger-petstore/src/api/generated.rs"),
        credentials: ClientCredentials::Generated,
        interface: ClientInterface::Positional,
    },
];
