//! A spec's problems, each with its location: one ([`SpecError`]), all
//! those of a run ([`SpecErrors`]), and the collector that lets one
//! refusal not hide the next ([`Refusals`]).

use std::fmt;

/// A problem in the spec, with where it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpecError {
    /// A dotted path into the document (`paths./pets/{petId}.get`), or
    /// `line L, column C` for a syntax error.
    pub location: String,
    pub message: String,
    /// The schema at `location` (inline: a parameter's, a body's, a
    /// response's or a header's) has no Rust type the generator can make:
    /// degraded to any JSON value, the operation generates
    /// (`Spec::degraded_inline`), its values still validated as written.
    pub untypable: bool,
}

impl SpecError {
    pub fn new(location: impl Into<String>, message: impl Into<String>) -> Self {
        SpecError {
            location: location.into(),
            message: message.into(),
            untypable: false,
        }
    }

    /// [`SpecError::new`], for a schema with no Rust type.
    pub fn untypable(location: impl Into<String>, message: impl Into<String>) -> Self {
        SpecError {
            untypable: true,
            ..SpecError::new(location, message)
        }
    }
}

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.location, self.message)
    }
}

impl std::error::Error for SpecError {}

/// Every problem found in a spec, in the order the checks met them: a
/// designer fixes them all from one run instead of one run per problem.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpecErrors(pub Vec<SpecError>);

impl SpecErrors {
    /// The problem at `location`, if one was found there.
    pub fn at(&self, location: &str) -> Option<&SpecError> {
        self.0.iter().find(|e| e.location == location)
    }
}

impl From<SpecError> for SpecErrors {
    fn from(error: SpecError) -> Self {
        SpecErrors(vec![error])
    }
}

impl fmt::Display for SpecErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [one] = self.0.as_slice() else {
            writeln!(f, "{} problems the generator cannot map:", self.0.len())?;
            for error in &self.0 {
                writeln!(f, "  {error}")?;
            }
            return Ok(());
        };
        write!(f, "{one}")
    }
}

impl std::error::Error for SpecErrors {}

/// Collects the problems of independent checks, so that one refusal does
/// not hide the next.
#[derive(Default)]
pub struct Refusals(Vec<SpecError>);

impl Refusals {
    /// Keeps `result`'s error, if any, and gives its value.
    pub fn note<T>(&mut self, result: Result<T, SpecError>) -> Option<T> {
        match result {
            Ok(value) => Some(value),
            Err(error) => {
                self.0.push(error);
                None
            }
        }
    }

    /// [`Refusals::note`], for a result with several errors.
    pub fn note_all<T>(&mut self, result: Result<T, SpecErrors>) -> Option<T> {
        match result {
            Ok(value) => Some(value),
            Err(errors) => {
                self.0.extend(errors.0);
                None
            }
        }
    }

    pub fn push(&mut self, error: SpecError) {
        self.0.push(error);
    }

    pub fn extend(&mut self, errors: SpecErrors) {
        self.0.extend(errors.0);
    }

    /// `Ok(value)` when nothing was refused. A refusal that several
    /// operations meet at one place (a shared component) is listed once.
    pub fn finish<T>(self, value: T) -> Result<T, SpecErrors> {
        let mut unique: Vec<SpecError> = Vec::with_capacity(self.0.len());
        for error in self.0 {
            if !unique
                .iter()
                .any(|e| e.location == error.location && e.message == error.message)
            {
                unique.push(error);
            }
        }
        match unique.is_empty() {
            true => Ok(value),
            false => Err(SpecErrors(unique)),
        }
    }
}
