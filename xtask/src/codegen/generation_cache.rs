//! Generations remembered: a designer's warm `cargo xtask generate` must
//! stay under half a second, and the documents a spec edit does not touch
//! (the other targets, the designers' crates, the corpus's documents)
//! would take nearly all of it. A document whose text, leave-out list,
//! target (where its files go and how its client looks) and generator
//! (the xtask executable) are the ones of the last run, and whose
//! committed files are byte for byte what that run generated, is taken
//! from those files. Anything else is generated again. `cargo xtask
//! check` and the tests never use it.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};

use super::files::GeneratedFile;

/// Where the cache lives: under cargo's target directory, a folder for
/// the corpus's documents and one for the targets.
pub fn cache_dir(root: &Path) -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("target"));
    target.join("xtask-cache")
}

/// What identifies one document's generation: where and how it is
/// generated (`identity`), its inputs, and the generator that read them.
pub fn key(identity: &str, text: &str, list: Option<&str>) -> String {
    let mut hasher = DefaultHasher::new();
    generator_identity().hash(&mut hasher);
    (identity, text, list).hash(&mut hasher);
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

/// The files and records (lines the caller wrote: left-out operations,
/// notes) of the last run, when `key` is its key and the committed files
/// are still what it generated.
pub fn load(dir: &Path, root: &Path, name: &str, key: &str) -> Option<(Vec<GeneratedFile>, Vec<String>)> {
    let entry = std::fs::read_to_string(dir.join(name)).ok()?;
    let mut lines = entry.lines();
    if lines.next()? != key {
        return None;
    }
    let output = lines.next()?.to_string();
    let mut paths = Vec::new();
    let mut records = Vec::new();
    for line in lines {
        match line.split_once('\t') {
            Some(("file", path)) => paths.push(PathBuf::from(path)),
            Some(("record", record)) => records.push(record.to_string()),
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
        (files, records)
    })
}

/// Remembers what `key` generated, and the caller's records (one line
/// each). A cache that cannot be written only costs time.
pub fn store(dir: &Path, name: &str, key: &str, files: &[GeneratedFile], records: &[String]) {
    let pairs: Vec<(PathBuf, String)> = files.iter().map(|f| (f.path.clone(), f.contents.clone())).collect();
    let mut entry = format!("{key}\n{}\n", files_hash(&pairs));
    for file in files {
        entry.push_str(&format!("file\t{}\n", file.path.display()));
    }
    for record in records {
        entry.push_str(&format!("record\t{}\n", record.replace('\n', " ")));
    }
    if std::fs::create_dir_all(dir).is_ok() {
        let _ = std::fs::write(dir.join(name), entry);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("xtask-generation-cache-{name}-{}", std::process::id()));
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
        let left = vec!["GET /x (x)\tnot yet".to_string()];
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
