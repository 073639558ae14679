//! One document's generation: its reading, the client and the server
//! generated side by side, and the files rendered under their header;
//! operation by operation ([`generate_per_operation`]), a refusal takes
//! out only what it belongs to. Pure: nothing is read or written.

use std::path::PathBuf;

use super::document::leave_out::LeftOut;
use super::document::{self, Refusals, SpecErrors};
use super::files::{GeneratedFile, render};
use super::reading::{Read, apply_list, document_json};
use super::rust_items::{RenderedItems, empty_file};
use super::targets::{TARGETS, Target};
use super::{client_gen, server_gen, until_generated, webhooks};

/// Generates the service's files from its spec text. Pure: nothing is read
/// or written, so `check` can compare in memory.
pub fn generate_all(spec_text: &str) -> Result<Vec<GeneratedFile>, SpecErrors> {
    generate_target(&TARGETS[0], spec_text)
}

/// Generates a target's files from its spec text. The client and the
/// server are generated side by side, so that what either cannot map is
/// reported in the same run.
pub fn generate_target(target: &Target, spec_text: &str) -> Result<Vec<GeneratedFile>, SpecErrors> {
    generate_leaving_out(target, spec_text, None).map(|(files, _)| files)
}

/// [`generate_target`] without the operations of a leave-out list
/// (`(its path, its text)`); gives what was left out too, which the
/// files' header states.
pub fn generate_leaving_out(
    target: &Target,
    spec_text: &str,
    list: Option<(&str, &str)>,
) -> Result<(Vec<GeneratedFile>, Vec<LeftOut>), SpecErrors> {
    let read = apply_list(spec_text, list)?;
    let list_path = list.map(|(path, _)| path).unwrap_or_default();
    let text = generate_text(target, &read.text, &read, list_path, &[], &Default::default())?;
    let left_out = read.left_out;
    Ok((text.files, left_out))
}

/// What generating a document operation by operation gave.
pub struct Generated {
    pub files: Vec<GeneratedFile>,
    /// What the designer's leave-out list kept out.
    pub left_out: Vec<LeftOut>,
    /// What the generator refused, each operation with where and why.
    pub refused: Vec<LeftOut>,
    /// The operations the files map.
    pub operations: usize,
    /// The webhooks and callbacks they send and receive.
    pub webhooks: usize,
    /// The mistakes read as what they mean ([`document::tolerate`]).
    pub tolerated: Vec<document::tolerate::Tolerated>,
    /// The schemas whose Rust type is any JSON value, by location
    /// (`components.schemas.Pet`, or an operation's inline schema), with why.
    pub degraded: std::collections::BTreeMap<String, String>,
}

/// How a degradation reads, for `try` and `lint`: what the code does,
/// then why.
pub fn degradation(why: &str) -> String {
    match why.starts_with(document::parameter_shapes::JSON_TEXT) {
        true => why.to_string(),
        false => format!("any JSON value in Rust (validated as written): {why}"),
    }
}

impl Generated {
    /// The line `cargo xtask try` and `new` print: operations mapped and
    /// left out, and the warnings `cargo xtask lint` names.
    pub fn summary(&self) -> String {
        let webhooks = match self.webhooks {
            0 => String::new(),
            n => format!(" (and {n} webhook(s) or callback(s))"),
        };
        format!(
            "{} operation(s) mapped{webhooks}, {} left out ({} listed, {} refused), {} warning(s) ({} mistake(s) tolerated, {} schema(s) degraded to any JSON value)",
            self.operations,
            self.left_out.len() + self.refused.len(),
            self.left_out.len(),
            self.refused.len(),
            self.tolerated.len() + self.degraded.len(),
            self.tolerated.len(),
            self.degraded.len()
        )
    }
}

/// [`generate_leaving_out`], where a refusal takes out the operations it
/// belongs to instead of the document ([`document::per_operation`]): the rest
/// generates, and the files' header names each refused operation with the
/// location and the reason. Only a problem that belongs to no operation
/// refuses the document.
pub fn generate_per_operation(
    target: &Target,
    spec_text: &str,
    list: Option<(&str, &str)>,
) -> Result<Generated, SpecErrors> {
    let mut read = apply_list(spec_text, list)?;
    let list_path = list.map(|(path, _)| path).unwrap_or_default();
    let mut refused = Vec::new();
    let mut text = std::mem::take(&mut read.text);
    let mut tolerated = std::mem::take(&mut read.tolerated);
    let mut inline = std::collections::BTreeMap::new();
    let generated = until_generated::until_generated(
        &mut text,
        &mut tolerated,
        &mut refused,
        &mut inline,
        |text, refused, inline| generate_text(target, text, &read, list_path, refused, inline),
    )?;
    refused.extend(generated.webhooks_refused);
    Ok(Generated {
        files: generated.files,
        left_out: read.left_out,
        refused,
        operations: generated.operations,
        webhooks: generated.webhooks,
        tolerated,
        degraded: generated.degraded,
    })
}

/// What one document's text gave.
struct FromText {
    files: Vec<GeneratedFile>,
    operations: usize,
    degraded: std::collections::BTreeMap<String, String>,
    /// The webhooks and callbacks the generator refused, and how many
    /// it maps.
    webhooks_refused: Vec<LeftOut>,
    webhooks: usize,
}

