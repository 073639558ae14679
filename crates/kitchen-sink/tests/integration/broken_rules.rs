//! One request that breaks one rule of the kitchen sink's spec
//! ([`Case`]), and the helpers that write the cases of
//! `broken_parameters.rs` and `broken_bodies.rs`.

use reqwest::Method;
use serde_json::{Value, json};

/// One request that breaks one rule.
pub(crate) struct Case {
    pub(crate) what: &'static str,
    pub(crate) method: Method,
    pub(crate) path: String,
    pub(crate) headers: Vec<(&'static str, String)>,
    pub(crate) body: Option<(&'static str, Vec<u8>)>,
    pub(crate) status: u16,
    pub(crate) code: &'static str,
    /// What the message must name: the parameter or pointer, and the rule.
    pub(crate) message: Vec<&'static str>,
}

pub(crate) const ECHO: &str =
    "/echo/1/0.5/true/2026-01-01/2026-01-01T00:00:00Z/6f1c1f7e-8c1e-4e2b-9d61-7f5e5c9b2a10/alpha";

pub(crate) fn query(what: &'static str, path: &str, message: &[&'static str]) -> Case {
    Case {
        what,
        method: Method::GET,
        path: path.to_string(),
        headers: vec![],
        body: None,
        status: 400,
        code: "invalid_parameter",
        message: message.to_vec(),
    }
}

pub(crate) fn header(what: &'static str, name: &'static str, value: &str, message: &[&'static str]) -> Case {
    Case {
        headers: vec![(name, value.to_string())],
        ..query(what, &format!("{ECHO}?big=1"), message)
    }
}

pub(crate) fn json_body(what: &'static str, method: Method, path: &str, body: Value, message: &[&'static str]) -> Case {
    Case {
        what,
        method,
        path: path.to_string(),
        headers: vec![],
        body: Some(("application/json", serde_json::to_vec(&body).unwrap())),
        status: 400,
        code: "invalid_body",
        message: message.to_vec(),
    }
}

pub(crate) fn new_order(edit: impl FnOnce(&mut Value)) -> Value {
    let mut order = json!({"petId": 1, "quantity": 1});
    edit(&mut order);
    order
}
