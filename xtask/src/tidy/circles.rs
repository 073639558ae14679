//! No import circles between the files of a crate: when two files use each
//! other, neither can be read, changed or tested first. A file's edges are
//! its paths to other modules of its crate (`use crate::…`, `use super::…`,
//! `use self::…`, a child it declares, or such a path in code, a bare
//! `child::item` included), each
//! resolved to the file of the longest module it names. The crate root is
//! left out: its `pub use`s are the crate's facade, not a dependency.
//! Declaring a child (`mod x;`) is not using it; a file's inline unit tests
//! are left out too.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use super::paths::{code_of, paths_in};
use super::{assert_none, says_generated, walk, workspace_root};

/// The circles still there, each with why it is not undone yet; the test
/// fails when one is gone, so that this list only shrinks. None today.
const KNOWN_CIRCLES: &[(&str, &str)] = &[];

type Module = Vec<String>;

/// A source file's module path in its crate (`a/b.rs` and `a/b/mod.rs` are
/// `a::b`; `lib.rs` and `main.rs` the root); `None` for `src/bin/`.
fn module_of(source_root: &Path, file: &Path) -> Option<Module> {
    let relative = file.strip_prefix(source_root).ok()?.with_extension("");
    let mut parts: Module = relative.iter().map(|p| p.to_string_lossy().into_owned()).collect();
    if parts.first().is_some_and(|p| p == "bin") {
        return None;
    }
    if parts.last().is_some_and(|p| p == "mod" || p == "lib" || p == "main") {
        parts.pop();
    }
    Some(parts)
}

/// `path` as seen from `here` (a file's module, declaring `children`), made
/// absolute in its crate; `None` for another crate's path.
fn absolute(here: &Module, children: &BTreeSet<String>, path: &[String]) -> Option<Module> {
    let (first, rest) = path.split_first()?;
    match first.as_str() {
        "crate" => Some(rest.to_vec()),
        "self" => Some([here.as_slice(), rest].concat()),
        "super" => {
            let mut base = here.clone();
            let mut rest = path;
            while let Some(("super", tail)) = rest.split_first().map(|(s, t)| (s.as_str(), t)) {
                base.pop();
                rest = tail;
            }
            Some([base.as_slice(), rest].concat())
        }
        child if children.contains(child) => Some([here.as_slice(), path].concat()),
        _ => None,
    }
}

/// The circles among one crate's files, each as its modules' names.
fn circles_in(source_root: &Path) -> Vec<BTreeSet<String>> {
    let mut files = Vec::new();
    walk(source_root, &mut files);
    let mut modules: BTreeMap<Module, String> = BTreeMap::new();
    for file in files.iter().filter(|f| f.extension().is_some_and(|e| e == "rs")) {
        let text = std::fs::read_to_string(file).unwrap_or_default();
        if says_generated(&text) {
            continue;
        }
        if let Some(module) = module_of(source_root, file) {
            modules.insert(module, code_of(&text));
        }
    }
    let resolve = |path: &Module| {
        (0..=path.len())
            .rev()
            .map(|n| path[..n].to_vec())
            .find(|m| modules.contains_key(m))
    };
    let mut edges: BTreeMap<Module, BTreeSet<Module>> = BTreeMap::new();
    for (module, code) in &modules {
        let children: BTreeSet<String> = code
            .lines()
            .filter_map(|line| {
                let line = line.trim();
                let declared = line.strip_suffix(';')?.rsplit_once("mod ")?.1;
                (!declared.contains(' ')).then(|| declared.to_string())
            })
            .collect();
        for path in paths_in(code, &children) {
            let Some(target) = absolute(module, &children, &path).and_then(|a| resolve(&a)) else {
                continue;
            };
            if &target != module && !target.is_empty() {
                edges.entry(module.clone()).or_default().insert(target);
            }
        }
    }
    strongly_connected(&modules.keys().cloned().collect::<Vec<_>>(), &edges)
        .into_iter()
        .filter(|component| component.len() > 1)
        .map(|component| component.iter().map(|m| m.join("::")).collect())
        .collect()
}

/// Tarjan's strongly connected components.
fn strongly_connected(nodes: &[Module], edges: &BTreeMap<Module, BTreeSet<Module>>) -> Vec<Vec<Module>> {
    struct State<'a> {
        edges: &'a BTreeMap<Module, BTreeSet<Module>>,
        index: BTreeMap<Module, usize>,
        low: BTreeMap<Module, usize>,
        stack: Vec<Module>,
        on_stack: BTreeSet<Module>,
        components: Vec<Vec<Module>>,
    }
    fn visit(state: &mut State<'_>, node: &Module) {
        let n = state.index.len();
        state.index.insert(node.clone(), n);
        state.low.insert(node.clone(), n);
        state.stack.push(node.clone());
        state.on_stack.insert(node.clone());
        for next in state.edges.get(node).into_iter().flatten() {
            if !state.index.contains_key(next) {
                visit(state, next);
                let low = state.low[node].min(state.low[next]);
                state.low.insert(node.clone(), low);
            } else if state.on_stack.contains(next) {
                let low = state.low[node].min(state.index[next]);
                state.low.insert(node.clone(), low);
            }
        }
        if state.low[node] == state.index[node] {
            let mut component = Vec::new();
            while let Some(member) = state.stack.pop() {
                state.on_stack.remove(&member);
                let done = &member == node;
                component.push(member);
                if done {
                    break;
                }
            }
            state.components.push(component);
        }
    }
    let mut state = State {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        components: Vec::new(),
    };
    for node in nodes {
        if !state.index.contains_key(node) {
            visit(&mut state, node);
        }
    }
    state.components
}

