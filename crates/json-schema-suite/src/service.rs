//! The service's handlers, written once by `cargo xtask new` and yours
//! to edit: each answers 501 (`NotImplemented`) until it is written.
//! After a spec change, `cargo xtask generate`; the compiler then
//! names every handler the change broke.

use crate::api::*;
use crate::runtime::serving::{Served, Serving};
use crate::runtime::{AuthError, Authenticator, Credential};
/// The service. Hold its state here (a database pool, ...).
#[derive(Default)]
pub struct Service {
    /// Its requests in flight, its drain and readiness, and the
    /// origins it allows (`runtime::serving`).
    serving: Serving,
}
/// Accepts any credential an operation's schemes carry (a request
/// without one still gets 401): replace it with a real check.
impl Authenticator for Service {
    type Principal = ();
    async fn authenticate(&self, _credential: Credential<'_>) -> Result<(), AuthError> {
        Ok(())
    }
}

impl Served for Service {
    fn serving(&self) -> Option<&Serving> {
        Some(&self.serving)
    }
}
impl JsonSchemaTestSuiteHandlers for Service {
    async fn additional_properties_0(&self, _body: types::AdditionalProperties0) -> AdditionalProperties0Response {
        AdditionalProperties0Response::NotImplemented
    }
    async fn additional_properties_1(&self, _body: types::AdditionalProperties1) -> AdditionalProperties1Response {
        AdditionalProperties1Response::NotImplemented
    }
    async fn additional_properties_2(&self, _body: types::AdditionalProperties2) -> AdditionalProperties2Response {
        AdditionalProperties2Response::NotImplemented
    }
    async fn additional_properties_3(&self, _body: types::AdditionalProperties3) -> AdditionalProperties3Response {
        AdditionalProperties3Response::NotImplemented
    }
    async fn additional_properties_4(&self, _body: types::AdditionalProperties4) -> AdditionalProperties4Response {
        AdditionalProperties4Response::NotImplemented
    }
    async fn additional_properties_5(&self, _body: types::AdditionalProperties5) -> AdditionalProperties5Response {
        AdditionalProperties5Response::NotImplemented
    }
    async fn additional_properties_6(&self, _body: types::AdditionalProperties6) -> AdditionalProperties6Response {
        AdditionalProperties6Response::NotImplemented
    }
    async fn additional_properties_7(&self, _body: types::AdditionalProperties7) -> AdditionalProperties7Response {
        AdditionalProperties7Response::NotImplemented
    }
    async fn additional_properties_8(&self, _body: types::AdditionalProperties8) -> AdditionalProperties8Response {
        AdditionalProperties8Response::NotImplemented
    }
    async fn all_of_0(&self, _body: types::AllOf0) -> AllOf0Response {
        AllOf0Response::NotImplemented
    }
    async fn all_of_1(&self, _body: types::AllOf1) -> AllOf1Response {
        AllOf1Response::NotImplemented
    }
    async fn all_of_10(&self, _body: types::AllOf10) -> AllOf10Response {
        AllOf10Response::NotImplemented
    }
    async fn all_of_11(&self, _body: types::AllOf11) -> AllOf11Response {
        AllOf11Response::NotImplemented
    }
    async fn all_of_2(&self, _body: types::AllOf2) -> AllOf2Response {
        AllOf2Response::NotImplemented
    }
    async fn all_of_3(&self, _body: types::AllOf3) -> AllOf3Response {
        AllOf3Response::NotImplemented
    }
    async fn all_of_4(&self, _body: types::AllOf4) -> AllOf4Response {
        AllOf4Response::NotImplemented
    }
    async fn all_of_5(&self, _body: types::AllOf5) -> AllOf5Response {
        AllOf5Response::NotImplemented
    }
    async fn all_of_6(&self, _body: types::AllOf6) -> AllOf6Response {
        AllOf6Response::NotImplemented
    }
    async fn all_of_7(&self, _body: types::AllOf7) -> AllOf7Response {
        AllOf7Response::NotImplemented
    }
    async fn all_of_8(&self, _body: types::AllOf8) -> AllOf8Response {
        AllOf8Response::NotImplemented
    }
    async fn all_of_9(&self, _body: types::AllOf9) -> AllOf9Response {
        AllOf9Response::NotImplemented
    }
    async fn any_of_0(&self, _body: types::AnyOf0) -> AnyOf0Response {
        AnyOf0Response::NotImplemented
    }
    async fn any_of_1(&self, _body: types::AnyOf1) -> AnyOf1Response {
        AnyOf1Response::NotImplemented
    }
    async fn any_of_2(&self, _body: types::AnyOf2) -> AnyOf2Response {
        AnyOf2Response::NotImplemented
    }
    async fn any_of_3(&self, _body: types::AnyOf3) -> AnyOf3Response {
        AnyOf3Response::NotImplemented
    }
    async fn any_of_4(&self, _body: types::AnyOf4) -> AnyOf4Response {
        AnyOf4Response::NotImplemented
    }
    async fn any_of_5(&self, _body: types::AnyOf5) -> AnyOf5Response {
        AnyOf5Response::NotImplemented
    }
    async fn any_of_6(&self, _body: types::AnyOf6) -> AnyOf6Response {
        AnyOf6Response::NotImplemented
    }
    async fn any_of_7(&self, _body: types::AnyOf7) -> AnyOf7Response {
        AnyOf7Response::NotImplemented
    }
    async fn boolean_schema_0(&self, _body: types::BooleanSchema0) -> BooleanSchema0Response {
        BooleanSchema0Response::NotImplemented
    }
    async fn boolean_schema_1(&self, _body: types::BooleanSchema1) -> BooleanSchema1Response {
        BooleanSchema1Response::NotImplemented
    }
    async fn const_0(&self, _body: types::Const0) -> Const0Response {
        Const0Response::NotImplemented
    }
    async fn const_1(&self, _body: types::Const1) -> Const1Response {
        Const1Response::NotImplemented
    }
    async fn const_10(&self, _body: types::Const10) -> Const10Response {
        Const10Response::NotImplemented
    }
    async fn const_11(&self, _body: types::Const11) -> Const11Response {
        Const11Response::NotImplemented
    }
    async fn const_12(&self, _body: types::Const12) -> Const12Response {
        Const12Response::NotImplemented
    }
    async fn const_13(&self, _body: types::Const13) -> Const13Response {
        Const13Response::NotImplemented
    }
    async fn const_14(&self, _body: types::Const14) -> Const14Response {
        Const14Response::NotImplemented
    }
    async fn const_15(&self, _body: types::Const15) -> Const15Response {
        Const15Response::NotImplemented
    }
    async fn const_16(&self, _body: types::Const16) -> Const16Response {
        Const16Response::NotImplemented
    }
    async fn const_2(&self, _body: types::Const2) -> Const2Response {
        Const2Response::NotImplemented
    }
    async fn const_3(&self, _body: types::Const3) -> Const3Response {
        Const3Response::NotImplemented
    }
    async fn const_4(&self, _body: types::Const4) -> Const4Response {
        Const4Response::NotImplemented
    }
    async fn const_5(&self, _body: types::Const5) -> Const5Response {
        Const5Response::NotImplemented
    }
    async fn const_6(&self, _body: types::Const6) -> Const6Response {
        Const6Response::NotImplemented
    }
    async fn const_7(&self, _body: types::Const7) -> Const7Response {
        Const7Response::NotImplemented
    }
    async fn const_8(&self, _body: types::Const8) -> Const8Response {
        Const8Response::NotImplemented
    }
    async fn const_9(&self, _body: types::Const9) -> Const9Response {
        Const9Response::NotImplemented
    }
    async fn contains_0(&self, _body: types::Contains0) -> Contains0Response {
        Contains0Response::NotImplemented
    }
    async fn contains_1(&self, _body: types::Contains1) -> Contains1Response {
        Contains1Response::NotImplemented
    }
    async fn contains_2(&self, _body: types::Contains2) -> Contains2Response {
        Contains2Response::NotImplemented
    }
    async fn contains_3(&self, _body: types::Contains3) -> Contains3Response {
        Contains3Response::NotImplemented
    }
    async fn contains_4(&self, _body: types::Contains4) -> Contains4Response {
        Contains4Response::NotImplemented
    }
    async fn contains_5(&self, _body: types::Contains5) -> Contains5Response {
        Contains5Response::NotImplemented
    }
    async fn contains_6(&self, _body: types::Contains6) -> Contains6Response {
        Contains6Response::NotImplemented
    }
    async fn content_0(&self, _body: types::Content0) -> Content0Response {
        Content0Response::NotImplemented
    }
    async fn content_1(&self, _body: types::Content1) -> Content1Response {
        Content1Response::NotImplemented
    }
    async fn content_2(&self, _body: types::Content2) -> Content2Response {
        Content2Response::NotImplemented
    }
    async fn content_3(&self, _body: types::Content3) -> Content3Response {
        Content3Response::NotImplemented
    }
    async fn default_0(&self, _body: types::Default0) -> Default0Response {
        Default0Response::NotImplemented
    }
    async fn default_1(&self, _body: types::Default1) -> Default1Response {
        Default1Response::NotImplemented
    }
    async fn default_2(&self, _body: types::Default2) -> Default2Response {
        Default2Response::NotImplemented
    }
    async fn dependent_required_0(&self, _body: types::DependentRequired0) -> DependentRequired0Response {
        DependentRequired0Response::NotImplemented
    }
    async fn dependent_required_1(&self, _body: types::DependentRequired1) -> DependentRequired1Response {
        DependentRequired1Response::NotImplemented
    }
    async fn dependent_required_2(&self, _body: types::DependentRequired2) -> DependentRequired2Response {
        DependentRequired2Response::NotImplemented
    }
    async fn dependent_required_3(&self, _body: types::DependentRequired3) -> DependentRequired3Response {
        DependentRequired3Response::NotImplemented
    }
    async fn dependent_schemas_0(&self, _body: types::DependentSchemas0) -> DependentSchemas0Response {
        DependentSchemas0Response::NotImplemented
    }
    async fn dependent_schemas_1(&self, _body: types::DependentSchemas1) -> DependentSchemas1Response {
        DependentSchemas1Response::NotImplemented
    }
    async fn dependent_schemas_2(&self, _body: types::DependentSchemas2) -> DependentSchemas2Response {
        DependentSchemas2Response::NotImplemented
    }
    async fn dependent_schemas_3(&self, _body: types::DependentSchemas3) -> DependentSchemas3Response {
        DependentSchemas3Response::NotImplemented
    }
    async fn enum_0(&self, _body: types::Enum0) -> Enum0Response {
        Enum0Response::NotImplemented
    }
    async fn enum_1(&self, _body: types::Enum1) -> Enum1Response {
        Enum1Response::NotImplemented
    }
    async fn enum_10(&self, _body: types::Enum10) -> Enum10Response {
        Enum10Response::NotImplemented
    }
    async fn enum_11(&self, _body: types::Enum11) -> Enum11Response {
        Enum11Response::NotImplemented
    }
    async fn enum_12(&self, _body: types::Enum12) -> Enum12Response {
        Enum12Response::NotImplemented
    }
    async fn enum_13(&self, _body: types::Enum13) -> Enum13Response {
        Enum13Response::NotImplemented
    }
    async fn enum_14(&self, _body: types::Enum14) -> Enum14Response {
        Enum14Response::NotImplemented
    }
    async fn enum_2(&self, _body: types::Enum2) -> Enum2Response {
        Enum2Response::NotImplemented
    }
    async fn enum_3(&self, _body: types::Enum3) -> Enum3Response {
        Enum3Response::NotImplemented
    }
    async fn enum_4(&self, _body: types::Enum4) -> Enum4Response {
        Enum4Response::NotImplemented
    }
    async fn enum_5(&self, _body: types::Enum5) -> Enum5Response {
        Enum5Response::NotImplemented
    }
    async fn enum_6(&self, _body: types::Enum6) -> Enum6Response {
        Enum6Response::NotImplemented
    }
    async fn enum_7(&self, _body: types::Enum7) -> Enum7Response {
        Enum7Response::NotImplemented
    }
    async fn enum_8(&self, _body: types::Enum8) -> Enum8Response {
        Enum8Response::NotImplemented
    }
    async fn enum_9(&self, _body: types::Enum9) -> Enum9Response {
        Enum9Response::NotImplemented
    }
    async fn exclusive_maximum_0(&self, _body: types::ExclusiveMaximum0) -> ExclusiveMaximum0Response {
        ExclusiveMaximum0Response::NotImplemented
    }
    async fn exclusive_minimum_0(&self, _body: types::ExclusiveMinimum0) -> ExclusiveMinimum0Response {
        ExclusiveMinimum0Response::NotImplemented
    }
    async fn format_0(&self, _body: types::Format0) -> Format0Response {
        Format0Response::NotImplemented
    }
    async fn format_1(&self, _body: types::Format1) -> Format1Response {
        Format1Response::NotImplemented
    }
    async fn format_10(&self, _body: types::Format10) -> Format10Response {
        Format10Response::NotImplemented
    }
    async fn format_11(&self, _body: types::Format11) -> Format11Response {
        Format11Response::NotImplemented
    }
    async fn format_12(&self, _body: types::Format12) -> Format12Response {
        Format12Response::NotImplemented
    }
    async fn format_13(&self, _body: types::Format13) -> Format13Response {
        Format13Response::NotImplemented
    }
    async fn format_14(&self, _body: types::Format14) -> Format14Response {
        Format14Response::NotImplemented
    }
    async fn format_15(&self, _body: types::Format15) -> Format15Response {
        Format15Response::NotImplemented
    }
    async fn format_16(&self, _body: types::Format16) -> Format16Response {
        Format16Response::NotImplemented
    }
    async fn format_17(&self, _body: types::Format17) -> Format17Response {
        Format17Response::NotImplemented
    }
    async fn format_18(&self, _body: types::Format18) -> Format18Response {
        Format18Response::NotImplemented
    }
    async fn format_2(&self, _body: types::Format2) -> Format2Response {
        Format2Response::NotImplemented
    }
    async fn format_3(&self, _body: types::Format3) -> Format3Response {
        Format3Response::NotImplemented
    }
    async fn format_4(&self, _body: types::Format4) -> Format4Response {
        Format4Response::NotImplemented
    }
    async fn format_5(&self, _body: types::Format5) -> Format5Response {
        Format5Response::NotImplemented
    }
    async fn format_6(&self, _body: types::Format6) -> Format6Response {
        Format6Response::NotImplemented
    }
    async fn format_7(&self, _body: types::Format7) -> Format7Response {
        Format7Response::NotImplemented
    }
    async fn format_8(&self, _body: types::Format8) -> Format8Response {
        Format8Response::NotImplemented
    }
    async fn format_9(&self, _body: types::Format9) -> Format9Response {
        Format9Response::NotImplemented
    }
    async fn if_then_else_0(&self, _body: types::IfThenElse0) -> IfThenElse0Response {
        IfThenElse0Response::NotImplemented
    }
    async fn if_then_else_1(&self, _body: types::IfThenElse1) -> IfThenElse1Response {
        IfThenElse1Response::NotImplemented
    }
    async fn if_then_else_10(&self, _body: types::IfThenElse10) -> IfThenElse10Response {
        IfThenElse10Response::NotImplemented
    }
    async fn if_then_else_11(&self, _body: types::IfThenElse11) -> IfThenElse11Response {
        IfThenElse11Response::NotImplemented
    }
    async fn if_then_else_2(&self, _body: types::IfThenElse2) -> IfThenElse2Response {
        IfThenElse2Response::NotImplemented
    }
    async fn if_then_else_3(&self, _body: types::IfThenElse3) -> IfThenElse3Response {
        IfThenElse3Response::NotImplemented
    }
    async fn if_then_else_4(&self, _body: types::IfThenElse4) -> IfThenElse4Response {
        IfThenElse4Response::NotImplemented
    }
    async fn if_then_else_5(&self, _body: types::IfThenElse5) -> IfThenElse5Response {
        IfThenElse5Response::NotImplemented
    }
    async fn if_then_else_6(&self, _body: types::IfThenElse6) -> IfThenElse6Response {
        IfThenElse6Response::NotImplemented
    }
    async fn if_then_else_7(&self, _body: types::IfThenElse7) -> IfThenElse7Response {
        IfThenElse7Response::NotImplemented
    }
    async fn if_then_else_8(&self, _body: types::IfThenElse8) -> IfThenElse8Response {
        IfThenElse8Response::NotImplemented
    }
    async fn if_then_else_9(&self, _body: types::IfThenElse9) -> IfThenElse9Response {
        IfThenElse9Response::NotImplemented
    }
    async fn infinite_loop_detection_0(&self, _body: types::InfiniteLoopDetection0) -> InfiniteLoopDetection0Response {
        InfiniteLoopDetection0Response::NotImplemented
    }
    async fn items_0(&self, _body: types::Items0) -> Items0Response {
        Items0Response::NotImplemented
    }
    async fn items_1(&self, _body: types::Items1) -> Items1Response {
        Items1Response::NotImplemented
    }
    async fn items_2(&self, _body: types::Items2) -> Items2Response {
        Items2Response::NotImplemented
    }
    async fn items_3(&self, _body: types::Items3) -> Items3Response {
        Items3Response::NotImplemented
    }
    async fn items_4(&self, _body: types::Items4) -> Items4Response {
        Items4Response::NotImplemented
    }
    async fn items_5(&self, _body: types::Items5) -> Items5Response {
        Items5Response::NotImplemented
    }
    async fn items_6(&self, _body: types::Items6) -> Items6Response {
        Items6Response::NotImplemented
    }
    async fn items_7(&self, _body: types::Items7) -> Items7Response {
        Items7Response::NotImplemented
    }
    async fn items_8(&self, _body: types::Items8) -> Items8Response {
        Items8Response::NotImplemented
    }
    async fn items_9(&self, _body: types::Items9) -> Items9Response {
        Items9Response::NotImplemented
    }
    async fn max_contains_0(&self, _body: types::MaxContains0) -> MaxContains0Response {
        MaxContains0Response::NotImplemented
    }
    async fn max_contains_1(&self, _body: types::MaxContains1) -> MaxContains1Response {
        MaxContains1Response::NotImplemented
    }
    async fn max_contains_2(&self, _body: types::MaxContains2) -> MaxContains2Response {
        MaxContains2Response::NotImplemented
    }
    async fn max_contains_3(&self, _body: types::MaxContains3) -> MaxContains3Response {
        MaxContains3Response::NotImplemented
    }
    async fn max_contains_4(&self, _body: types::MaxContains4) -> MaxContains4Response {
        MaxContains4Response::NotImplemented
    }
    async fn max_items_0(&self, _body: types::MaxItems0) -> MaxItems0Response {
        MaxItems0Response::NotImplemented
    }
    async fn max_items_1(&self, _body: types::MaxItems1) -> MaxItems1Response {
        MaxItems1Response::NotImplemented
    }
    async fn max_length_0(&self, _body: types::MaxLength0) -> MaxLength0Response {
        MaxLength0Response::NotImplemented
    }
    async fn max_length_1(&self, _body: types::MaxLength1) -> MaxLength1Response {
        MaxLength1Response::NotImplemented
    }
    async fn max_properties_0(&self, _body: types::MaxProperties0) -> MaxProperties0Response {
        MaxProperties0Response::NotImplemented
    }
    async fn max_properties_1(&self, _body: types::MaxProperties1) -> MaxProperties1Response {
        MaxProperties1Response::NotImplemented
    }
    async fn max_properties_2(&self, _body: types::MaxProperties2) -> MaxProperties2Response {
        MaxProperties2Response::NotImplemented
    }
    async fn maximum_0(&self, _body: types::Maximum0) -> Maximum0Response {
        Maximum0Response::NotImplemented
    }
    async fn maximum_1(&self, _body: types::Maximum1) -> Maximum1Response {
        Maximum1Response::NotImplemented
    }
    async fn min_contains_0(&self, _body: types::MinContains0) -> MinContains0Response {
        MinContains0Response::NotImplemented
    }
    async fn min_contains_1(&self, _body: types::MinContains1) -> MinContains1Response {
        MinContains1Response::NotImplemented
    }
    async fn min_contains_2(&self, _body: types::MinContains2) -> MinContains2Response {
        MinContains2Response::NotImplemented
    }
    async fn min_contains_3(&self, _body: types::MinContains3) -> MinContains3Response {
        MinContains3Response::NotImplemented
    }
    async fn min_contains_4(&self, _body: types::MinContains4) -> MinContains4Response {
        MinContains4Response::NotImplemented
    }
    async fn min_contains_5(&self, _body: types::MinContains5) -> MinContains5Response {
        MinContains5Response::NotImplemented
    }
    async fn min_contains_6(&self, _body: types::MinContains6) -> MinContains6Response {
        MinContains6Response::NotImplemented
    }
    async fn min_contains_7(&self, _body: types::MinContains7) -> MinContains7Response {
        MinContains7Response::NotImplemented
    }
    async fn min_items_0(&self, _body: types::MinItems0) -> MinItems0Response {
        MinItems0Response::NotImplemented
    }
    async fn min_items_1(&self, _body: types::MinItems1) -> MinItems1Response {
        MinItems1Response::NotImplemented
    }
    async fn min_length_0(&self, _body: types::MinLength0) -> MinLength0Response {
        MinLength0Response::NotImplemented
    }
    async fn min_length_1(&self, _body: types::MinLength1) -> MinLength1Response {
        MinLength1Response::NotImplemented
    }
    async fn min_properties_0(&self, _body: types::MinProperties0) -> MinProperties0Response {
        MinProperties0Response::NotImplemented
    }
    async fn min_properties_1(&self, _body: types::MinProperties1) -> MinProperties1Response {
        MinProperties1Response::NotImplemented
    }
    async fn minimum_0(&self, _body: types::Minimum0) -> Minimum0Response {
        Minimum0Response::NotImplemented
    }
    async fn minimum_1(&self, _body: types::Minimum1) -> Minimum1Response {
        Minimum1Response::NotImplemented
    }
    async fn multiple_of_0(&self, _body: types::MultipleOf0) -> MultipleOf0Response {
        MultipleOf0Response::NotImplemented
    }
    async fn multiple_of_1(&self, _body: types::MultipleOf1) -> MultipleOf1Response {
        MultipleOf1Response::NotImplemented
    }
    async fn multiple_of_2(&self, _body: types::MultipleOf2) -> MultipleOf2Response {
        MultipleOf2Response::NotImplemented
    }
    async fn multiple_of_3(&self, _body: types::MultipleOf3) -> MultipleOf3Response {
        MultipleOf3Response::NotImplemented
    }
    async fn multiple_of_4(&self, _body: types::MultipleOf4) -> MultipleOf4Response {
        MultipleOf4Response::NotImplemented
    }
    async fn not_0(&self, _body: types::Not0) -> Not0Response {
        Not0Response::NotImplemented
    }
    async fn not_1(&self, _body: types::Not1) -> Not1Response {
        Not1Response::NotImplemented
    }
    async fn not_2(&self, _body: types::Not2) -> Not2Response {
        Not2Response::NotImplemented
    }
    async fn not_3(&self, _body: types::Not3) -> Not3Response {
        Not3Response::NotImplemented
    }
    async fn not_4(&self, _body: types::Not4) -> Not4Response {
        Not4Response::NotImplemented
    }
    async fn not_5(&self, _body: types::Not5) -> Not5Response {
        Not5Response::NotImplemented
    }
    async fn not_6(&self, _body: types::Not6) -> Not6Response {
        Not6Response::NotImplemented
    }
    async fn not_7(&self, _body: types::Not7) -> Not7Response {
        Not7Response::NotImplemented
    }
    async fn not_8(&self, _body: types::Not8) -> Not8Response {
        Not8Response::NotImplemented
    }
    async fn one_of_0(&self, _body: types::OneOf0) -> OneOf0Response {
        OneOf0Response::NotImplemented
    }
    async fn one_of_1(&self, _body: types::OneOf1) -> OneOf1Response {
        OneOf1Response::NotImplemented
    }
    async fn one_of_10(&self, _body: types::OneOf10) -> OneOf10Response {
        OneOf10Response::NotImplemented
    }
    async fn one_of_2(&self, _body: types::OneOf2) -> OneOf2Response {
        OneOf2Response::NotImplemented
    }
    async fn one_of_3(&self, _body: types::OneOf3) -> OneOf3Response {
        OneOf3Response::NotImplemented
    }
    async fn one_of_4(&self, _body: types::OneOf4) -> OneOf4Response {
        OneOf4Response::NotImplemented
    }
    async fn one_of_5(&self, _body: types::OneOf5) -> OneOf5Response {
        OneOf5Response::NotImplemented
    }
    async fn one_of_6(&self, _body: types::OneOf6) -> OneOf6Response {
        OneOf6Response::NotImplemented
    }
    async fn one_of_7(&self, _body: types::OneOf7) -> OneOf7Response {
        OneOf7Response::NotImplemented
    }
    async fn one_of_8(&self, _body: types::OneOf8) -> OneOf8Response {
        OneOf8Response::NotImplemented
    }
    async fn one_of_9(&self, _body: types::OneOf9) -> OneOf9Response {
        OneOf9Response::NotImplemented
    }
    async fn pattern_0(&self, _body: types::Pattern0) -> Pattern0Response {
        Pattern0Response::NotImplemented
    }
    async fn pattern_1(&self, _body: types::Pattern1) -> Pattern1Response {
        Pattern1Response::NotImplemented
    }
    async fn pattern_2(&self, _body: types::Pattern2) -> Pattern2Response {
        Pattern2Response::NotImplemented
    }
    async fn pattern_properties_0(&self, _body: types::PatternProperties0) -> PatternProperties0Response {
        PatternProperties0Response::NotImplemented
    }
    async fn pattern_properties_1(&self, _body: types::PatternProperties1) -> PatternProperties1Response {
        PatternProperties1Response::NotImplemented
    }
    async fn pattern_properties_2(&self, _body: types::PatternProperties2) -> PatternProperties2Response {
        PatternProperties2Response::NotImplemented
    }
    async fn pattern_properties_3(&self, _body: types::PatternProperties3) -> PatternProperties3Response {
        PatternProperties3Response::NotImplemented
    }
    async fn pattern_properties_4(&self, _body: types::PatternProperties4) -> PatternProperties4Response {
        PatternProperties4Response::NotImplemented
    }
    async fn pattern_properties_5(&self, _body: types::PatternProperties5) -> PatternProperties5Response {
        PatternProperties5Response::NotImplemented
    }
    async fn prefix_items_0(&self, _body: types::PrefixItems0) -> PrefixItems0Response {
        PrefixItems0Response::NotImplemented
    }
    async fn prefix_items_1(&self, _body: types::PrefixItems1) -> PrefixItems1Response {
        PrefixItems1Response::NotImplemented
    }
    async fn prefix_items_2(&self, _body: types::PrefixItems2) -> PrefixItems2Response {
        PrefixItems2Response::NotImplemented
    }
    async fn prefix_items_3(&self, _body: types::PrefixItems3) -> PrefixItems3Response {
        PrefixItems3Response::NotImplemented
    }
    async fn properties_0(&self, _body: types::Properties0) -> Properties0Response {
        Properties0Response::NotImplemented
    }
    async fn properties_1(&self, _body: types::Properties1) -> Properties1Response {
        Properties1Response::NotImplemented
    }
    async fn properties_2(&self, _body: types::Properties2) -> Properties2Response {
        Properties2Response::NotImplemented
    }
    async fn properties_3(&self, _body: types::Properties3) -> Properties3Response {
        Properties3Response::NotImplemented
    }
    async fn properties_4(&self, _body: types::Properties4) -> Properties4Response {
        Properties4Response::NotImplemented
    }
    async fn properties_5(&self, _body: types::Properties5) -> Properties5Response {
        Properties5Response::NotImplemented
    }
    async fn property_names_0(&self, _body: types::PropertyNames0) -> PropertyNames0Response {
        PropertyNames0Response::NotImplemented
    }
    async fn property_names_1(&self, _body: types::PropertyNames1) -> PropertyNames1Response {
        PropertyNames1Response::NotImplemented
    }
    async fn property_names_2(&self, _body: types::PropertyNames2) -> PropertyNames2Response {
        PropertyNames2Response::NotImplemented
    }
    async fn property_names_3(&self, _body: types::PropertyNames3) -> PropertyNames3Response {
        PropertyNames3Response::NotImplemented
    }
    async fn property_names_4(&self, _body: types::PropertyNames4) -> PropertyNames4Response {
        PropertyNames4Response::NotImplemented
    }
    async fn property_names_5(&self, _body: types::PropertyNames5) -> PropertyNames5Response {
        PropertyNames5Response::NotImplemented
    }
    async fn ref_0(&self, _body: types::Ref0) -> Ref0Response {
        Ref0Response::NotImplemented
    }
    async fn ref_1(&self, _body: types::Ref1) -> Ref1Response {
        Ref1Response::NotImplemented
    }
    async fn ref_10(&self, _body: types::Ref10) -> Ref10Response {
        Ref10Response::NotImplemented
    }
    async fn ref_12(&self, _body: types::Ref12) -> Ref12Response {
        Ref12Response::NotImplemented
    }
    async fn ref_13(&self, _body: types::Ref13) -> Ref13Response {
        Ref13Response::NotImplemented
    }
    async fn ref_14(&self, _body: types::Ref14) -> Ref14Response {
        Ref14Response::NotImplemented
    }
    async fn ref_2(&self, _body: types::Ref2) -> Ref2Response {
        Ref2Response::NotImplemented
    }
    async fn ref_3(&self, _body: types::Ref3) -> Ref3Response {
        Ref3Response::NotImplemented
    }
    async fn ref_35(&self, _body: types::Ref35) -> Ref35Response {
        Ref35Response::NotImplemented
    }
    async fn ref_4(&self, _body: types::Ref4) -> Ref4Response {
        Ref4Response::NotImplemented
    }
    async fn ref_5(&self, _body: types::Ref5) -> Ref5Response {
        Ref5Response::NotImplemented
    }
    async fn ref_7(&self, _body: types::Ref7) -> Ref7Response {
        Ref7Response::NotImplemented
    }
    async fn ref_8(&self, _body: types::Ref8) -> Ref8Response {
        Ref8Response::NotImplemented
    }
    async fn ref_9(&self, _body: types::Ref9) -> Ref9Response {
        Ref9Response::NotImplemented
    }
    async fn required_0(&self, _body: types::Required0) -> Required0Response {
        Required0Response::NotImplemented
    }
    async fn required_1(&self, _body: types::Required1) -> Required1Response {
        Required1Response::NotImplemented
    }
    async fn required_2(&self, _body: types::Required2) -> Required2Response {
        Required2Response::NotImplemented
    }
    async fn required_3(&self, _body: types::Required3) -> Required3Response {
        Required3Response::NotImplemented
    }
    async fn required_4(&self, _body: types::Required4) -> Required4Response {
        Required4Response::NotImplemented
    }
    async fn type_0(&self, _body: types::Type0) -> Type0Response {
        Type0Response::NotImplemented
    }
    async fn type_1(&self, _body: types::Type1) -> Type1Response {
        Type1Response::NotImplemented
    }
    async fn type_10(&self, _body: types::Type10) -> Type10Response {
        Type10Response::NotImplemented
    }
    async fn type_2(&self, _body: types::Type2) -> Type2Response {
        Type2Response::NotImplemented
    }
    async fn type_3(&self, _body: types::Type3) -> Type3Response {
        Type3Response::NotImplemented
    }
    async fn type_4(&self, _body: types::Type4) -> Type4Response {
        Type4Response::NotImplemented
    }
    async fn type_5(&self, _body: types::Type5) -> Type5Response {
        Type5Response::NotImplemented
    }
    async fn type_6(&self, _body: types::Type6) -> Type6Response {
        Type6Response::NotImplemented
    }
    async fn type_7(&self, _body: types::Type7) -> Type7Response {
        Type7Response::NotImplemented
    }
    async fn type_8(&self, _body: types::Type8) -> Type8Response {
        Type8Response::NotImplemented
    }
    async fn type_9(&self, _body: types::Type9) -> Type9Response {
        Type9Response::NotImplemented
    }
    async fn unevaluated_items_0(&self, _body: types::UnevaluatedItems0) -> UnevaluatedItems0Response {
        UnevaluatedItems0Response::NotImplemented
    }
    async fn unevaluated_items_1(&self, _body: types::UnevaluatedItems1) -> UnevaluatedItems1Response {
        UnevaluatedItems1Response::NotImplemented
    }
    async fn unevaluated_items_10(&self, _body: types::UnevaluatedItems10) -> UnevaluatedItems10Response {
        UnevaluatedItems10Response::NotImplemented
    }
    async fn unevaluated_items_11(&self, _body: types::UnevaluatedItems11) -> UnevaluatedItems11Response {
        UnevaluatedItems11Response::NotImplemented
    }
    async fn unevaluated_items_12(&self, _body: types::UnevaluatedItems12) -> UnevaluatedItems12Response {
        UnevaluatedItems12Response::NotImplemented
    }
    async fn unevaluated_items_13(&self, _body: types::UnevaluatedItems13) -> UnevaluatedItems13Response {
        UnevaluatedItems13Response::NotImplemented
    }
    async fn unevaluated_items_14(&self, _body: types::UnevaluatedItems14) -> UnevaluatedItems14Response {
        UnevaluatedItems14Response::NotImplemented
    }
    async fn unevaluated_items_15(&self, _body: types::UnevaluatedItems15) -> UnevaluatedItems15Response {
        UnevaluatedItems15Response::NotImplemented
    }
    async fn unevaluated_items_16(&self, _body: types::UnevaluatedItems16) -> UnevaluatedItems16Response {
        UnevaluatedItems16Response::NotImplemented
    }
    async fn unevaluated_items_17(&self, _body: types::UnevaluatedItems17) -> UnevaluatedItems17Response {
        UnevaluatedItems17Response::NotImplemented
    }
    async fn unevaluated_items_19(&self, _body: types::UnevaluatedItems19) -> UnevaluatedItems19Response {
        UnevaluatedItems19Response::NotImplemented
    }
    async fn unevaluated_items_2(&self, _body: types::UnevaluatedItems2) -> UnevaluatedItems2Response {
        UnevaluatedItems2Response::NotImplemented
    }
    async fn unevaluated_items_20(&self, _body: types::UnevaluatedItems20) -> UnevaluatedItems20Response {
        UnevaluatedItems20Response::NotImplemented
    }
    async fn unevaluated_items_21(&self, _body: types::UnevaluatedItems21) -> UnevaluatedItems21Response {
        UnevaluatedItems21Response::NotImplemented
    }
    async fn unevaluated_items_22(&self, _body: types::UnevaluatedItems22) -> UnevaluatedItems22Response {
        UnevaluatedItems22Response::NotImplemented
    }
    async fn unevaluated_items_23(&self, _body: types::UnevaluatedItems23) -> UnevaluatedItems23Response {
        UnevaluatedItems23Response::NotImplemented
    }
    async fn unevaluated_items_24(&self, _body: types::UnevaluatedItems24) -> UnevaluatedItems24Response {
        UnevaluatedItems24Response::NotImplemented
    }
    async fn unevaluated_items_25(&self, _body: types::UnevaluatedItems25) -> UnevaluatedItems25Response {
        UnevaluatedItems25Response::NotImplemented
    }
    async fn unevaluated_items_26(&self, _body: types::UnevaluatedItems26) -> UnevaluatedItems26Response {
        UnevaluatedItems26Response::NotImplemented
    }
    async fn unevaluated_items_27(&self, _body: types::UnevaluatedItems27) -> UnevaluatedItems27Response {
        UnevaluatedItems27Response::NotImplemented
    }
    async fn unevaluated_items_28(&self, _body: types::UnevaluatedItems28) -> UnevaluatedItems28Response {
        UnevaluatedItems28Response::NotImplemented
    }
    async fn unevaluated_items_3(&self, _body: types::UnevaluatedItems3) -> UnevaluatedItems3Response {
        UnevaluatedItems3Response::NotImplemented
    }
    async fn unevaluated_items_4(&self, _body: types::UnevaluatedItems4) -> UnevaluatedItems4Response {
        UnevaluatedItems4Response::NotImplemented
    }
    async fn unevaluated_items_5(&self, _body: types::UnevaluatedItems5) -> UnevaluatedItems5Response {
        UnevaluatedItems5Response::NotImplemented
    }
    async fn unevaluated_items_6(&self, _body: types::UnevaluatedItems6) -> UnevaluatedItems6Response {
        UnevaluatedItems6Response::NotImplemented
    }
    async fn unevaluated_items_7(&self, _body: types::UnevaluatedItems7) -> UnevaluatedItems7Response {
        UnevaluatedItems7Response::NotImplemented
    }
    async fn unevaluated_items_8(&self, _body: types::UnevaluatedItems8) -> UnevaluatedItems8Response {
        UnevaluatedItems8Response::NotImplemented
    }
    async fn unevaluated_items_9(&self, _body: types::UnevaluatedItems9) -> UnevaluatedItems9Response {
        UnevaluatedItems9Response::NotImplemented
    }
    async fn unevaluated_properties_0(&self, _body: types::UnevaluatedProperties0) -> UnevaluatedProperties0Response {
        UnevaluatedProperties0Response::NotImplemented
    }
    async fn unevaluated_properties_1(&self, _body: types::UnevaluatedProperties1) -> UnevaluatedProperties1Response {
        UnevaluatedProperties1Response::NotImplemented
    }
    async fn unevaluated_properties_10(
        &self,
        _body: types::UnevaluatedProperties10,
    ) -> UnevaluatedProperties10Response {
        UnevaluatedProperties10Response::NotImplemented
    }
    async fn unevaluated_properties_11(
        &self,
        _body: types::UnevaluatedProperties11,
    ) -> UnevaluatedProperties11Response {
        UnevaluatedProperties11Response::NotImplemented
    }
    async fn unevaluated_properties_12(
        &self,
        _body: types::UnevaluatedProperties12,
    ) -> UnevaluatedProperties12Response {
        UnevaluatedProperties12Response::NotImplemented
    }
    async fn unevaluated_properties_13(
        &self,
        _body: types::UnevaluatedProperties13,
    ) -> UnevaluatedProperties13Response {
        UnevaluatedProperties13Response::NotImplemented
    }
    async fn unevaluated_properties_14(
        &self,
        _body: types::UnevaluatedProperties14,
    ) -> UnevaluatedProperties14Response {
        UnevaluatedProperties14Response::NotImplemented
    }
    async fn unevaluated_properties_15(
        &self,
        _body: types::UnevaluatedProperties15,
    ) -> UnevaluatedProperties15Response {
        UnevaluatedProperties15Response::NotImplemented
    }
    async fn unevaluated_properties_16(
        &self,
        _body: types::UnevaluatedProperties16,
    ) -> UnevaluatedProperties16Response {
        UnevaluatedProperties16Response::NotImplemented
    }
    async fn unevaluated_properties_17(
        &self,
        _body: types::UnevaluatedProperties17,
    ) -> UnevaluatedProperties17Response {
        UnevaluatedProperties17Response::NotImplemented
    }
    async fn unevaluated_properties_18(
        &self,
        _body: types::UnevaluatedProperties18,
    ) -> UnevaluatedProperties18Response {
        UnevaluatedProperties18Response::NotImplemented
    }
    async fn unevaluated_properties_19(
        &self,
        _body: types::UnevaluatedProperties19,
    ) -> UnevaluatedProperties19Response {
        UnevaluatedProperties19Response::NotImplemented
    }
    async fn unevaluated_properties_2(&self, _body: types::UnevaluatedProperties2) -> UnevaluatedProperties2Response {
        UnevaluatedProperties2Response::NotImplemented
    }
    async fn unevaluated_properties_20(
        &self,
        _body: types::UnevaluatedProperties20,
    ) -> UnevaluatedProperties20Response {
        UnevaluatedProperties20Response::NotImplemented
    }
    async fn unevaluated_properties_22(
        &self,
        _body: types::UnevaluatedProperties22,
    ) -> UnevaluatedProperties22Response {
        UnevaluatedProperties22Response::NotImplemented
    }
    async fn unevaluated_properties_23(
        &self,
        _body: types::UnevaluatedProperties23,
    ) -> UnevaluatedProperties23Response {
        UnevaluatedProperties23Response::NotImplemented
    }
    async fn unevaluated_properties_24(
        &self,
        _body: types::UnevaluatedProperties24,
    ) -> UnevaluatedProperties24Response {
        UnevaluatedProperties24Response::NotImplemented
    }
    async fn unevaluated_properties_25(
        &self,
        _body: types::UnevaluatedProperties25,
    ) -> UnevaluatedProperties25Response {
        UnevaluatedProperties25Response::NotImplemented
    }
    async fn unevaluated_properties_26(
        &self,
        _body: types::UnevaluatedProperties26,
    ) -> UnevaluatedProperties26Response {
        UnevaluatedProperties26Response::NotImplemented
    }
    async fn unevaluated_properties_27(
        &self,
        _body: types::UnevaluatedProperties27,
    ) -> UnevaluatedProperties27Response {
        UnevaluatedProperties27Response::NotImplemented
    }
    async fn unevaluated_properties_28(
        &self,
        _body: types::UnevaluatedProperties28,
    ) -> UnevaluatedProperties28Response {
        UnevaluatedProperties28Response::NotImplemented
    }
    async fn unevaluated_properties_29(
        &self,
        _body: types::UnevaluatedProperties29,
    ) -> UnevaluatedProperties29Response {
        UnevaluatedProperties29Response::NotImplemented
    }
    async fn unevaluated_properties_3(&self, _body: types::UnevaluatedProperties3) -> UnevaluatedProperties3Response {
        UnevaluatedProperties3Response::NotImplemented
    }
    async fn unevaluated_properties_30(
        &self,
        _body: types::UnevaluatedProperties30,
    ) -> UnevaluatedProperties30Response {
        UnevaluatedProperties30Response::NotImplemented
    }
    async fn unevaluated_properties_31(
        &self,
        _body: types::UnevaluatedProperties31,
    ) -> UnevaluatedProperties31Response {
        UnevaluatedProperties31Response::NotImplemented
    }
    async fn unevaluated_properties_32(
        &self,
        _body: types::UnevaluatedProperties32,
    ) -> UnevaluatedProperties32Response {
        UnevaluatedProperties32Response::NotImplemented
    }
    async fn unevaluated_properties_33(
        &self,
        _body: types::UnevaluatedProperties33,
    ) -> UnevaluatedProperties33Response {
        UnevaluatedProperties33Response::NotImplemented
    }
    async fn unevaluated_properties_34(
        &self,
        _body: types::UnevaluatedProperties34,
    ) -> UnevaluatedProperties34Response {
        UnevaluatedProperties34Response::NotImplemented
    }
    async fn unevaluated_properties_35(
        &self,
        _body: types::UnevaluatedProperties35,
    ) -> UnevaluatedProperties35Response {
        UnevaluatedProperties35Response::NotImplemented
    }
    async fn unevaluated_properties_36(
        &self,
        _body: types::UnevaluatedProperties36,
    ) -> UnevaluatedProperties36Response {
        UnevaluatedProperties36Response::NotImplemented
    }
    async fn unevaluated_properties_37(
        &self,
        _body: types::UnevaluatedProperties37,
    ) -> UnevaluatedProperties37Response {
        UnevaluatedProperties37Response::NotImplemented
    }
    async fn unevaluated_properties_38(
        &self,
        _body: types::UnevaluatedProperties38,
    ) -> UnevaluatedProperties38Response {
        UnevaluatedProperties38Response::NotImplemented
    }
    async fn unevaluated_properties_39(
        &self,
        _body: types::UnevaluatedProperties39,
    ) -> UnevaluatedProperties39Response {
        UnevaluatedProperties39Response::NotImplemented
    }
    async fn unevaluated_properties_4(&self, _body: types::UnevaluatedProperties4) -> UnevaluatedProperties4Response {
        UnevaluatedProperties4Response::NotImplemented
    }
    async fn unevaluated_properties_40(
        &self,
        _body: types::UnevaluatedProperties40,
    ) -> UnevaluatedProperties40Response {
        UnevaluatedProperties40Response::NotImplemented
    }
    async fn unevaluated_properties_41(
        &self,
        _body: types::UnevaluatedProperties41,
    ) -> UnevaluatedProperties41Response {
        UnevaluatedProperties41Response::NotImplemented
    }
    async fn unevaluated_properties_42(
        &self,
        _body: types::UnevaluatedProperties42,
    ) -> UnevaluatedProperties42Response {
        UnevaluatedProperties42Response::NotImplemented
    }
    async fn unevaluated_properties_43(
        &self,
        _body: types::UnevaluatedProperties43,
    ) -> UnevaluatedProperties43Response {
        UnevaluatedProperties43Response::NotImplemented
    }
    async fn unevaluated_properties_5(&self, _body: types::UnevaluatedProperties5) -> UnevaluatedProperties5Response {
        UnevaluatedProperties5Response::NotImplemented
    }
    async fn unevaluated_properties_6(&self, _body: types::UnevaluatedProperties6) -> UnevaluatedProperties6Response {
        UnevaluatedProperties6Response::NotImplemented
    }
    async fn unevaluated_properties_7(&self, _body: types::UnevaluatedProperties7) -> UnevaluatedProperties7Response {
        UnevaluatedProperties7Response::NotImplemented
    }
    async fn unevaluated_properties_8(&self, _body: types::UnevaluatedProperties8) -> UnevaluatedProperties8Response {
        UnevaluatedProperties8Response::NotImplemented
    }
    async fn unevaluated_properties_9(&self, _body: types::UnevaluatedProperties9) -> UnevaluatedProperties9Response {
        UnevaluatedProperties9Response::NotImplemented
    }
    async fn unique_items_0(&self, _body: types::UniqueItems0) -> UniqueItems0Response {
        UniqueItems0Response::NotImplemented
    }
    async fn unique_items_1(&self, _body: types::UniqueItems1) -> UniqueItems1Response {
        UniqueItems1Response::NotImplemented
    }
    async fn unique_items_2(&self, _body: types::UniqueItems2) -> UniqueItems2Response {
        UniqueItems2Response::NotImplemented
    }
    async fn unique_items_3(&self, _body: types::UniqueItems3) -> UniqueItems3Response {
        UniqueItems3Response::NotImplemented
    }
    async fn unique_items_4(&self, _body: types::UniqueItems4) -> UniqueItems4Response {
        UniqueItems4Response::NotImplemented
    }
    async fn unique_items_5(&self, _body: types::UniqueItems5) -> UniqueItems5Response {
        UniqueItems5Response::NotImplemented
    }
}
