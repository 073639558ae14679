//! A generated crate's dependencies follow what its generated code uses.
//! typify and progenitor name crates by path (`::uuid::Uuid` for a
//! `format: uuid`, `::regress::Regex` for a pattern, `::base64::` for
//! bytes), so a spec change can make the generated code need a crate its
//! manifest does not list: `cargo xtask generate` adds each such crate to
//! the manifest (`name.workspace = true`), and `cargo xtask check` fails
//! until it is there. Never removed: the hand-written code beside the
//! generated may use it too.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use super::every_core::map_on_every_core;
use super::files::GeneratedFile;

/// The crates generated code names by path: the name it is used by, and
/// its package (a workspace dependency).
const CRATES: [(&str, &str); 17] = [
    ("uuid", "uuid"),
    ("chrono", "chrono"),
    ("regress", "regress"),
    ("base64", "base64"),
    ("rand", "rand"),
    ("futures", "futures"),
    ("serde_urlencoded", "serde_urlencoded"),
    ("tokio", "tokio"),
    ("serde", "serde"),
    ("serde_json", "serde_json"),
    ("reqwest", "reqwest"),
    ("progenitor_client", "progenitor-client"),
    ("api_client_runtime", "api-client-runtime"),
    ("dropshot", "dropshot"),
    ("schemars", "schemars"),
    ("http", "http"),
    ("bytes", "bytes"),
];

/// The package of that name among those generated code may use, as the
/// `'static` name [`used_packages`] gives.
pub fn package_named(name: &str) -> Option<&'static str> {
    CRATES
        .iter()
        .map(|(_, package)| *package)
        .find(|package| *package == name)
}

/// A manifest that lacks crates its generated code uses.
pub struct Missing {
    /// Relative to the workspace.
    pub manifest: PathBuf,
    /// The packages to add.
    pub packages: Vec<&'static str>,
    /// The manifest with them added.
    pub updated: String,
}

/// The manifests under `root` of the crates `files` are generated into
/// that lack a crate the files use.
pub fn missing(root: &Path, files: &[GeneratedFile]) -> Vec<Missing> {
    // Every generated line is read: on every core.
    let scanned = map_on_every_core(files, |file| {
        manifest_of(root, &file.path).map(|manifest| {
            let uses = match &file.uses {
                Some(uses) => uses.iter().copied().collect(),
                None => used_packages(&file.contents),
            };
            (manifest, uses)
        })
    });
    let mut used: std::collections::BTreeMap<PathBuf, BTreeSet<&'static str>> = Default::default();
    for (manifest, packages) in scanned.into_iter().flatten() {
        used.entry(manifest).or_default().extend(packages);
    }
    let mut out = Vec::new();
    for (manifest, packages) in used {
        let Ok(text) = std::fs::read_to_string(root.join(&manifest)) else {
            continue;
        };
        let listed = listed_packages(&text);
        let packages: Vec<&'static str> = packages.into_iter().filter(|p| !listed.contains(*p)).collect();
        if packages.is_empty() {
            continue;
        }
        let updated = with_packages(&text, &packages);
        out.push(Missing {
            manifest,
            packages,
            updated,
        });
    }
    out
}

/// The manifest of the crate a generated file (relative to `root`) is in:
/// its nearest folder with a `Cargo.toml`, below the workspace's own.
fn manifest_of(root: &Path, file: &Path) -> Option<PathBuf> {
    let mut dir = file.parent();
    while let Some(at) = dir.filter(|d| !d.as_os_str().is_empty()) {
        let manifest = at.join("Cargo.toml");
        if root.join(&manifest).is_file() {
            return Some(manifest);
        }
        dir = at.parent();
    }
    None
}

