//! One rejection for every request the generated layer refuses before a
//! handler runs (a credential missing or not valid, a body it cannot
//! read), and the one place a rejection becomes the reply: the
//! operation's Error object, or RFC 9457 problem details where the spec
//! documents none, with the challenges a 401 or 403 carries.

use crate::challenge::Challenge;
use crate::contract::Contract;
use crate::problem::Problem;
use crate::reply::Reply;

/// Why a request was refused: the status and content of the error to send.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rejection {
    pub status: u16,
    pub problem: Problem,
    /// What a 401 or 403 challenges the caller with.
    challenge: Option<Challenge>,
}

impl Rejection {
    pub fn new(status: u16, problem: Problem) -> Self {
        Rejection {
            status,
            problem,
            challenge: None,
        }
    }

    /// A 401 or 403, whose reply challenges the caller.
    pub(crate) fn challenging(status: u16, problem: Problem, challenge: Challenge) -> Self {
        Rejection {
            status,
            problem,
            challenge: Some(challenge),
        }
    }

    pub(crate) fn of(status: u16, code: &str, message: impl Into<String>) -> Self {
        Rejection::new(status, Problem::new(code, message))
    }

    /// A body that breaks the spec: 400, `invalid_body`.
    pub(crate) fn invalid_body(message: impl Into<String>) -> Self {
        Rejection::of(400, "invalid_body", message)
    }

    /// The reply to send: the operation's Error object (or problem details
    /// where it documents none), with a `WWW-Authenticate` challenge for
    /// each scheme the operation accepts on a 401, and for the scheme that
    /// lacked scopes on a 403.
    pub fn into_reply<C: Contract>(self) -> Reply<C> {
        let reply = Reply::problem_body(self.status, self.problem);
        match self.challenge {
            Some(challenge) => reply.with_challenges(C::operation().security, challenge),
            None => reply,
        }
    }
}
