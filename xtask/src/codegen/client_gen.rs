//! The client crate's code: progenitor's output, plus what progenitor does
//! not emit on its own (`#[deprecated]` on deprecated operations, the
//! spec's servers as constants, date-times in paths and headers written
//! as RFC 3339, forms with lists and objects, cookie parameters, query
//! objects in the styles progenitor does not write, and the credentials).

use heck::{ToShoutySnakeCase, ToSnakeCase, ToUpperCamelCase};
use progenitor_impl::{GenerationSettings, Generator, HooksMode, InterfaceStyle};
use quote::quote;

use super::for_progenitor::{Cookies, for_progenitor};
use super::no_panic::refusing_panics;
use super::{
    ClientCredentials, ClientInterface, client_cookies, client_credentials, client_forms, client_media_types,
    client_pages, client_query_objects,
};
use crate::codegen::spec::{Spec, SpecError, server_url};

fn settings(credentials: ClientCredentials, interface: ClientInterface) -> GenerationSettings {
    let mut settings = GenerationSettings::new();
    let inner = match credentials {
        ClientCredentials::CrateApiKey => quote!(crate::ApiKey),
        ClientCredentials::Generated => quote!(Credentials),
    };
    settings
        .with_interface(match interface {
            ClientInterface::Positional => InterfaceStyle::Positional,
            ClientInterface::Builder => InterfaceStyle::Builder,
        })
        // The client holds its credentials; `Expected` makes a missing
        // auth hook (the crate's own, or the generated one) a compile
        // error instead of silently sending unauthenticated requests.
        .with_inner_type(inner)
        .with_hooks(HooksMode::Expected);
    settings
}

/// Runs progenitor, whose panic becomes a refusal.
fn progenitor<T>(what: &str, run: impl FnOnce() -> Result<T, progenitor_impl::Error>) -> Result<T, SpecError> {
    refusing_panics("document", &format!("progenitor ({what})"), || {
        run().map_err(|e| SpecError::new("document", format!("progenitor ({what}): {e}")))
    })
}

pub fn generate(
    spec: &Spec,
    credentials: ClientCredentials,
    interface: ClientInterface,
) -> Result<syn::File, SpecError> {
    let api = for_progenitor(spec, Cookies::AsHeaders);
    let mut tokens = progenitor("client", || {
        Generator::new(&settings(credentials, interface)).generate_tokens(&api)
    })?;
    if credentials == ClientCredentials::Generated {
        tokens.extend(client_credentials::credentials(spec));
    }
    let mut file: syn::File = syn::parse2(tokens).map_err(|e| SpecError {
        location: "document".into(),
        message: format!("progenitor emitted invalid Rust: {e}"),
    })?;
    mark_deprecated(spec, &mut file);
    write_date_times_as_rfc3339(spec, &mut file)?;
    client_forms::write_structured_forms(spec, &mut file)?;
    client_media_types::send_media_types(spec, &mut file)?;
    client_cookies::send_cookie_parameters(spec, &mut file)?;
    client_query_objects::write_query_objects(spec, &mut file)?;
    client_pages::add_streams(spec, &mut file, interface)?;
    syn::visit_mut::VisitMut::visit_file_mut(&mut MethodsReqwestLacks, &mut file);
    syn::visit_mut::VisitMut::visit_file_mut(&mut ListItemsIndented, &mut file);
    file.items.extend(server_constants(spec));
    file.items.push(left_out_of_the_client(spec));
    Ok(file)
}

/// Typed httpmock mocks of every operation (progenitor's generator), for
/// consumers who test their code without a server: the client crate's
/// `mock` feature. `client_module` is the Rust path of the module the
/// client is generated into.
pub fn generate_mocks(
    spec: &Spec,
    client_module: &str,
    credentials: ClientCredentials,
    interface: ClientInterface,
) -> Result<syn::File, SpecError> {
    let tokens = progenitor("httpmock", || {
        Generator::new(&settings(credentials, interface)).httpmock(&for_progenitor(spec, Cookies::Left), client_module)
    })?;
    syn::parse2(tokens).map_err(|e| SpecError {
        location: "document".into(),
        message: format!("progenitor emitted invalid Rust for the mocks: {e}"),
    })
}

