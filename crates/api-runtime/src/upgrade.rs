//! `101 Switching Protocols`: the WebSocket upgrade dropshot implements.
//! An operation that documents a 101 reads the handshake ([`Handshake`]);
//! its handler accepts the upgrade with the code that talks over the
//! connection, and answers the 101 variant with what `accept` gives.

use std::future::Future;

use async_trait::async_trait;
use dropshot::{
    ApiEndpointBodyContentType, ExclusiveExtractor, ExtractorMetadata, HttpError, RequestContext, ServerContext,
    WebsocketChannelResult, WebsocketConnection, WebsocketEndpointResult, WebsocketUpgrade,
};

use crate::problem::Problem;

/// The request's WebSocket handshake as read, valid or not. dropshot's
/// own extractor refuses a request without one before the handler runs;
/// this one keeps the refusal until the caller is authenticated, so a
/// request without a key gets 401 first, like every other operation.
#[derive(Debug)]
pub struct Handshake(Result<WebsocketUpgrade, HttpError>);

#[async_trait]
impl ExclusiveExtractor for Handshake {
    async fn from_request<Context: ServerContext>(
        rqctx: &RequestContext<Context>,
        request: http::Request<dropshot::Body>,
    ) -> Result<Self, HttpError> {
        Ok(Handshake(WebsocketUpgrade::from_request(rqctx, request).await))
    }

    fn metadata(body_content_type: ApiEndpointBodyContentType) -> ExtractorMetadata {
        WebsocketUpgrade::metadata(body_content_type)
    }
}

impl Handshake {
    /// The upgrade to hand to the handler, or the 400 a request that is
    /// not a WebSocket handshake gets.
    pub fn upgrade(self) -> Result<Upgrade, (u16, Problem)> {
        self.0
            .map(Upgrade)
            .map_err(|error| (error.status_code.as_u16(), Problem::from(error)))
    }
}

/// A valid WebSocket handshake, not yet answered.
#[derive(Debug)]
pub struct Upgrade(WebsocketUpgrade);

/// The answer to a handshake: a 101 once accepted, or why not.
pub struct Switching(pub(crate) WebsocketEndpointResult);

impl std::fmt::Debug for Switching {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.0 {
            Ok(_) => f.write_str("Switching(101)"),
            Err(e) => write!(f, "Switching({})", e.status_code),
        }
    }
}

impl Upgrade {
    /// Accepts the upgrade: once the 101 is sent, `talk` runs on its own
    /// task with the upgraded connection (any WebSocket implementation,
    /// such as tokio-tungstenite, takes it from there).
    pub fn accept<C, F>(self, talk: C) -> Switching
    where
        C: FnOnce(WebsocketConnection) -> F + Send + 'static,
        F: Future<Output = WebsocketChannelResult> + Send + 'static,
    {
        Switching(self.0.handle(talk))
    }
}
