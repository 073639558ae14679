//! `cargo xtask new NAME --spec FILE`: a designer's own document as a
//! target of the workspace, without touching the Pet Store's. It writes
//! `crates/NAME/`:
//!
//! - the generated server contract and client (`src/api/`, `src/client/`),
//!   which `cargo xtask generate` and `check` keep with the spec from then
//!   on (the crate's `Cargo.toml` names it: [`designer_targets`]);
//! - `src/service.rs`, the designer's to edit: every handler answers 501
//!   (`NotImplemented`, problem details) until it is written, and the
//!   authenticator accepts any credential the operation's schemes carry;
//!   a spec change then shows, as compile errors, the handlers it broke;
//! - `src/main.rs`, serving it (`cargo run -p NAME -- --bind ADDR`)
//!   through the same generated layer as every service here: the
//!   credential checked first, every parameter and body validated against
//!   the spec, per-operation metrics.
//!
//! A spec outside the workspace is copied to `openapi/NAME/` (with its
//! leave-out list), so the workspace holds what it generates from. The
//! crate joins the workspace's members.
//!
//! [`designer_targets`]: crate::codegen::designer_targets

mod crate_files;

use std::path::{Path, PathBuf};

use crate::codegen::designer_targets::{self, SERVER_FILE};
use crate::codegen::{Generated, generate_per_operation, read_list};
use crate_files::{lib_file, main_file, manifest, module_file, service_file};

const USAGE: &str = "usage: cargo xtask new NAME --spec FILE";

/// What `new` wrote, for the caller to print.
pub struct Created {
    pub crate_dir: String,
    pub spec: String,
    pub generated: Generated,
}

/// Parses `NAME --spec FILE` and creates the crate under `root`.
/// The `src/service.rs` that `new` writes for the generated contract
/// `server` (its handlers answering that they are not written yet).
pub fn service_file_for(server: &str) -> Result<String, String> {
    crate_files::service_file(server)
}

pub fn run(root: &Path, args: &[String]) -> Result<(), String> {
    let (name, file) = match args {
        [name, flag, file] if flag == "--spec" => (name, file),
        [flag, file, name] if flag == "--spec" => (name, file),
        _ => return Err(USAGE.into()),
    };
    let created = create(root, name, Path::new(file))?;
    for refused in &created.generated.refused {
        println!("refused: {refused}");
    }
    println!("created {} from {}", created.crate_dir, created.spec);
    println!("{}: {}", created.spec, created.generated.summary());
    println!("serve it: cargo run -p {name} -- --bind 127.0.0.1:8080");
    println!("write its handlers in {}/src/service.rs", created.crate_dir);
    Ok(())
}

/// Creates `crates/<name>` under `root` from the spec at `file` (absolute,
/// or relative to the current directory).
pub fn create(root: &Path, name: &str, file: &Path) -> Result<Created, String> {
    let valid = name.starts_with(|c: char| c.is_ascii_lowercase())
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
    if !valid {
        return Err(format!(
            "`{name}` is not a crate name this makes: lower-case letters, digits and `-`, a letter first"
        ));
    }
    let crate_dir = format!("crates/{name}");
    if root.join(&crate_dir).exists() {
        return Err(format!("{crate_dir} exists already"));
    }
    let spec = spec_in_workspace(root, name, file)?;
    let text = std::fs::read_to_string(root.join(&spec)).map_err(|e| format!("cannot read {spec}: {e}"))?;
    let target = designer_targets::target(&crate_dir, &spec);
    let list = read_list(root, &spec)?;
    let list = list.as_ref().map(|(path, text)| (path.as_str(), text.as_str()));
    let generated = generate_per_operation(&target, &text, list).map_err(|e| format!("{spec}: {e}"))?;
    let server = generated
        .files
        .iter()
        .find(|f| f.path.ends_with(SERVER_FILE))
        .ok_or("the server contract was not generated")?;
    let service = service_file(&server.contents)?;
    let lib = name.replace('-', "_");
    let mut files: Vec<(String, String)> = vec![
        (format!("{crate_dir}/Cargo.toml"), manifest(name, &spec)),
        (format!("{crate_dir}/src/lib.rs"), lib_file(name, &spec)),
        (format!("{crate_dir}/src/api/mod.rs"), module_file("server contract")),
        (
            format!("{crate_dir}/src/client/mod.rs"),
            module_file("progenitor client"),
        ),
        (format!("{crate_dir}/src/service.rs"), service),
        (format!("{crate_dir}/src/main.rs"), main_file(name, &lib)),
    ];
    files.extend(
        generated
            .files
            .iter()
            .map(|f| (f.path.display().to_string(), f.contents.clone())),
    );
    let workspace = root.join("Cargo.toml");
    let members = std::fs::read_to_string(&workspace).map_err(|e| format!("cannot read Cargo.toml: {e}"))?;
    let members = with_member(&members, &crate_dir)?;
    for (path, contents) in &files {
        let path = root.join(path);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
        }
        std::fs::write(&path, contents).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    std::fs::write(&workspace, members).map_err(|e| format!("cannot write Cargo.toml: {e}"))?;
    // The hand-owned files as `cargo fmt` keeps them (prettyplease's
    // layout differs); where rustfmt is missing they are left as written.
    let hand_owned = ["src/lib.rs", "src/service.rs", "src/main.rs"].map(|f| root.join(&crate_dir).join(f));
    let _ = std::process::Command::new("rustfmt")
        .args(["--edition", "2024"])
        .args(&hand_owned)
        .current_dir(root)
        .status();
    Ok(Created {
        crate_dir,
        spec,
        generated,
    })
}