/// The operations this client has no method for, each with why: the
/// server serves them, progenitor cannot send them.
fn left_out_of_the_client(spec: &Spec) -> syn::Item {
    let entries = super::for_progenitor::multipart_operations(spec)
        .into_iter()
        .map(|(method, path, id)| {
            format!("{method} {path} ({id}): a multipart/form-data body, which progenitor's client cannot send")
        });
    syn::parse_quote! {
        /// The spec's operations this client has no method for, each with
        /// why (the server serves them all).
        pub const LEFT_OUT_OF_THE_CLIENT: &[&str] = &[#(#entries),*];
    }
}

/// progenitor builds a request with `client.<method>(url)`, which
/// reqwest has for GET, POST, PUT, PATCH, DELETE and HEAD only: an
/// OPTIONS or TRACE operation gets `client.request(Method::OPTIONS, url)`.
struct MethodsReqwestLacks;

impl syn::visit_mut::VisitMut for MethodsReqwestLacks {
    fn visit_expr_method_call_mut(&mut self, call: &mut syn::ExprMethodCall) {
        syn::visit_mut::visit_expr_method_call_mut(self, call);
        let is_client = matches!(&*call.receiver, syn::Expr::Field(field)
            if matches!(&field.member, syn::Member::Named(name) if name == "client"));
        if !is_client || call.args.len() != 1 {
            return;
        }
        let method = match call.method.to_string().as_str() {
            "options" => quote!(OPTIONS),
            "trace" => quote!(TRACE),
            _ => return,
        };
        let (receiver, url) = (&call.receiver, &call.args[0]);
        *call = syn::parse_quote!(#receiver.request(::reqwest::Method::#method, #url));
    }
}

/// progenitor lists an operation's arguments in its doc comment as
/// `- name: description`; a description of several lines continues
/// unindented, which Markdown (and clippy's `doc_lazy_continuation`) reads
/// as a lazy continuation. Its continuation lines are indented under the
/// item.
struct ListItemsIndented;

impl syn::visit_mut::VisitMut for ListItemsIndented {
    fn visit_attribute_mut(&mut self, attr: &mut syn::Attribute) {
        let syn::Meta::NameValue(doc) = &mut attr.meta else {
            return;
        };
        if !doc.path.is_ident("doc") {
            return;
        }
        let syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(text),
            ..
        }) = &doc.value
        else {
            return;
        };
        let original = text.value();
        let mut out = Vec::new();
        let mut in_item = false;
        for line in original.split('\n') {
            if line.starts_with("- ") {
                in_item = true;
                out.push(line.to_string());
            } else if line.trim().is_empty() || line.starts_with("```") {
                in_item = false;
                out.push(line.to_string());
            } else if in_item {
                out.push(format!("  {line}"));
            } else {
                out.push(line.to_string());
            }
        }
        let indented = out.join("\n");
        if indented != original {
            doc.value = syn::parse_quote!(#indented);
        }
    }
}

/// progenitor ignores `deprecated: true`; callers should see the warning,
/// with the sunset date when the spec gives one (`x-sunset`).
fn mark_deprecated(spec: &Spec, file: &mut syn::File) {
    let deprecated: Vec<(String, String)> = spec
        .operations()
        .into_iter()
        .filter(|op| op.operation.deprecated)
        .map(|op| {
            let note = match op.operation.extensions.get("x-sunset").and_then(|v| v.as_str()) {
                Some(sunset) => format!(
                    "`{}` is deprecated and will be removed on {sunset} (x-sunset)",
                    op.operation_id()
                ),
                None => format!("`{}` is deprecated; no sunset date is set yet", op.operation_id()),
            };
            (op.operation_id().to_snake_case(), note)
        })
        .collect();
    for item in &mut file.items {
        let syn::Item::Impl(imp) = item else { continue };
        for impl_item in &mut imp.items {
            let syn::ImplItem::Fn(f) = impl_item else { continue };
            if let Some((_, note)) = deprecated.iter().find(|(name, _)| f.sig.ident == name) {
                f.attrs.push(syn::parse_quote!(#[deprecated(note = #note)]));
            }
        }
    }
}

/// `PRODUCTION_BASE_URL`, `STAGING_BASE_URL`, ... named after each server's
/// description (`SERVER_0_BASE_URL` without one), server variables at
/// their defaults. A relative URL stays relative: the consumer joins it
/// to the host the document came from.
fn server_constants(spec: &Spec) -> Vec<syn::Item> {
    let mut names = std::collections::BTreeSet::new();
    spec.api
        .servers
        .iter()
        .enumerate()
        .filter_map(|(i, server)| {
            let url = server_url(server, &format!("servers.{i}")).ok()?;
            let label = server.description.clone().unwrap_or_else(|| format!("server {i}"));
            let mut name = format!("{}_BASE_URL", label.to_shouty_snake_case());
            if syn::parse_str::<syn::Ident>(&name).is_err() || !names.insert(name.clone()) {
                name = format!("SERVER_{i}_BASE_URL");
                names.insert(name.clone());
            }
            let name = quote::format_ident!("{name}");
            let doc = format!("The {label} base URL, from the spec's `servers`.");
            Some(syn::parse_quote! {
                #[doc = #doc]
                pub const #name: &str = #url;
            })
        })
        .collect()
}

/// progenitor writes a path or header parameter with its `Display`, which
/// for a date-time is `2026-01-02 03:04:05 UTC`, not the RFC 3339 the spec
/// means (its query parameters go through serde, which is right). Each
/// such parameter is written with `to_rfc3339_opts` instead.
fn write_date_times_as_rfc3339(spec: &Spec, file: &mut syn::File) -> Result<(), SpecError> {
    use syn::visit_mut::VisitMut;
    for op in spec.operations() {
        let mut path_args = Vec::new();
        let mut headers = Vec::new();
        for (parameter, _) in spec.parameters(&op)? {
            let format = parameter.pointer("/schema/format").and_then(serde_json::Value::as_str);
            if format != Some("date-time") {
                continue;
            }
            let name = parameter["name"].as_str().unwrap_or_default().to_string();
            match parameter["in"].as_str() {
                Some("path") => path_args.push(name.to_snake_case()),
                Some("header") => headers.push(name),
                _ => {}
            }
        }
        if path_args.is_empty() && headers.is_empty() {
            continue;
        }
        let method = op.operation_id().to_snake_case();
        let mut rewrite = DateTimeDisplay {
            path_args: &path_args,
            headers: &headers,
        };
        for f in methods_named(file, &method) {
            rewrite.visit_impl_item_fn_mut(f);
        }
    }
    Ok(())
}

/// The client's methods that send the operation progenitor names `name`:
/// the method itself in the positional interface, its builder's `send`
/// in the builder interface (which binds the parameters to the same names).
pub(super) fn methods_named<'a>(file: &'a mut syn::File, name: &str) -> Vec<&'a mut syn::ImplItemFn> {
    let builder = name.to_upper_camel_case();
    let mut found = Vec::new();
    for item in &mut file.items {
        match item {
            syn::Item::Impl(imp) => found.extend(imp.items.iter_mut().filter_map(|item| match item {
                syn::ImplItem::Fn(f) if f.sig.ident == name => Some(f),
                _ => None,
            })),
            syn::Item::Mod(m) if m.ident == "builder" => {
                let Some((_, items)) = m.content.as_mut() else { continue };
                for item in items {
                    let syn::Item::Impl(imp) = item else { continue };
                    let is_builder = matches!(&*imp.self_ty, syn::Type::Path(p)
                        if p.path.segments.last().is_some_and(|s| s.ident == builder));
                    if !is_builder {
                        continue;
                    }
                    found.extend(imp.items.iter_mut().filter_map(|item| match item {
                        syn::ImplItem::Fn(f) if f.sig.ident == "send" => Some(f),
                        _ => None,
                    }));
                }
            }
            _ => {}
        }
    }
    found
}

struct DateTimeDisplay<'a> {
    path_args: &'a [String],
    headers: &'a [String],
}