/// The packages code names by path (`uuid::` or `::uuid::`), outside
/// its comments and doc attributes. A warm `generate` reads every
/// generated line (about a million) through here, in xtask's unoptimized
/// build: one pass over the bytes, the name before each `::` looked up.
pub fn used_packages(code: &str) -> BTreeSet<&'static str> {
    let bytes = code.as_bytes();
    let mut used = BTreeSet::new();
    let mut at = 0;
    while at < bytes.len() {
        while at < bytes.len() && (bytes[at] == b' ' || bytes[at] == b'\t') {
            at += 1;
        }
        let skipped = bytes[at..].starts_with(b"//") || bytes[at..].starts_with(b"#[doc");
        let line_start = at;
        while at < bytes.len() && bytes[at] != b'\n' {
            if !skipped && bytes[at] == b':' && at + 1 < bytes.len() && bytes[at + 1] == b':' {
                let mut name_start = at;
                while name_start > line_start && is_name_byte(bytes[name_start - 1]) {
                    name_start -= 1;
                }
                let name = &code[name_start..at];
                // The first segment of a path only: `responses::bytes::<_>`
                // names no crate `bytes`.
                let inner = name_start >= 3
                    && &bytes[name_start - 2..name_start] == b"::"
                    && (is_name_byte(bytes[name_start - 3]) || bytes[name_start - 3] == b'>');
                if let Some((_, package)) = CRATES.iter().find(|(path, _)| *path == name && !inner) {
                    used.insert(*package);
                }
                at += 1;
            }
            at += 1;
        }
        at += 1;
    }
    used
}

/// A byte of an identifier; any byte of a non-ASCII character counts, so
/// a name is never cut inside one.
fn is_name_byte(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || byte == b'_' || byte >= 0x80
}

/// The packages a manifest's `[dependencies]` lists.
fn listed_packages(manifest: &str) -> BTreeSet<String> {
    let Ok(parsed) = toml::from_str::<toml::Table>(manifest) else {
        return BTreeSet::new();
    };
    parsed
        .get("dependencies")
        .and_then(toml::Value::as_table)
        .map(|deps| deps.keys().cloned().collect())
        .unwrap_or_default()
}

/// `manifest` with `packages` listed at the end of its `[dependencies]`.
fn with_packages(manifest: &str, packages: &[&str]) -> String {
    let lines: Vec<&str> = manifest.lines().collect();
    let start = lines.iter().position(|l| l.trim() == "[dependencies]");
    let mut out: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    let added = packages.iter().map(|p| format!("{p}.workspace = true"));
    match start {
        Some(start) => {
            // After the table's last entry, before the blank line or the
            // next table.
            let end = (start + 1..lines.len())
                .find(|&i| lines[i].trim_start().starts_with('['))
                .unwrap_or(lines.len());
            let mut at = end;
            while at > start + 1 && lines[at - 1].trim().is_empty() {
                at -= 1;
            }
            let mut insert = vec!["# Used by the generated code (`cargo xtask generate` adds it).".to_string()];
            insert.extend(added);
            out.splice(at..at, insert);
        }
        None => {
            out.push(String::new());
            out.push("[dependencies]".into());
            out.extend(added);
        }
    }
    out.join("\n") + "\n"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_in_code_are_uses_and_comments_are_not() {
        let code = "pub id: ::uuid::Uuid,\n/// see chrono::DateTime\n  #[doc = \"base64::x\"]\nlet r = regress::Regex::new(x);\nlet s = my_uuid::x;\nlet t = éuuid::x; let u = rand:;\nlet v = responses::bytes::<_>(r);";
        let used = used_packages(code);
        assert_eq!(used.into_iter().collect::<Vec<_>>(), ["regress", "uuid"]);
    }

    #[test]
    fn a_missing_package_is_added_to_the_dependencies() {
        let manifest =
            "[package]\nname = \"c\"\n\n[dependencies]\nserde.workspace = true\n\n[lints]\nworkspace = true\n";
        let updated = with_packages(manifest, &["uuid"]);
        assert_eq!(
            updated,
            "[package]\nname = \"c\"\n\n[dependencies]\nserde.workspace = true\n\
             # Used by the generated code (`cargo xtask generate` adds it).\nuuid.workspace = true\n\n\
             [lints]\nworkspace = true\n"
        );
        assert!(listed_packages(&updated).contains("uuid"));
    }
}
