//! Relative links and anchors in the workspace's Markdown (README.md, the
//! other top-level documents, and docs/) lead somewhere: a moved file or a
//! renamed heading fails a test instead of a reader. Markdown is read by
//! pulldown-cmark, so links in code blocks are not links.

use std::collections::BTreeMap;

use pulldown_cmark::{Event, Parser, Tag, TagEnd};

use super::{assert_none, read, workspace_root};

/// What one document offers and asks: its headings' anchors and its links.
struct Document {
    anchors: Vec<String>,
    links: Vec<String>,
}

fn parse(text: &str) -> Document {
    let mut anchors = Vec::new();
    let mut links = Vec::new();
    let mut heading: Option<String> = None;
    for event in Parser::new_ext(text, pulldown_cmark::Options::ENABLE_TABLES) {
        match event {
            Event::Start(Tag::Heading { .. }) => heading = Some(String::new()),
            Event::End(TagEnd::Heading(_)) => {
                let text = heading.take().unwrap_or_default();
                anchors.push(unique(&anchors, github_anchor(&text)));
            }
            Event::Text(text) | Event::Code(text) => {
                if let Some(heading) = heading.as_mut() {
                    heading.push_str(&text);
                }
            }
            Event::Start(Tag::Link { dest_url, .. }) | Event::Start(Tag::Image { dest_url, .. }) => {
                links.push(dest_url.to_string())
            }
            _ => {}
        }
    }
    Document { anchors, links }
}

/// GitHub's anchor for a heading: lower case, spaces as hyphens, and every
/// other character but letters, digits, `-` and `_` dropped.
fn github_anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// A second heading of the same text gets `-1`, a third `-2`, as on GitHub.
fn unique(taken: &[String], anchor: String) -> String {
    if !taken.contains(&anchor) {
        return anchor;
    }
    (1..)
        .map(|n| format!("{anchor}-{n}"))
        .find(|candidate| !taken.contains(candidate))
        .unwrap()
}

/// The Markdown this test reads: every top-level `*.md` and `docs/*.md`.
fn documents() -> BTreeMap<String, Document> {
    let root = workspace_root();
    let mut paths = Vec::new();
    for folder in ["", "docs"] {
        for entry in std::fs::read_dir(root.join(folder)).into_iter().flatten().flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.ends_with(".md") {
                paths.push(if folder.is_empty() {
                    name
                } else {
                    format!("{folder}/{name}")
                });
            }
        }
    }
    paths
        .into_iter()
        .map(|path| (path.clone(), parse(&read(&path))))
        .collect()
}

/// `docs/../README.md` → `README.md`; `None` when it leaves the workspace.
fn normalize(path: &str) -> Option<String> {
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            _ => parts.push(part),
        }
    }
    Some(parts.join("/"))
}

#[test]
fn relative_links_and_anchors_in_the_markdown_resolve() {
    let documents = documents();
    assert!(documents.contains_key("README.md") && documents.keys().any(|path| path.starts_with("docs/")));
    let root = workspace_root();
    let mut offenders = Vec::new();
    for (path, document) in &documents {
        let folder = path.rsplit_once('/').map(|(folder, _)| folder).unwrap_or("");
        for link in &document.links {
            // A scheme (`https:`, `mailto:`) is outside this workspace.
            if link.split(['/', '#']).next().is_some_and(|first| first.contains(':')) {
                continue;
            }
            let (target, anchor) = link.split_once('#').unwrap_or((link, ""));
            let target = if target.is_empty() {
                Some(path.clone())
            } else {
                normalize(&format!("{folder}/{target}"))
            };
            let Some(target) = target.filter(|target| root.join(target).exists()) else {
                offenders.push(format!("{path}: `{link}` leads to no file"));
                continue;
            };
            if anchor.is_empty() {
                continue;
            }
            match documents.get(&target) {
                Some(linked) if linked.anchors.iter().any(|a| a == anchor) => {}
                Some(_) => offenders.push(format!("{path}: `{link}`: {target} has no heading `#{anchor}`")),
                None => offenders.push(format!(
                    "{path}: `{link}`: an anchor into a file this test does not read"
                )),
            }
        }
    }
    assert_none("these links lead nowhere", offenders);
}

#[test]
fn anchors_are_made_as_github_makes_them() {
    assert_eq!(github_anchor("The API designer's loop"), "the-api-designers-loop");
    assert_eq!(
        github_anchor("Known gaps: where dropshot cannot"),
        "known-gaps-where-dropshot-cannot"
    );
    assert_eq!(
        github_anchor("`cargo xtask new` and v1 → v2"),
        "cargo-xtask-new-and-v1--v2"
    );
    let document = parse("# A\n\n## A\n\n```md\n[not a link](nowhere.md)\n```\n\n[a](#a-1)\n");
    assert_eq!(document.anchors, ["a", "a-1"]);
    assert_eq!(document.links, ["#a-1"]);
}