/// Every circle of every hand-written crate, as `KNOWN_CIRCLES` names them.
fn circles() -> Vec<String> {
    let root = workspace_root();
    let mut source_roots = vec!["xtask/src".to_string(), "tests/src".to_string()];
    for entry in std::fs::read_dir(root.join("crates")).unwrap().flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if !name.starts_with("corpus") {
            source_roots.push(format!("crates/{name}/src"));
        }
    }
    source_roots.sort();
    let mut found = Vec::new();
    for source_root in source_roots {
        for circle in circles_in(&root.join(&source_root)) {
            found.push(format!("{source_root}: {}", brace(&circle)));
        }
    }
    found
}

/// `a::b::c`, `a::b::d` → `a::b::{c, d}`.
fn brace(modules: &BTreeSet<String>) -> String {
    let split: Vec<Vec<&str>> = modules.iter().map(|m| m.split("::").collect()).collect();
    let common = (0..split.iter().map(Vec::len).min().unwrap_or(0))
        .take_while(|&i| split.iter().all(|s| s[i] == split[0][i]))
        .count()
        .min(split.iter().map(Vec::len).min().unwrap_or(1).saturating_sub(1));
    let tails: Vec<String> = split.iter().map(|s| s[common..].join("::")).collect();
    format!("{}::{{{}}}", split[0][..common].join("::"), tails.join(", "))
}

#[test]
fn no_file_imports_one_that_imports_it() {
    let found = circles();
    let known: Vec<&str> = KNOWN_CIRCLES.iter().map(|(circle, _)| *circle).collect();
    let new = found.iter().filter(|c| !known.contains(&c.as_str())).cloned().collect();
    assert_none(
        "these files import each other (move what both need into a file of its own)",
        new,
    );
    let gone = known
        .iter()
        .filter(|k| !found.iter().any(|f| f == *k))
        .map(|k| k.to_string())
        .collect();
    assert_none("these known circles are gone: take them off KNOWN_CIRCLES", gone);
}

/// The circles `circles_in` finds in a planted crate of `files`.
fn planted(name: &str, files: &[(&str, &str)]) -> Vec<BTreeSet<String>> {
    let dir = std::env::temp_dir().join(format!("tidy-circles-{name}-{}", std::process::id()));
    for (path, text) in files {
        let path = dir.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    let found = circles_in(&dir);
    std::fs::remove_dir_all(&dir).unwrap();
    found
}

/// A parent and its child that use each other, each way written as
/// `parent` and `child` say; `None` where the two do not form a circle.
fn parent_and_child(name: &str, parent: &str, child: &str) -> Vec<BTreeSet<String>> {
    let parent = format!("mod child;\npub struct Kept;\n{parent}\n");
    planted(
        name,
        &[
            ("lib.rs", "mod parent;\nmod leaf;\n"),
            ("leaf.rs", "pub struct Leaf;\n"),
            ("parent/mod.rs", &parent),
            ("parent/child.rs", &format!("pub fn run() {{}}\n{child}\n")),
        ],
    )
}

#[test]
fn a_circle_is_found_through_each_form_of_path() {
    let circle: BTreeSet<String> = ["parent".to_string(), "parent::child".to_string()].into();
    let forms = [
        ("use-child", "use child::run;", "use super::Kept;"),
        ("bare-child", "fn f() { child::run() }", "use super::Kept;"),
        ("self-child", "fn f() { self::child::run() }", "use super::Kept;"),
        (
            "super-in-code",
            "use child::run;",
            "fn f() -> super::Kept { super::Kept }",
        ),
        (
            "crate-in-code",
            "use child::run;",
            "fn f() -> crate::parent::Kept { todo!() }",
        ),
        ("use-crate", "use self::child::run;", "use crate::parent::Kept;"),
        ("use-braced", "use child::{run};", "use super::{Kept as K};"),
    ];
    for (name, parent, child) in forms {
        assert_eq!(parent_and_child(name, parent, child), vec![circle.clone()], "{name}");
    }
}

#[test]
fn what_is_not_a_path_to_a_module_makes_no_circle() {
    let none: Vec<BTreeSet<String>> = Vec::new();
    let forms = [
        // Only the child uses the parent.
        ("one-way", "", "use super::Kept;"),
        // A local `child` variable's method, a comment, another crate's path.
        (
            "not-paths",
            "fn f(child: u8) -> u8 { child.max(1) } // child::run()",
            "use std::fmt;",
        ),
        // A token template's paths are the generated crate's.
        ("template", "use child::run;", "fn f() { quote! { use super::Kept; } }"),
        // A sibling reached through `super::{…}` is not the parent.
        ("sibling", "use child::run;", "use super::{super::leaf::Leaf};"),
    ];
    for (name, parent, child) in forms {
        assert_eq!(parent_and_child(name, parent, child), none, "{name}");
    }
}
