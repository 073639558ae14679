//! The API surface in one snapshot: for each operation, its method and
//! path, the generated client method, the server's handler method and its
//! response variants. A spec change's effect on both sides shows up here
//! as one small diff for a reviewer.

use petstore_tests::{source_spec, workspace_root};

fn parse(relative: &str) -> syn::File {
    syn::parse_file(&std::fs::read_to_string(workspace_root().join(relative)).unwrap()).unwrap()
}

/// A signature on one line, as rustfmt-like text.
fn render_signature(sig: &syn::Signature) -> String {
    let item: syn::ItemFn = syn::parse_quote!(#sig {});
    let text = prettyplease::unparse(&syn::File {
        shebang: None,
        attrs: vec![],
        items: vec![syn::Item::Fn(item)],
    });
    text.trim()
        .trim_end_matches("{}")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .replace("( ", "(")
        .replace(", )", ")")
}

fn client_method<'a>(file: &'a syn::File, name: &str) -> Option<&'a syn::ImplItemFn> {
    file.items.iter().find_map(|item| match item {
        syn::Item::Impl(imp) if imp.trait_.is_none() => imp.items.iter().find_map(|i| match i {
            syn::ImplItem::Fn(f) if f.sig.ident == name => Some(f),
            _ => None,
        }),
        _ => None,
    })
}

/// A builder-interface operation's setters (`.name(Type)`, the parameters
/// by name), its `send` and its page `stream`, from `mod builder`; nothing
/// for a positional client.
fn builder_surface(client: &syn::File, builder: &str) -> String {
    let Some(items) = client.items.iter().find_map(|item| match item {
        syn::Item::Mod(m) if m.ident == "builder" => m.content.as_ref().map(|(_, items)| items),
        _ => None,
    }) else {
        return String::new();
    };
    let is_builder = |imp: &syn::ItemImpl| matches!(&*imp.self_ty, syn::Type::Path(p) if p.path.segments.last().is_some_and(|s| s.ident == builder));
    // The builder's own impl, and the page stream's (an impl of
    // `builder::Op` outside the module).
    let methods = items
        .iter()
        .chain(&client.items)
        .filter_map(|item| match item {
            syn::Item::Impl(imp) if imp.trait_.is_none() && is_builder(imp) => Some(&imp.items),
            _ => None,
        })
        .flatten()
        .filter_map(|item| match item {
            syn::ImplItem::Fn(f) if f.sig.ident != "new" => Some(f),
            _ => None,
        });
    let (mut setters, mut rest) = (Vec::new(), String::new());
    for method in methods {
        let bound = method
            .sig
            .generics
            .where_clause
            .as_ref()
            .and_then(|w| w.predicates.first());
        match bound {
            Some(syn::WherePredicate::Type(bound)) => {
                let target = bound
                    .bounds
                    .first()
                    .map(|b| quote::quote!(#b).to_string())
                    .unwrap_or_default();
                let target = target
                    .trim_start_matches("std :: convert :: TryInto <")
                    .trim_end_matches('>')
                    .replace(' ', "");
                setters.push(format!(".{}({target})", method.sig.ident));
            }
            _ => rest.push_str(&format!(
                "  {:<10} {}\n",
                format!("{}:", method.sig.ident),
                render_signature(&method.sig)
            )),
        }
    }
    if setters.is_empty() && rest.is_empty() {
        return String::new();
    }
    format!("  builder:   {}\n{rest}", setters.join(" "))
}

fn trait_method<'a>(file: &'a syn::File, trait_name: &str, name: &str) -> Option<&'a syn::TraitItemFn> {
    file.items.iter().find_map(|item| match item {
        syn::Item::Trait(t) if t.ident == trait_name => t.items.iter().find_map(|i| match i {
            syn::TraitItem::Fn(f) if f.sig.ident == name => Some(f),
            _ => None,
        }),
        _ => None,
    })
}