impl syn::visit_mut::VisitMut for DateTimeDisplay<'_> {
    /// progenitor builds the URL with `format!`, whose arguments syn keeps
    /// as tokens: they are read as expressions, rewritten, and put back.
    fn visit_macro_mut(&mut self, mac: &mut syn::Macro) {
        type Args = syn::punctuated::Punctuated<syn::Expr, syn::Token![,]>;
        if !mac.path.is_ident("format") {
            return;
        }
        let Ok(mut args) = mac.parse_body_with(Args::parse_terminated) else {
            return;
        };
        for arg in args.iter_mut() {
            self.visit_expr_mut(arg);
        }
        mac.tokens = quote!(#args);
    }

    fn visit_expr_mut(&mut self, expr: &mut syn::Expr) {
        match expr {
            // header_map.append("X-At", value.to_string().try_into()?)
            syn::Expr::MethodCall(call) if call.method == "append" && call.args.len() == 2 => {
                if let syn::Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Str(name),
                    ..
                }) = &call.args[0]
                    && self.headers.contains(&name.value())
                {
                    rfc3339_instead_of_display(&mut call.args[1]);
                }
            }
            // encode_path(&at.to_string())
            syn::Expr::Call(call) if matches!(&*call.func, syn::Expr::Path(p) if p.path.is_ident("encode_path")) => {
                if let Some(syn::Expr::Reference(reference)) = call.args.first_mut()
                    && let syn::Expr::MethodCall(to_string) = &*reference.expr
                    && let syn::Expr::Path(receiver) = &*to_string.receiver
                    && self.path_args.iter().any(|a| receiver.path.is_ident(a))
                {
                    rfc3339_instead_of_display(&mut reference.expr);
                }
            }
            _ => {}
        }
        syn::visit_mut::visit_expr_mut(self, expr);
    }
}

/// `x.to_string()`, anywhere in `expr`, becomes `x.to_rfc3339_opts(..)`.
fn rfc3339_instead_of_display(expr: &mut syn::Expr) {
    struct Rewrite;
    impl syn::visit_mut::VisitMut for Rewrite {
        fn visit_expr_mut(&mut self, expr: &mut syn::Expr) {
            if let syn::Expr::MethodCall(call) = expr
                && call.method == "to_string"
                && call.args.is_empty()
            {
                let receiver = &call.receiver;
                *expr = syn::parse_quote!(#receiver.to_rfc3339_opts(::chrono::SecondsFormat::AutoSi, true));
                return;
            }
            syn::visit_mut::visit_expr_mut(self, expr);
        }
    }
    syn::visit_mut::VisitMut::visit_expr_mut(&mut Rewrite, expr);
}