/// The size of a document's text above which its client and server are
/// generated one after the other: each takes gigabytes for a document of
/// megabytes (Microsoft Graph's 20 MB: 7 GB for the server), and one at a
/// time the peak is the larger's, not their sum.
const ONE_AT_A_TIME: usize = 4 << 20;

/// A target's files from a spec's text, all or nothing.
/// (`text` is the document's current text; `read` the rest of its
/// reading; `inline` the inline schemas typed as any JSON value.)
fn generate_text(
    target: &Target,
    text: &str,
    read: &Read,
    list_path: &str,
    refused: &[LeftOut],
    inline: &std::collections::BTreeMap<String, String>,
) -> Result<FromText, SpecErrors> {
    let left_out = &read.left_out;
    let mut spec = document::parse(text)?;
    spec.degraded = server_gen::untypable_components(&spec);
    // What another generation found untypable: a component (by the
    // client's typify, say) is degraded on both sides, as the server's are.
    for (location, why) in inline {
        match location.strip_prefix("components.schemas.") {
            Some(name) => {
                spec.degraded.entry(name.to_string()).or_insert_with(|| why.clone());
            }
            None => {
                spec.degraded_inline.insert(location.clone(), why.clone());
            }
        }
    }
    let document = document_json(read.served.as_deref().unwrap_or(text))?;
    let render = |body: &str, refused: &[LeftOut]| render(&target.spec, list_path, left_out, refused, body);
    let text_of = |file: syn::File| {
        let mut rendered = RenderedItems::new();
        rendered.push_file(file);
        rendered.into_text()
    };
    let client = || -> Result<(String, Option<String>), SpecErrors> {
        let mut refusals = Refusals::default();
        let client = refusals.note_all(client_gen::generate(&spec, target.credentials, target.interface));
        let mocks = match target.mocks {
            Some(_) => refusals.note(client_gen::generate_mocks(
                &spec,
                target.client_module,
                target.credentials,
                target.interface,
            )),
            None => None,
        };
        refusals.finish(())?;
        let mocks = mocks.map(|mocks| render(&text_of(mocks), refused));
        Ok((render(&text_of(client.expect("refused above")), refused), mocks))
    };
    // The server contract, rendered part by part, and its webhooks'
    // beside it, whose refusals its header names too.
    let server = || {
        let receiver = webhooks::receiver(text);
        let mut server = match receiver {
            Some(_) => RenderedItems::keeping(webhooks::shared_with_receiver),
            None => RenderedItems::new(),
        };
        server_gen::generate(&spec, &document, None, &mut server).map(|()| {
            let webhooks = receiver.map(|receiver| webhooks::module(&receiver, server.kept()));
            let webhooks_refused = webhooks.as_ref().map(|m| m.refused.clone()).unwrap_or_default();
            let count = webhooks.as_ref().map_or(0, |m| m.operations);
            if let Some(item) = webhooks.and_then(|m| m.item) {
                server.push_file(syn::File {
                    items: vec![item],
                    ..empty_file()
                });
            }
            let all: Vec<LeftOut> = refused.iter().chain(&webhooks_refused).cloned().collect();
            (render(&server.into_text(), &all), webhooks_refused, count)
        })
    };
    // The client (progenitor) and the server are generated side by side:
    // a warm `cargo xtask generate` waits for the slower of the two only.
    // (Their syntax trees cannot cross threads; their text can.) A
    // document of megabytes, whose syntax trees take gigabytes, has them
    // one after the other, so that only one is held at a time.
    let (client, server) = match text.len() > ONE_AT_A_TIME {
        true => (client(), server()),
        false => std::thread::scope(|scope| {
            let client = scope.spawn(client);
            let server = server();
            (client.join().expect("the client's generation does not panic"), server)
        }),
    };
    let mut refusals = Refusals::default();
    let client = match client {
        Ok(client) => Some(client),
        Err(errors) => {
            refusals.extend(errors);
            None
        }
    };
    let (server, webhooks_refused, webhooks) = match server {
        Ok((server, webhooks_refused, webhooks)) => (Some(server), webhooks_refused, webhooks),
        Err(errors) => {
            refusals.extend(errors);
            (None, Vec::new(), 0)
        }
    };
    let files = match (client, server) {
        (Some((client, mocks)), Some(server)) => {
            let mut files = vec![GeneratedFile {
                path: PathBuf::from(&*target.client),
                contents: client,
                uses: None,
            }];
            if let (Some(path), Some(mocks)) = (target.mocks, mocks) {
                files.push(GeneratedFile {
                    path: PathBuf::from(path),
                    contents: mocks,
                    uses: None,
                });
            }
            files.push(GeneratedFile {
                path: PathBuf::from(&*target.server),
                contents: server,
                uses: None,
            });
            files
        }
        _ => Vec::new(),
    };
    refusals.finish(FromText {
        files,
        operations: spec.operations().len(),
        degraded: spec
            .degraded
            .iter()
            .map(|(name, why)| (format!("components.schemas.{name}"), why.clone()))
            .chain(spec.degraded_inline.clone())
            .chain(document::parameter_shapes::json_text_parameters(&spec))
            .collect(),
        webhooks_refused,
        webhooks,
    })
}
