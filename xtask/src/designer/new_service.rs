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

use std::path::{Path, PathBuf};

use heck::ToSnakeCase;
use quote::quote;

use crate::codegen::designer_targets::{self, SERVER_FILE};
use crate::codegen::{Generated, generate_per_operation, read_list};

const USAGE: &str = "usage: cargo xtask new NAME --spec FILE";

/// What `new` wrote, for the caller to print.
pub struct Created {
    pub crate_dir: String,
    pub spec: String,
    pub generated: Generated,
}

/// Parses `NAME --spec FILE` and creates the crate under `root`.
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
    let list = PathBuf::from(crate::codegen::spec::leave_out::list_path(&absolute.to_string_lossy()));
    if list.exists() {
        copy(&list, &crate::codegen::spec::leave_out::list_path(&spec))?;
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

fn manifest(name: &str, spec: &str) -> String {
    format!(
        r#"[package]
name = "{name}"
description = "A service generated from {spec} by `cargo xtask new`: its contract and client are generated, its handlers are written in src/service.rs."
version.workspace = true
edition.workspace = true
rust-version.workspace = true
license.workspace = true
publish.workspace = true

# The spec `cargo xtask generate` and `check` keep src/api/generated.rs and
# src/client/generated.rs with.
[package.metadata.xtask]
spec = "{spec}"

# The spec's descriptions become doc comments, and rustdoc would compile
# their indented or fenced examples as Rust.
[lib]
doctest = false

[dependencies]
api-runtime.workspace = true
base64.workspace = true
chrono.workspace = true
clap.workspace = true
dropshot.workspace = true
futures.workspace = true
progenitor-client.workspace = true
rand.workspace = true
regress.workspace = true
reqwest.workspace = true
schemars.workspace = true
serde.workspace = true
serde_json.workspace = true
serde_urlencoded.workspace = true
slog.workspace = true
tokio.workspace = true
uuid.workspace = true

[lints]
workspace = true
"#
    )
}

fn lib_file(name: &str, spec: &str) -> String {
    format!(
        r#"//! {name}: the service of `{spec}`, generated by `cargo xtask new`.
//! [`api`] is its server contract and [`client`] its progenitor client
//! (both generated: `cargo xtask generate` after a spec change);
//! [`service`] holds its handlers, which are yours to write.

pub mod api;
pub mod client;
pub mod service;

/// The runtime the generated server code relies on (as `crate::runtime`).
pub use api_runtime as runtime;

use std::net::SocketAddr;

/// The request body limit.
pub const BODY_LIMIT: usize = 1024 * 1024;

/// Starts serving [`service::Service`] on `bind` (port 0 picks a free one).
pub fn start(bind: SocketAddr, log: slog::Logger) -> Result<dropshot::HttpServer<service::Service>, String> {{
    let api = api::api_description::<service::Service>().map_err(|e| format!("invalid API description: {{e}}"))?;
    let config = dropshot::ConfigDropshot {{
        bind_address: bind,
        default_request_body_max_bytes: BODY_LIMIT,
        default_handler_task_mode: dropshot::HandlerTaskMode::CancelOnDisconnect,
        ..Default::default()
    }};
    dropshot::ServerBuilder::new(api, service::Service, log)
        .config(config)
        .start()
        .map_err(|e| format!("cannot serve on {{bind}}: {{e}}"))
}}
"#
    )
}

fn module_file(what: &str) -> String {
    format!(
        r#"//! The {what}, generated from the crate's spec.

// Generated by `cargo xtask generate` and checked by `cargo xtask check`.
#[rustfmt::skip]
#[allow(clippy::all, dead_code, deprecated, unused_comparisons)]
mod generated;

pub use generated::*;
"#
    )
}

fn main_file(name: &str, lib: &str) -> String {
    format!(
        r#"//! Serves {name} on `--bind` (port 0 picks a free one), prints
//! `Serving <base URL>`, and runs until stopped.

use clap::Parser;

#[derive(Parser)]
#[command(about = "Serve {name}")]
struct Args {{
    /// Where to listen.
    #[arg(long, default_value = "127.0.0.1:8080")]
    bind: std::net::SocketAddr,
}}

#[tokio::main]
async fn main() -> Result<(), String> {{
    let args = Args::parse();
    let log = dropshot::ConfigLogging::StderrTerminal {{
        level: dropshot::ConfigLoggingLevel::Info,
    }}
    .to_logger("{name}")
    .map_err(|e| format!("cannot log: {{e}}"))?;
    let server = {lib}::start(args.bind, log)?;
    println!("Serving http://{{}}{{}}", server.local_addr(), {lib}::api::BASE_PATH);
    server.await
}}
"#
    )
}

/// `src/service.rs`: the handlers trait of the generated contract,
/// implemented with every method answering `NotImplemented`.
fn service_file(server: &str) -> Result<String, String> {
    let file = syn::parse_file(server).map_err(|e| format!("the generated contract does not parse: {e}"))?;
    let handlers = file
        .items
        .iter()
        .find_map(|item| match item {
            syn::Item::Trait(t) if t.ident.to_string().ends_with("Handlers") => Some(t),
            _ => None,
        })
        .ok_or("the generated contract has no handlers trait")?;
    let trait_name = &handlers.ident;
    let methods = handlers.items.iter().filter_map(|item| {
        let syn::TraitItem::Fn(method) = item else { return None };
        let name = &method.sig.ident;
        let output = future_output(&method.sig.output)?;
        let inputs = method.sig.inputs.iter().map(|input| match input {
            syn::FnArg::Typed(typed) => {
                let ty = &typed.ty;
                let pat = match &*typed.pat {
                    syn::Pat::Ident(ident) => {
                        let unused = quote::format_ident!("_{}", ident.ident.to_string().to_snake_case());
                        quote!(#unused)
                    }
                    _ => quote!(_),
                };
                quote!(#pat: #ty)
            }
            receiver => quote!(#receiver),
        });
        Some(quote! {
            async fn #name(#(#inputs),*) -> #output {
                #output::NotImplemented
            }
        })
    });
    let methods: Vec<_> = methods.collect();
    // The contract names some argument types through its `runtime`
    // (`runtime::Bytes`), which its glob export does not carry.
    let runtime = quote!(#(#methods)*).to_string().contains("runtime ::").then(|| {
        quote!(
            use crate::runtime;
        )
    });
    let tokens = quote! {
        use crate::api::*;
        #runtime
        use crate::runtime::{AuthError, Authenticator, Credential};

        /// The service. Hold its state here (a database pool, ...).
        pub struct Service;

        /// Accepts any credential an operation's schemes carry (a request
        /// without one still gets 401): replace it with a real check.
        impl Authenticator for Service {
            type Principal = ();

            async fn authenticate(&self, _credential: Credential) -> Result<(), AuthError> {
                Ok(())
            }
        }

        impl #trait_name for Service {
            #(#methods)*
        }
    };
    let file: syn::File = syn::parse2(tokens).map_err(|e| format!("cannot write service.rs: {e}"))?;
    Ok(format!(
        "//! The service's handlers, written once by `cargo xtask new` and yours\n\
         //! to edit: each answers 501 (`NotImplemented`) until it is written.\n\
         //! After a spec change, `cargo xtask generate`; the compiler then\n\
         //! names every handler the change broke.\n\n{}",
        prettyplease::unparse(&file)
    ))
}

/// `T` of `impl Future<Output = T> + Send`.
fn future_output(output: &syn::ReturnType) -> Option<syn::Type> {
    let syn::ReturnType::Type(_, ty) = output else {
        return None;
    };
    let syn::Type::ImplTrait(bounds) = &**ty else {
        return None;
    };
    bounds.bounds.iter().find_map(|bound| {
        let syn::TypeParamBound::Trait(bound) = bound else {
            return None;
        };
        let last = bound.path.segments.last()?;
        let syn::PathArguments::AngleBracketed(args) = &last.arguments else {
            return None;
        };
        args.args.iter().find_map(|arg| match arg {
            syn::GenericArgument::AssocType(assoc) if assoc.ident == "Output" => Some(assoc.ty.clone()),
            _ => None,
        })
    })
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