/// The spec's path relative to the workspace: as it is when the file is
/// inside, else copied (with its leave-out list) to `openapi/<name>/`.
fn spec_in_workspace(root: &Path, name: &str, file: &Path) -> Result<String, String> {
    let absolute = std::fs::canonicalize(file).map_err(|e| format!("cannot read {}: {e}", file.display()))?;
    let root = std::fs::canonicalize(root).map_err(|e| format!("cannot read the workspace: {e}"))?;
    if let Ok(inside) = absolute.strip_prefix(&root) {
        return Ok(inside.to_string_lossy().into_owned());
    }
    let file_name = absolute
        .file_name()
        .ok_or_else(|| format!("{} names no file", file.display()))?
        .to_string_lossy()
        .into_owned();
    let spec = format!("openapi/{name}/{file_name}");
    let copy = |from: &Path, to: &str| -> Result<(), String> {
        let to = root.join(to);
        std::fs::create_dir_all(to.parent().unwrap_or(&root))
            .map_err(|e| format!("cannot create openapi/{name}: {e}"))?;
        std::fs::copy(from, &to).map_err(|e| format!("cannot copy {} to {}: {e}", from.display(), to.display()))?;
        Ok(())
    };
    copy(&absolute, &spec)?;
    let list = PathBuf::from(crate::codegen::document::leave_out::list_path(
        &absolute.to_string_lossy(),
    ));
    if list.exists() {
        copy(&list, &crate::codegen::document::leave_out::list_path(&spec))?;
    }
    Ok(spec)
}

/// The workspace manifest with `crate_dir` among its members and default
/// members.
fn with_member(manifest: &str, crate_dir: &str) -> Result<String, String> {
    let mut out = String::new();
    let mut added = 0;
    for line in manifest.lines() {
        let trimmed = line.trim_start();
        if (trimmed.starts_with("members = [") || trimmed.starts_with("default-members = ["))
            && let Some(close) = line.rfind(']')
        {
            let entry = format!("\"{crate_dir}\"");
            if !line.contains(&entry) {
                let separator = if line[..close].trim_end().ends_with('[') {
                    ""
                } else {
                    ", "
                };
                out.push_str(&format!("{}{separator}{entry}{}\n", &line[..close], &line[close..]));
                added += 1;
                continue;
            }
        }
        out.push_str(line);
        out.push('\n');
    }
    match added {
        0 => Err("the workspace's Cargo.toml has no one-line `members = [...]` to add the crate to".into()),
        _ => Ok(out),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_crate_joins_both_member_lists() {
        let manifest = "[workspace]\nmembers = [\"a\", \"b\"]\ndefault-members = [\"a\"]\n";
        assert_eq!(
            with_member(manifest, "crates/x").unwrap(),
            "[workspace]\nmembers = [\"a\", \"b\", \"crates/x\"]\ndefault-members = [\"a\", \"crates/x\"]\n"
        );
        assert!(with_member("[workspace]\n", "crates/x").is_err());
    }
}
