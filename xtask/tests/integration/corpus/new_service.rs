//! `cargo xtask new` on the Swagger Petstore, into a workspace of its
//! own: the spec is copied in, the crate is written with a handler per
//! operation answering `NotImplemented`, the workspace lists it, and the
//! generator finds it as a target from then on. (Two crates made so are
//! built and served by CI: `crates/holidays`, `crates/petstore-v3-stub`.)

use std::path::Path;

use xtask::codegen::designer_targets::designer_targets;
use xtask::designer::new_service::create;

#[test]
fn new_makes_a_served_target_of_a_document_from_outside() {
    let workspace = std::env::temp_dir().join(format!("xtask-new-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&workspace);
    std::fs::create_dir_all(&workspace).unwrap();
    std::fs::write(
        workspace.join("Cargo.toml"),
        "[workspace]\nmembers = []\ndefault-members = [\"xtask\"]\n",
    )
    .unwrap();
    let spec = Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/fixtures/corpus/swagger-petstore-v3__openapi.yaml"
    ));
    let created = create(&workspace, "petstore", spec).unwrap();
    assert_eq!(created.spec, "openapi/petstore/swagger-petstore-v3__openapi.yaml");
    assert!(
        workspace.join(&created.spec).exists(),
        "the spec is copied into the workspace"
    );
    assert_eq!(created.generated.operations, 19);
    assert!(created.generated.refused.is_empty());

    let read = |path: &str| std::fs::read_to_string(workspace.join(path)).unwrap();
    let service = read("crates/petstore/src/service.rs");
    assert!(service.contains("impl SwaggerPetstoreOpenApi30Handlers for Service"));
    assert_eq!(service.matches("::NotImplemented").count(), 19, "{service}");
    assert!(
        service
            .contains("async fn update_pet(&self, _caller: &Self::Principal, _body: types::Pet) -> UpdatePetResponse")
    );
    assert!(read("crates/petstore/src/api/generated.rs").starts_with("// @generated"));
    assert!(read("crates/petstore/src/client/generated.rs").starts_with("// @generated"));
    assert!(
        read("crates/petstore/Cargo.toml").contains("spec = \"openapi/petstore/swagger-petstore-v3__openapi.yaml\"")
    );
    assert_eq!(
        read("Cargo.toml"),
        "[workspace]\nmembers = [\"crates/petstore\"]\ndefault-members = [\"xtask\", \"crates/petstore\"]\n"
    );
    let targets = designer_targets(&workspace).unwrap();
    assert_eq!(targets.len(), 1);
    assert_eq!(targets[0].server, "crates/petstore/src/api/generated.rs");

    let again = create(&workspace, "petstore", spec).err().unwrap();
    assert!(again.contains("exists already"), "{again}");
    assert!(create(&workspace, "Bad_Name", spec).is_err());
    std::fs::remove_dir_all(&workspace).unwrap();
}