fn enum_variants(file: &syn::File, name: &str) -> Vec<String> {
    file.items
        .iter()
        .find_map(|item| match item {
            syn::Item::Enum(e) if e.ident == name => Some(
                e.variants
                    .iter()
                    .map(|v| {
                        let fields = &v.fields;
                        format!("{}{}", v.ident, quote::quote!(#fields)).replace(' ', "")
                    })
                    .collect(),
            ),
            _ => None,
        })
        .unwrap_or_default()
}

fn is_deprecated(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| a.path().is_ident("deprecated"))
}

fn snake(id: &str) -> String {
    let mut out = String::new();
    for c in id.chars() {
        if c.is_ascii_uppercase() {
            out.push('_');
        }
        out.push(c.to_ascii_lowercase());
    }
    out
}

fn pascal(id: &str) -> String {
    let mut chars = id.chars();
    chars
        .next()
        .map(|c| c.to_ascii_uppercase().to_string() + chars.as_str())
        .unwrap_or_default()
}

/// Every operation of `spec` with its client method, handler method and
/// response variants.
fn surface(spec: &serde_json::Value, client: &str, server: &str, handlers: &str) -> String {
    let client = parse(client);
    let server = parse(server);
    let mut out = String::new();
    for (path, item) in spec["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            let Some(id) = op.get("operationId").and_then(|id| id.as_str()) else {
                continue;
            };
            let name = snake(id);
            let handler = trait_method(&server, handlers, &name).unwrap_or_else(|| panic!("server lacks {name}"));
            out.push_str(&format!("{id}: {} {path}\n", method.to_uppercase()));
            match client_method(&client, &name) {
                Some(client_fn) => {
                    let deprecated = if is_deprecated(&client_fn.attrs) {
                        "#[deprecated] "
                    } else {
                        ""
                    };
                    out.push_str(&format!(
                        "  client:    {deprecated}{}\n",
                        render_signature(&client_fn.sig)
                    ));
                    out.push_str(&builder_surface(&client, &pascal(id)));
                    if let Some(stream) = client_method(&client, &format!("{name}_stream")) {
                        out.push_str(&format!("  stream:    {}\n", render_signature(&stream.sig)));
                    }
                }
                // Only an operation the client says it leaves out.
                None => {
                    let listed = left_out_of_the_client(&client)
                        .into_iter()
                        .find(|entry| entry.contains(&format!("({id})")))
                        .unwrap_or_else(|| panic!("client lacks {name}, and does not say why"));
                    out.push_str(&format!("  client:    none: {listed}\n"));
                }
            }
            out.push_str(&format!("  server:    {}\n", render_signature(&handler.sig)));
            let variants = enum_variants(&server, &format!("{}Response", pascal(id)));
            out.push_str(&format!("  responses: {}\n\n", variants.join(" | ")));
        }
    }
    out
}

/// The entries of the client's `LEFT_OUT_OF_THE_CLIENT`.
fn left_out_of_the_client(client: &syn::File) -> Vec<String> {
    client
        .items
        .iter()
        .filter_map(|item| match item {
            syn::Item::Const(constant) if constant.ident == "LEFT_OUT_OF_THE_CLIENT" => Some(&*constant.expr),
            _ => None,
        })
        .flat_map(|expr| {
            let text = quote::ToTokens::to_token_stream(expr).to_string();
            text.split('"')
                .skip(1)
                .step_by(2)
                .map(str::to_string)
                .collect::<Vec<_>>()
        })
        .collect()
}

#[test]
fn api_surface() {
    let out = surface(
        &source_spec(),
        "crates/petstore-client/src/generated.rs",
        "crates/petstore-api/src/generated.rs",
        "PetStoreHandlers",
    );
    insta::assert_snapshot!("api_surface", out);
}

#[test]
fn v2_api_surface() {
    let text = std::fs::read_to_string(workspace_root().join("openapi/v2/petstore.yaml")).unwrap();
    let out = surface(
        &serde_norway::from_str(&text).unwrap(),
        "crates/petstore-client/src/v2/generated.rs",
        "crates/petstore-api/src/v2/generated.rs",
        "PetStoreHandlers",
    );
    insta::assert_snapshot!("v2_api_surface", out);
}

#[test]
fn kitchen_sink_api_surface() {
    let text = std::fs::read_to_string(workspace_root().join("tests/fixtures/kitchen-sink.yaml")).unwrap();
    let out = surface(
        &serde_norway::from_str(&text).unwrap(),
        "crates/kitchen-sink/src/client/generated.rs",
        "crates/kitchen-sink/src/api/generated.rs",
        "KitchenSinkHandlers",
    );
    insta::assert_snapshot!("kitchen_sink_api_surface", out);
}
