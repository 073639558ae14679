//! Several majors of an API served side by side, each under its own base
//! path (`/v1`, `/v2`), from one dropshot description.
//!
//! Each major's endpoints answer for that major's versions
//! ([`major_versions`]), and [`VersionByPath`] tells dropshot the version
//! of a request by the path it starts with. The paths alone would route
//! every request; the versions let one description emit one document per
//! major (`ApiDescription::openapi` keeps the endpoints of the version it
//! is given).

use dropshot::{ApiEndpointVersions, DynamicVersionPolicy, HttpError};
use semver::Version;

/// The versions of one major: from `major.0.0` up to, not including, the
/// next major.
pub fn major_versions(major: u64) -> ApiEndpointVersions {
    ApiEndpointVersions::from_until(Version::new(major, 0, 0), Version::new(major + 1, 0, 0))
        .expect("a major comes before the next one")
}

/// A request's version is the one of the base path its path starts with;
/// any other path gets the newest major's, where it finds no route (404)
/// like in any other.
#[derive(Debug, Clone)]
pub struct VersionByPath {
    /// Base path (without a trailing `/`) and the version it stands for.
    majors: Vec<(String, Version)>,
    newest: Version,
}

impl VersionByPath {
    /// `majors`: each major's base path (`/v1`) and its `info.version`.
    /// Fails when a version is not semantic, or when there is none.
    pub fn new<'a>(majors: impl IntoIterator<Item = (&'a str, &'a str)>) -> Result<Self, String> {
        let majors = majors
            .into_iter()
            .map(|(base_path, version)| {
                let version = Version::parse(version)
                    .map_err(|e| format!("the version of {base_path}, `{version}`, is not semantic: {e}"))?;
                Ok((
                    base_path.trim_end_matches('/').to_string(),
                    Version::new(version.major, 0, 0),
                ))
            })
            .collect::<Result<Vec<_>, String>>()?;
        let newest = majors
            .iter()
            .map(|(_, version)| version.clone())
            .max()
            .ok_or("no major to serve")?;
        Ok(VersionByPath { majors, newest })
    }

    /// The version a request for `path` is routed by.
    pub fn version_of(&self, path: &str) -> &Version {
        self.majors
            .iter()
            .find(|(base, _)| {
                path.strip_prefix(base.as_str())
                    .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
            })
            .map_or(&self.newest, |(_, version)| version)
    }
}

impl DynamicVersionPolicy for VersionByPath {
    fn request_extract_version(
        &self,
        request: &http::Request<dropshot::Body>,
        _log: &slog::Logger,
    ) -> Result<Version, HttpError> {
        Ok(self.version_of(request.uri().path()).clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_gets_the_version_of_its_base_path() {
        let policy = VersionByPath::new([("/v1", "1.0.0"), ("/v2", "2.3.1")]).unwrap();
        assert_eq!(policy.version_of("/v1/store/orders"), &Version::new(1, 0, 0));
        assert_eq!(policy.version_of("/v2/store/orders/7"), &Version::new(2, 0, 0));
        assert_eq!(policy.version_of("/v1"), &Version::new(1, 0, 0));
        // `/v10` is not under `/v1`.
        assert_eq!(policy.version_of("/v10/store"), &Version::new(2, 0, 0));
        assert_eq!(policy.version_of("/"), &Version::new(2, 0, 0));
    }

    #[test]
    fn a_major_answers_for_its_versions_only() {
        let v1 = major_versions(1);
        assert_eq!(
            v1,
            ApiEndpointVersions::from_until(Version::new(1, 0, 0), Version::new(2, 0, 0)).unwrap()
        );
    }

    #[test]
    fn a_version_that_is_not_semantic_is_refused() {
        let error = VersionByPath::new([("/v1", "one")]).unwrap_err();
        assert!(error.contains("/v1") && error.contains("`one`"), "{error}");
    }
}
