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

use super::dependencies;
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

/// The files and records (lines the caller wrote: left-out operations,
/// notes) of the last run, when `key` is its key and the committed files
/// are still what it generated, each with the packages its code uses.
/// The committed text is compared with a copy kept beside the entry: a
/// comparison of bytes, where a hash of the 50 MB in xtask's unoptimized
/// build took a third of a warm `generate`, and reading the packages
/// again two thirds.
pub fn load(dir: &Path, root: &Path, name: &str, key: &str) -> Option<(Vec<GeneratedFile>, Vec<String>)> {
    let entry = std::fs::read_to_string(dir.join(name)).ok()?;
    let mut lines = entry.lines();
    if lines.next()? != key {
        return None;
    }
    let copy = std::fs::read(dir.join(format!("{name}.copy"))).ok()?;
    let (mut files, mut records, mut at) = (Vec::new(), Vec::new(), 0);
    for line in lines {
        let (kind, rest) = line.split_once('\t')?;
        let fields: Vec<&str> = rest.splitn(3, '\t').collect();
        match (kind, &fields[..]) {
            ("file", [path, length, uses]) => {
                let end = at + length.parse::<usize>().ok()?;
                let path = *path;
                let contents = std::fs::read_to_string(root.join(path)).ok()?;
                if contents.as_bytes() != copy.get(at..end)? {
                    return None;
                }
                at = end;
                let uses = uses
                    .split(',')
                    .filter(|package| !package.is_empty())
                    .map(dependencies::package_named)
                    .collect::<Option<_>>()?;
                files.push(GeneratedFile {
                    path: PathBuf::from(path),
                    contents,
                    uses: Some(uses),
                });
            }
            ("record", _) => records.push(rest.to_string()),
            _ => return None,
        }
    }
    (at == copy.len()).then_some((files, records))
}

/// Remembers what `key` generated, the packages each file uses, and the
/// caller's records (one line each). A cache that cannot be written only
/// costs time.
pub fn store(dir: &Path, name: &str, key: &str, files: &[GeneratedFile], records: &[String]) {
    let mut entry = format!("{key}\n");
    let mut copy = Vec::new();
    for file in files {
        let uses = match &file.uses {
            Some(uses) => uses.join(","),
            None => Vec::from_iter(dependencies::used_packages(&file.contents)).join(","),
        };
        entry.push_str(&format!(
            "file\t{}\t{}\t{uses}\n",
            file.path.display(),
            file.contents.len()
        ));
        copy.extend_from_slice(file.contents.as_bytes());
    }
    for record in records {
        entry.push_str(&format!("record\t{}\n", record.replace('\n', " ")));
    }
    if std::fs::create_dir_all(dir).is_ok() && std::fs::write(dir.join(format!("{name}.copy")), copy).is_ok() {
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
            contents: "// @generated\nfn a() -> uuid::Uuid { uuid::Uuid::nil() }\n".into(),
            uses: None,
        }];
        std::fs::create_dir_all(root.join("specs/a")).unwrap();
        std::fs::write(root.join("specs/a/api.rs"), &files[0].contents).unwrap();
        let left = vec!["GET /x (x)\tnot yet".to_string()];
        let key = key("a.yaml", "openapi: 3.0.3", None);
        store(&cache, "a", &key, &files, &left);

        let (loaded, loaded_left) = load(&cache, &root, "a", &key).expect("a hit");
        assert_eq!(loaded[0].contents, files[0].contents);
        // The packages it uses come with it, not read again.
        assert_eq!(loaded[0].uses, Some(vec!["uuid"]));
        assert_eq!(loaded_left, left);
        // Another input, another key: a miss.
        assert_ne!(super::key("a.yaml", "openapi: 3.0.2", None), key);
        assert!(load(&cache, &root, "a", "another key").is_none());
        // A committed file edited by hand: a miss, so it is generated again.
        std::fs::write(root.join("specs/a/api.rs"), "fn edited() {}\n").unwrap();
        assert!(load(&cache, &root, "a", &key).is_none());
        // Edited to another text of the same length: a miss too.
        let same_length = files[0].contents.replace("nil", "max");
        std::fs::write(root.join("specs/a/api.rs"), same_length).unwrap();
        assert!(load(&cache, &root, "a", &key).is_none());
        // Gone: a miss.
        std::fs::remove_file(root.join("specs/a/api.rs")).unwrap();
        assert!(load(&cache, &root, "a", &key).is_none());
        let _ = std::fs::remove_dir_all(&root);
    }
}
