//! A designer leaves operations out by listing them, each with a reason:
//! the server and the client lose exactly those, the generated files'
//! header names them, and a list that names nothing of the spec is an
//! error with its location.

use xtask::codegen::{TARGETS, generate_leaving_out};

fn real_spec() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../openapi/petstore.yaml")).unwrap()
}

const LIST: &str = "openapi/petstore.leave-out.yaml";

#[test]
fn a_listed_operation_is_left_out_of_server_and_client_and_the_header_says_why() {
    let list = "- operation: GET /pets/{petId}\n  reason: the pets move to their own service\n";
    let (files, left_out) = generate_leaving_out(&TARGETS[0], &real_spec(), Some((LIST, list))).unwrap();
    assert_eq!(left_out.len(), 1);
    assert_eq!(
        left_out[0].to_string(),
        "GET /pets/{petId} (getPetById): the pets move to their own service"
    );
    for file in &files {
        assert!(
            file.contents
                .contains("// Left out, as openapi/petstore.leave-out.yaml lists:")
        );
        assert!(
            file.contents
                .contains("// - GET /pets/{petId} (getPetById): the pets move")
        );
        assert!(!file.contents.contains("fn get_pet_by_id"), "{}", file.path.display());
        // The other operations stay.
        assert!(file.contents.contains("fn list_orders"), "{}", file.path.display());
    }
}

#[test]
fn a_list_that_names_nothing_of_the_spec_is_an_error() {
    let list = "- operation: deleteEverything\n  reason: no\n";
    let Err(errors) = generate_leaving_out(&TARGETS[0], &real_spec(), Some((LIST, list))) else {
        panic!("the list was accepted");
    };
    assert!(errors.0[0].location.starts_with(LIST), "{errors}");
    assert!(errors.0[0].message.contains("names no operation"), "{errors}");
}
