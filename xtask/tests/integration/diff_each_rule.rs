//! Each rule of `cargo xtask diff` on its own: a document with one
//! operation, before and after one edit, and the change it must report
//! (its level, where, and what a client would notice).

use serde_json::Value;
use xtask::designer::diff::{Level, diff};

const TODAY: &str = "2026-11-21";

/// A document whose one operation, `POST /things`, has `operation` (YAML
/// indented under the operation), and whose `components` are `components`
/// (indented under `components:`).
fn doc(operation: &str, components: &str) -> Value {
    let text = format!(
        r#"openapi: 3.0.3
info: {{title: Things, version: 1.0.0}}
paths:
  /things:
    post:
      operationId: addThing
{operation}
components:
  schemas:
    Thing: {{type: object, properties: {{name: {{type: string}}}}}}
    Other: {{type: object, properties: {{size: {{type: integer}}}}}}
{components}
"#
    );
    serde_norway::from_str(&text).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

/// An operation with a request body of `schema` (flow YAML) in `media`.
fn request(media: &str, schema: &str) -> String {
    format!(
        "      requestBody:\n        required: true\n        content:\n          {media}:\n            schema: {schema}\n      responses:\n        '204': {{description: done}}"
    )
}

/// An operation whose 200 response has a body of `schema` in `media`, and
/// `headers` (flow YAML).
fn response(media: &str, schema: &str, headers: &str) -> String {
    format!(
        "      responses:\n        '200':\n          description: ok\n          headers: {headers}\n          content:\n            {media}:\n              schema: {schema}"
    )
}

struct Rule {
    name: &'static str,
    old: Value,
    new: Value,
    level: Level,
    /// The end of the change's location.
    at: &'static str,
    message: &'static str,
}

fn rule(name: &'static str, old: Value, new: Value, level: Level, at: &'static str, message: &'static str) -> Rule {
    Rule {
        name,
        old,
        new,
        level,
        at,
        message,
    }
}

fn rules() -> Vec<Rule> {
    use Level::{Breaking, Compatible, Warning};
    let json = "application/json";
    let req = |schema: &str| doc(&request(json, schema), "");
    let res = |schema: &str| doc(&response(json, schema, "{}"), "");
    let header = |h: &str| doc(&response(json, "{type: string}", h), "");
    let with_param = |p: &str| {
        doc(
            &format!("      parameters:\n        - {p}\n      responses:\n        '204': {{description: done}}"),
            "",
        )
    };
    vec![
        // Compositions, inline and by reference, in both directions.
        rule(
            "a required property added in an anyOf branch of a request",
            req("{anyOf: [{type: object, properties: {a: {type: string}}}, {$ref: '#/components/schemas/Other'}]}"),
            req(
                "{anyOf: [{type: object, required: [a], properties: {a: {type: string}}}, {$ref: '#/components/schemas/Other'}]}",
            ),
            Breaking,
            "anyOf.0.properties.a",
            "request property became required",
        ),
        rule(
            "an allOf part added to a request",
            req("{allOf: [{$ref: '#/components/schemas/Thing'}]}"),
            req("{allOf: [{$ref: '#/components/schemas/Thing'}, {$ref: '#/components/schemas/Other'}]}"),
            Breaking,
            "schema.allOf.1",
            "part `Other` added: requests must now also match it",
        ),
        rule(
            "a oneOf branch added to a response",
            res("{oneOf: [{$ref: '#/components/schemas/Thing'}]}"),
            res("{oneOf: [{$ref: '#/components/schemas/Thing'}, {$ref: '#/components/schemas/Other'}]}"),
            Breaking,
            "schema.oneOf.1",
            "new alternative `Other` may be sent",
        ),
        rule(
            "a oneOf branch added to a request",
            req("{oneOf: [{$ref: '#/components/schemas/Thing'}]}"),
            req("{oneOf: [{$ref: '#/components/schemas/Thing'}, {$ref: '#/components/schemas/Other'}]}"),
            Compatible,
            "schema.oneOf.1",
            "new alternative `Other` accepted",
        ),
        rule(
            "a referenced schema's property changes where it is used",
            doc(&request(json, "{$ref: '#/components/schemas/Thing'}"), ""),
            {
                let mut d = doc(&request(json, "{$ref: '#/components/schemas/Thing'}"), "");
                d["components"]["schemas"]["Thing"]["required"] = serde_json::json!(["name"]);
                d
            },
            Breaking,
            "requestBody.content.application/json.schema.properties.name",
            "request property became required",
        ),
        // Every media type, not only application/json.
        rule(
            "a vendor +json response's property removed",
            doc(
                &response(
                    "application/vnd.things+json",
                    "{type: object, required: [a], properties: {a: {type: string}}}",
                    "{}",
                ),
                "",
            ),
            doc(
                &response("application/vnd.things+json", "{type: object, properties: {}}", "{}"),
                "",
            ),
            Breaking,
            "application/vnd.things+json.schema.properties.a",
            "required response property removed",
        ),
        rule(
            "a problem+json response that may now be null",
            doc(&response("application/problem+json", "{type: string}", "{}"), ""),
            doc(
                &response("application/problem+json", "{type: string, nullable: true}", "{}"),
                "",
            ),
            Breaking,
            "application/problem+json.schema",
            "may now be null",
        ),
        rule(
            "a */* request body's schema narrowed",
            doc(&request("'*/*'", "{type: string}"), ""),
            doc(&request("'*/*'", "{type: string, maxLength: 4}"), ""),
            Warning,
            "*/*.schema",
            "bound set: maxLength none -> 4",
        ),
        rule(
            "a request media type removed",
            doc(
                "      requestBody:\n        content:\n          application/json: {schema: {type: string}}\n          text/plain: {schema: {type: string}}\n      responses:\n        '204': {description: done}",
                "",
            ),
            doc(
                &request(json, "{type: string}").replace("required: true", "required: false"),
                "",
            ),
            Breaking,
            "requestBody.content.text/plain",
            "media type `text/plain` is no longer accepted",
        ),
        rule(
            "a request body removed",
            req("{type: string}"),
            doc("      responses:\n        '204': {description: done}", ""),
            Breaking,
            "post.requestBody",
            "request body removed",
        ),
        // Parameters, at path level too.
        rule(
            "a required parameter declared at path level",
            doc("      responses:\n        '204': {description: done}", ""),
            {
                let mut d = doc("      responses:\n        '204': {description: done}", "");
                d["paths"]["/things"]["parameters"] = serde_json::json!([{"name": "tenant", "in": "header", "required": true, "schema": {"type": "string"}}]);
                d
            },
            Breaking,
            "parameters.header.tenant",
            "new required parameter",
        ),
        rule(
            "a parameter's default changed",
            with_param("{name: sort, in: query, schema: {type: string, default: name}}"),
            with_param("{name: sort, in: query, schema: {type: string, default: size}}"),
            Breaking,
            "parameters.query.sort.schema",
            "default changed from \"name\" to \"size\"",
        ),
        rule(
            "a parameter deprecated",
            with_param("{name: sort, in: query, schema: {type: string}}"),
            with_param("{name: sort, in: query, deprecated: true, x-sunset: '2027-01-01', schema: {type: string}}"),
            Compatible,
            "parameters.query.sort",
            "parameter deprecated, sunset 2027-01-01",
        ),
        rule(
            "a parameter's sunset moved earlier",
            with_param("{name: sort, in: query, deprecated: true, x-sunset: '2027-06-01', schema: {type: string}}"),
            with_param("{name: sort, in: query, deprecated: true, x-sunset: '2027-01-01', schema: {type: string}}"),
            Breaking,
            "parameters.query.sort",
            "sunset date moved earlier, from 2027-06-01 to 2027-01-01",
        ),
        rule(
            "a parameter removed without deprecation",
            with_param("{name: sort, in: query, schema: {type: string}}"),
            doc("      responses:\n        '204': {description: done}", ""),
            Warning,
            "parameters.query.sort",
            "parameter removed",
        ),
        rule(
            "an x-extensible-enum value removed from a parameter",
            with_param("{name: kind, in: query, schema: {type: string, x-extensible-enum: [a, b]}}"),
            with_param("{name: kind, in: query, schema: {type: string, x-extensible-enum: [a]}}"),
            Breaking,
            "parameters.query.kind.schema",
            "extensible enum value \"b\" removed",
        ),
        rule(
            "an x-extensible-enum value added to a response",
            res("{type: string, x-extensible-enum: [a]}"),
            res("{type: string, x-extensible-enum: [a, b]}"),
            Compatible,
            "schema",
            "extensible enum value \"b\" added",
        ),
        // Schemas.
        rule(
            "a type change inside additionalProperties",
            res("{type: object, additionalProperties: {type: string}}"),
            res("{type: object, additionalProperties: {type: integer}}"),
            Breaking,
            "schema.additionalProperties",
            "type changed from `string` to `integer`",
        ),
        rule(
            "a readOnly property added as required to a request",
            req("{type: object, properties: {name: {type: string}}}"),
            req(
                "{type: object, required: [id], properties: {name: {type: string}, id: {type: string, readOnly: true}}}",
            ),
            Compatible,
            "schema.properties.id",
            "new optional request property",
        ),
        rule(
            "a writeOnly property of a response that became optional",
            res("{type: object, required: [secret], properties: {secret: {type: string, writeOnly: true}}}"),
            res("{type: object, properties: {secret: {type: string, writeOnly: true}}}"),
            Compatible,
            "",
            "",
        ),
        rule(
            "a request pattern widened to anything",
            req("{type: string, pattern: '^[a-z]+$'}"),
            req("{type: string, pattern: '.*'}"),
            Compatible,
            "schema",
            "widened: pattern",
        ),
        rule(
            "a request pattern removed",
            req("{type: string, pattern: '^[a-z]+$'}"),
            req("{type: string}"),
            Compatible,
            "schema",
            "widened: pattern `^[a-z]+$` -> none",
        ),
        rule(
            "a request pattern changed to another",
            req("{type: string, pattern: '^[a-z]+$'}"),
            req("{type: string, pattern: '^[a-f]+$'}"),
            Warning,
            "schema",
            "cannot be told",
        ),
        rule(
            "a request pattern added",
            req("{type: string}"),
            req("{type: string, pattern: '^[a-z]+$'}"),
            Breaking,
            "schema",
            "narrowed: pattern none -> `^[a-z]+$`",
        ),
        rule(
            "a request type widened from integer to number",
            req("{type: integer}"),
            req("{type: number}"),
            Compatible,
            "schema",
            "type changed from `integer` to `number`",
        ),
        rule(
            "a response type widened from integer to number",
            res("{type: integer}"),
            res("{type: number}"),
            Breaking,
            "schema",
            "type changed from `integer` to `number`",
        ),
        rule(
            "a response bound widened",
            res("{type: string, maxLength: 10}"),
            res("{type: string, maxLength: 20}"),
            Breaking,
            "schema",
            "widened: maxLength 10 -> 20",
        ),
        rule(
            "a response bound narrowed",
            res("{type: integer, maximum: 100}"),
            res("{type: integer, maximum: 10}"),
            Compatible,
            "schema",
            "narrowed: maximum 100 -> 10",
        ),
        rule(
            "a request bound narrowed",
            req("{type: integer, minimum: 1}"),
            req("{type: integer, minimum: 5}"),
            Breaking,
            "schema",
            "narrowed: minimum 1 -> 5",
        ),
        rule(
            "a request maximum made exclusive",
            req("{type: integer, maximum: 10}"),
            req("{type: integer, maximum: 10, exclusiveMaximum: true}"),
            Breaking,
            "schema",
            "exclusiveMaximum changed from false to true",
        ),
        rule(
            "a response minimum no longer exclusive",
            res("{type: integer, minimum: 0, exclusiveMinimum: true}"),
            res("{type: integer, minimum: 0}"),
            Breaking,
            "schema",
            "exclusiveMinimum changed from true to false",
        ),
        rule(
            "a request multipleOf made a multiple of itself",
            req("{type: integer, multipleOf: 2}"),
            req("{type: integer, multipleOf: 4}"),
            Breaking,
            "schema",
            "multipleOf changed from 2 to 4",
        ),
        rule(
            "a request multipleOf made a divisor",
            req("{type: integer, multipleOf: 4}"),
            req("{type: integer, multipleOf: 2}"),
            Compatible,
            "schema",
            "multipleOf changed from 4 to 2",
        ),
        rule(
            "request items made unique",
            req("{type: array, items: {type: string}}"),
            req("{type: array, uniqueItems: true, items: {type: string}}"),
            Breaking,
            "schema",
            "uniqueItems changed from false to true",
        ),
        rule(
            "a request format widened from int32 to int64",
            req("{type: integer, format: int32}"),
            req("{type: integer, format: int64}"),
            Compatible,
            "schema",
            "format changed from `int32` to `int64`",
        ),
        rule(
            "a request format changed to another",
            req("{type: string, format: date}"),
            req("{type: string, format: uuid}"),
            Breaking,
            "schema",
            "format changed from `date` to `uuid`",
        ),
        rule(
            "other properties no longer allowed in a request",
            req("{type: object, properties: {a: {type: string}}}"),
            req("{type: object, additionalProperties: false, properties: {a: {type: string}}}"),
            Breaking,
            "schema",
            "other properties are no longer allowed",
        ),
        rule(
            "other properties now allowed in a response",
            res("{type: object, additionalProperties: false, properties: {a: {type: string}}}"),
            res("{type: object, properties: {a: {type: string}}}"),
            Breaking,
            "schema",
            "other properties are now allowed",
        ),
        rule(
            "a discriminator's property changed",
            res("{oneOf: [{$ref: '#/components/schemas/Thing'}], discriminator: {propertyName: kind}}"),
            res("{oneOf: [{$ref: '#/components/schemas/Thing'}], discriminator: {propertyName: type}}"),
            Breaking,
            "schema.discriminator",
            "discriminator property changed from `kind` to `type`",
        ),
        rule(
            "a oneOf became an anyOf",
            req("{oneOf: [{$ref: '#/components/schemas/Thing'}]}"),
            req("{anyOf: [{$ref: '#/components/schemas/Thing'}]}"),
            Warning,
            "schema",
            "`oneOf` became `anyOf`",
        ),
        rule(
            "a response enum value no longer sent",
            res("{type: string, enum: [a, b]}"),
            res("{type: string, enum: [a]}"),
            Compatible,
            "schema",
            "enum value \"b\" no longer sent",
        ),
        rule(
            "a request body became required",
            doc(
                &request(json, "{type: string}").replace("required: true", "required: false"),
                "",
            ),
            req("{type: string}"),
            Breaking,
            "post.requestBody",
            "request body became required",
        ),
        rule(
            "a parameter's style changed",
            with_param(
                "{name: ids, in: query, style: form, explode: true, schema: {type: array, items: {type: string}}}",
            ),
            with_param(
                "{name: ids, in: query, style: form, explode: false, schema: {type: array, items: {type: string}}}",
            ),
            Breaking,
            "parameters.query.ids",
            "`explode` changed",
        ),
        rule(
            "a success status removed",
            res("{type: string}"),
            doc(
                "      responses:\n        '201':\n          description: made\n          content:\n            application/json:\n              schema: {type: string}",
                "",
            ),
            Breaking,
            "responses.200",
            "success status 200 removed",
        ),
        rule(
            "a response body removed",
            res("{type: string}"),
            doc("      responses:\n        '200': {description: ok}", ""),
            Breaking,
            "responses.200",
            "response body removed",
        ),
        // Response headers.
        rule(
            "a required response header removed",
            header("{X-Rate: {required: true, schema: {type: integer}}}"),
            header("{}"),
            Breaking,
            "headers.X-Rate",
            "required response header removed",
        ),
        rule(
            "an optional response header removed",
            header("{X-Rate: {schema: {type: integer}}}"),
            header("{}"),
            Warning,
            "headers.X-Rate",
            "optional response header removed",
        ),
        rule(
            "a response header became optional",
            header("{X-Rate: {required: true, schema: {type: integer}}}"),
            header("{X-Rate: {schema: {type: integer}}}"),
            Breaking,
            "headers.X-Rate",
            "response header became optional",
        ),
        rule(
            "a response header's type changed",
            header("{X-Rate: {schema: {type: integer}}}"),
            header("{x-rate: {schema: {type: string}}}"),
            Breaking,
            "headers.x-rate.schema",
            "type changed from `integer` to `string`",
        ),
        rule(
            "an operationId changed",
            doc("      responses:\n        '204': {description: done}", ""),
            {
                let mut d = doc("      responses:\n        '204': {description: done}", "");
                d["paths"]["/things"]["post"]["operationId"] = serde_json::json!("createThing");
                d
            },
            Warning,
            "paths./things.post",
            "operationId changed from `addThing` to `createThing`",
        ),
        rule(
            "an operation's sunset moved earlier",
            doc(
                "      deprecated: true\n      x-sunset: '2027-06-01'\n      responses:\n        '204': {description: done}",
                "",
            ),
            doc(
                "      deprecated: true\n      x-sunset: '2027-01-01'\n      responses:\n        '204': {description: done}",
                "",
            ),
            Breaking,
            "paths./things.post",
            "the operation's sunset date moved earlier",
        ),
        // Security.
        rule(
            "security required where there was none",
            doc(
                "      responses:\n        '204': {description: done}",
                "  securitySchemes:\n    key: {type: apiKey, in: header, name: X-Key}",
            ),
            doc(
                "      security: [{key: []}]\n      responses:\n        '204': {description: done}",
                "  securitySchemes:\n    key: {type: apiKey, in: header, name: X-Key}",
            ),
            Warning,
            "post.security",
            "security changed from none to key",
        ),
        rule(
            "a scope added to the one requirement",
            doc(
                "      security: [{oauth: [read]}]\n      responses:\n        '204': {description: done}",
                "  securitySchemes:\n    oauth: {type: oauth2, flows: {clientCredentials: {tokenUrl: /t, scopes: {read: r, write: w}}}}",
            ),
            doc(
                "      security: [{oauth: [read, write]}]\n      responses:\n        '204': {description: done}",
                "  securitySchemes:\n    oauth: {type: oauth2, flows: {clientCredentials: {tokenUrl: /t, scopes: {read: r, write: w}}}}",
            ),
            Warning,
            "post.security",
            "oauth [read, write]",
        ),
        rule(
            "one of two security alternatives kept",
            doc(
                "      security: [{key: []}, {basic: []}]\n      responses:\n        '204': {description: done}",
                "  securitySchemes:\n    key: {type: apiKey, in: header, name: X-Key}\n    basic: {type: http, scheme: basic}",
            ),
            doc(
                "      security: [{key: []}]\n      responses:\n        '204': {description: done}",
                "  securitySchemes:\n    key: {type: apiKey, in: header, name: X-Key}\n    basic: {type: http, scheme: basic}",
            ),
            Warning,
            "post.security",
            "security changed from basic or key to key",
        ),
    ]
}

#[test]
fn each_rule_reports_its_change() {
    let mut failures = Vec::new();
    for rule in rules() {
        let changes = diff(&rule.old, &rule.new, TODAY);
        if rule.at.is_empty() && rule.message.is_empty() {
            // Nothing a client notices.
            if changes.iter().any(|c| c.level != Level::Compatible) {
                failures.push(format!(
                    "{}: expected nothing but compatible changes, got {changes:#?}",
                    rule.name
                ));
            }
            continue;
        }
        let found = changes
            .iter()
            .any(|c| c.level == rule.level && c.location.ends_with(rule.at) && c.message.contains(rule.message));
        if !found {
            failures.push(format!(
                "{}: expected {:?} at …{}: …{}…, got {changes:#?}",
                rule.name, rule.level, rule.at, rule.message
            ));
        }
        // The worst change is the rule's: nothing else is reported worse.
        if let Some(worst) = changes.iter().map(|c| c.level).min()
            && worst < rule.level
        {
            failures.push(format!("{}: a worse change than the rule's: {changes:#?}", rule.name));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn servers_absent_is_the_root() {
    let mut old = doc("      responses:\n        '204': {description: done}", "");
    old["servers"] = serde_json::json!([{"url": "https://api.example.com/v1"}]);
    let new = doc("      responses:\n        '204': {description: done}", "");
    let changes = diff(&old, &new, TODAY);
    assert_eq!(changes.len(), 1, "{changes:#?}");
    assert_eq!(
        changes[0].message,
        "base path `/v1` is no longer served (now `/`): every request's URL changes"
    );
    // A relative URL, and variables at their defaults.
    let mut relative = new.clone();
    relative["servers"] = serde_json::json!([{"url": "/{version}", "variables": {"version": {"default": "v1"}}}]);
    assert_eq!(diff(&old, &relative, TODAY), vec![]);
}

/// The largest document of the corpus diffed against itself reports
/// nothing, quickly (the figure is printed; CI machines are too noisy to
/// assert a time).
#[test]
fn the_largest_corpus_document_against_itself() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/fixtures/corpus");
    let largest = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "json" || e == "yaml" || e == "yml"))
        .max_by_key(|p| std::fs::metadata(p).map(|m| m.len()).unwrap_or(0))
        .unwrap();
    let doc = xtask::designer::diff_command::read_document(&largest).unwrap();
    let started = std::time::Instant::now();
    let changes = diff(&doc, &doc.clone(), TODAY);
    println!(
        "{}: diffed against itself in {:?}",
        largest.display(),
        started.elapsed()
    );
    assert_eq!(changes, vec![]);
}
