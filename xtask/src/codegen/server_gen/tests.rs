//! Unit tests of the server contract's layout.

use super::major_version;
use super::type_prefix;

#[test]
fn any_title_gives_trait_names_rust_takes() {
    assert_eq!(
        type_prefix("Swagger Petstore - OpenAPI 3.0"),
        "SwaggerPetstoreOpenApi30"
    );
    assert_eq!(type_prefix("1Forge Finance APIs"), "Api1forgeFinanceApIs");
    assert_eq!(type_prefix("Zoo — für Tiere"), "ZooFrTiere");
    assert_eq!(type_prefix(""), "");
}

#[test]
fn the_major_is_the_leading_number_of_what_the_designer_wrote() {
    assert_eq!(major_version("1.0.0"), 1);
    assert_eq!(major_version("2.3.4-beta+7"), 2);
    assert_eq!(major_version("v1"), 1);
    assert_eq!(major_version("V12.1"), 12);
    assert_eq!(major_version("2024-01-01"), 2024);
    assert_eq!(major_version("latest"), 0);
    assert_eq!(major_version(""), 0);
}
