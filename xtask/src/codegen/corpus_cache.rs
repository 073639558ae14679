//! The corpus, generated once per generator: a designer's warm `cargo
//! xtask generate` must stay quick (under half a second for our specs),
//! and the corpus's 29 documents, which a spec edit does not touch, would
//! take most of it. A document whose text, leave-out list and generator
//! (the xtask executable) are the ones of the last run, and whose
//! committed files are byte for byte what that run generated, is taken
//! from those files. Anything else is generated again. `cargo xtask
//! check` and the tests never use it.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};

use super::document::leave_out::LeftOut;
use super::files::GeneratedFile;

/// Where the cache lives: under cargo's target directory.
pub fn cache_dir(root: &Path) -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("target"));
    target.join("xtask-cache").join("corpus")
}

/// What identifies one document's generation: its inputs and the
/// generator that read them.
pub fn key(file: &str, text: &str, list: Option<&str>) -> String {
    let mut hasher = DefaultHasher::new();
    generator_identity().hash(&mut hasher);
    (file, text, list).hash(&mut hasher);
    format!("{:016x}", hasher.finish())
}

/// The running executable's size and modification time: a rebuilt
/// generator is another generator.
fn generator_identity() -> String {
    std::env::current_exe()
        .and_then(std::fs::metadata)
        .map(|m| format!("{} {:?}", m.len(), m.modified().ok()))
        .unwrap_or_default()
}

fn files_hash(files: &[(PathBuf, String)]) -> String {
    let mut hasher = DefaultHasher::new();
    files.hash(&mut hasher);
    format!("{:016x}", hasher.finish())
}

/// The files and left-out operations of the last run, when `key` is
/// its key and the committed files are still what it generated.
pub fn load(dir: &Path, root: &Path, module: &str, key: &str) -> Option<(Vec<GeneratedFile>, Vec<LeftOut>)> {
    let entry = std::fs::read_to_string(dir.join(module)).ok()?;
    let mut lines = entry.lines();
    if lines.next()? != key {
        return None;
    }
    let output = lines.next()?.to_string();
    let mut paths = Vec::new();
    let mut left_out = Vec::new();
    for line in lines {
        match line.split_once('\t') {
            Some(("file", path)) => paths.push(PathBuf::from(path)),
            Some(("left", rest)) => {
                let (operation, reason) = rest.split_once('\t')?;
                left_out.push(LeftOut {
                    operation: operation.to_string(),
                    reason: reason.to_string(),
                });
            }
            _ => return None,
        }
    }
    let files: Vec<(PathBuf, String)> = paths
        .into_iter()
        .map(|path| std::fs::read_to_string(root.join(&path)).ok().map(|text| (path, text)))
        .collect::<Option<_>>()?;
    (files_hash(&files) == output).then(|| {
        let files = files
            .into_iter()
            .map(|(path, contents)| GeneratedFile { path, contents })
            .collect();
        (files, left_out)
    })
}

/// Remembers what `key` generated. A cache that cannot be written only
/// costs time.
pub fn store(dir: &Path, module: &str, key: &str, files: &[GeneratedFile], left_out: &[LeftOut]) {
    let pairs: Vec<(PathBuf, String)> = files.iter().map(|f| (f.path.clone(), f.contents.clone())).collect();
    let mut entry = format!("{key}\n{}\n", files_hash(&pairs));
    for file in files {
        entry.push_str(&format!("file\t{}\n", file.path.display()));
    }
    for left in left_out {
        entry.push_str(&format!(
            "left\t{}\t{}\n",
            left.operation,
            left.reason.replace(['\n', '\t'], " ")
        ));
    }
    if std::fs::create_dir_all(dir).is_ok() {
        let _ = std::fs::write(dir.join(module), entry);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("xtask-corpus-cache-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn a_known_generation_is_reused_only_while_its_files_are_untouched() {
        let root = temp_dir("root");
        let cache = root.join("cache");
        let files = vec![GeneratedFile {
            path: PathBuf::from("specs/a/api.rs"),
            contents: "// @generated\nfn a() {}\n".into(),
        }];
        std::fs::create_dir_all(root.join("specs/a")).unwrap();
        std::fs::write(root.join("specs/a/api.rs"), &files[0].contents).unwrap();
        let left = vec![LeftOut {
            operation: "GET /x (x)".into(),
            reason: "not yet".into(),
        }];
        let key = key("a.yaml", "openapi: 3.0.3", None);
        store(&cache, "a", &key, &files, &left);

        let (loaded, loaded_left) = load(&cache, &root, "a", &key).expect("a hit");
        assert_eq!(loaded[0].contents, files[0].contents);
        assert_eq!(loaded_left, left);
        // Another input, another key: a miss.
        assert_ne!(super::key("a.yaml", "openapi: 3.0.2", None), key);
        assert!(load(&cache, &root, "a", "another key").is_none());
        // A committed file edited by hand: a miss, so it is generated again.
        std::fs::write(root.join("specs/a/api.rs"), "fn edited() {}\n").unwrap();
        assert!(load(&cache, &root, "a", &key).is_none());
        // Gone: a miss.
        std::fs::remove_file(root.join("specs/a/api.rs")).unwrap();
        assert!(load(&cache, &root, "a", &key).is_none());
        let _ = std::fs::remove_dir_all(&root);
    }
}
