//! The workspace's layers depend one way, and the runtime knows no spec:
//! read from each crate's `Cargo.toml` and `api-runtime`'s sources, so a
//! dependency that points up or sideways fails here, not in review.

use super::{assert_none, read, workspace_root};

/// Each workspace crate's layer, lowest first. A crate may depend only on
/// crates of lower layers ([`dependencies`], not dev-dependencies: tests
/// sit above everything they test). The order is ARCHITECTURE.md's.
const LAYERS: &[(&str, &[&str])] = &[
    (
        "every dependency's features, unified for the workspace",
        &["workspace-hack"],
    ),
    (
        "what the generator and the runtime share; the checks served processes pass",
        &["api-shared", "serving-checks"],
    ),
    (
        "the generator, and the runtimes generated code runs on",
        &["xtask", "api-runtime", "api-client-runtime"],
    ),
    (
        "generated crates",
        &[
            "petstore-api",
            "petstore-client",
            "kitchen-sink",
            "kitchen-sink-31",
            "swagger-petstore",
            "holidays",
            "petstore-v3-stub",
            "json-schema-suite",
            "corpus-0",
            "corpus-1",
            "corpus-2",
            "corpus-3",
            "corpus-4",
            "corpus-5",
            "corpus-6",
            "corpus-7",
        ],
    ),
    (
        "what uses generated crates",
        &["petstore-server", "petstore-cli", "petstore-bench", "corpus"],
    ),
    ("workspace tests", &["petstore-tests"]),
];

fn layer_of(name: &str) -> Option<usize> {
    LAYERS.iter().position(|(_, crates)| crates.contains(&name))
}

/// Every workspace member's manifest path and package name.
fn members() -> Vec<(String, String)> {
    let workspace: toml::Table = toml::from_str(&read("Cargo.toml")).unwrap();
    let members = workspace["workspace"]["members"].as_array().unwrap();
    members
        .iter()
        .map(|member| {
            let manifest = format!("{}/Cargo.toml", member.as_str().unwrap());
            let package: toml::Table = toml::from_str(&read(&manifest)).unwrap();
            let name = package["package"]["name"].as_str().unwrap().to_string();
            (manifest, name)
        })
        .collect()
}

#[test]
fn every_crate_depends_only_on_crates_of_lower_layers() {
    let members = members();
    let names: Vec<&str> = members.iter().map(|(_, name)| name.as_str()).collect();
    let mut offenders = Vec::new();
    for (manifest, name) in &members {
        let Some(layer) = layer_of(name) else {
            offenders.push(format!("{name}: in no layer of LAYERS (add it where it belongs)"));
            continue;
        };
        let package: toml::Table = toml::from_str(&read(manifest)).unwrap();
        for table in ["dependencies", "build-dependencies"] {
            let Some(dependencies) = package.get(table).and_then(|t| t.as_table()) else {
                continue;
            };
            for dependency in dependencies.keys().filter(|d| names.contains(&d.as_str())) {
                let theirs = layer_of(dependency).unwrap_or(usize::MAX);
                if theirs >= layer {
                    offenders.push(format!(
                        "{name} ({}) depends on {dependency} ({})",
                        LAYERS[layer].0,
                        LAYERS.get(theirs).map_or("no layer", |l| l.0)
                    ));
                }
            }
        }
    }
    assert_none("these dependencies do not point down", offenders);
}

#[test]
fn api_runtime_knows_no_spec() {
    let manifest = read("crates/api-runtime/Cargo.toml");
    assert!(
        !manifest.contains("openapiv3"),
        "api-runtime reads tables, not OpenAPI documents"
    );
    let mut offenders = Vec::new();
    let mut files = Vec::new();
    super::walk(&workspace_root().join("crates/api-runtime/src"), &mut files);
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap().to_lowercase();
        for name in ["petstore", "kitchen", "openapi/", ".yaml"] {
            if text.contains(name) {
                offenders.push(format!("{}: names `{name}`", file.display()));
            }
        }
    }
    assert_none(
        "api-runtime must serve any generated contract, and names a spec",
        offenders,
    );
}

/// api-runtime's core (what the generated tables describe) does not reach
/// up into `serving/` (serving a service as a process), which builds on
/// it: a path to `serving` anywhere in the core's code is an offender.
/// The crate root is the facade, and declares it.
#[test]
fn api_runtime_core_does_not_reach_into_serving() {
    let source = workspace_root().join("crates/api-runtime/src");
    let mut files = Vec::new();
    super::walk(&source, &mut files);
    let offenders = files
        .iter()
        .filter(|file| !file.starts_with(source.join("serving")) && !file.ends_with("lib.rs"))
        .filter(|file| {
            let code = super::paths::code_of(&std::fs::read_to_string(file).unwrap());
            code.contains("serving::") || code.contains("use serving") || code.contains("super::serving")
        })
        .map(|file| file.strip_prefix(&source).unwrap().display().to_string())
        .collect();
    assert_none("these files of api-runtime's core use `serving/`", offenders);
}
