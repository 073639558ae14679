//! The designer's next edits of `openapi/petstore.yaml`, tried one by one:
//! each construct the designer's guide maps (docs/designing.md) generates,
//! and each one the generator cannot map is refused with the spec location and the reason,
//! never a panic. (The kitchen sink, compiled and served by the workspace,
//! proves the generated code of every mapped construct builds and runs.)

use xtask::codegen::document::SpecErrors;
use xtask::codegen::generate_all;
use xtask::designer::lint::Severity;

fn real_spec() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../openapi/petstore.yaml")).unwrap()
}

/// The real spec with `paths` extended by `yaml` (path items, indented as
/// under `paths:`) and `components.schemas` by `schemas`.
fn with(yaml: &str, schemas: &str) -> String {
    let spec = real_spec();
    assert!(spec.contains("  /pets/{petId}:\n") && spec.contains("\n  schemas:\n"));
    let spec = spec.replacen("  /pets/{petId}:\n", &format!("{yaml}  /pets/{{petId}}:\n"), 1);
    spec.replacen("\n  schemas:\n", &format!("\n  schemas:\n{schemas}"), 1)
}

/// A secured operation at `/extra` with the house rules' responses and
/// `lines` (indented as under the operation) before them.
fn operation(method: &str, lines: &str, success: &str) -> String {
    format!(
        "  /extra:\n    {method}:\n      operationId: extra\n      summary: Extra\n{lines}      responses:\n{success}        '400':\n          $ref: '#/components/responses/BadRequest'\n        '401':\n          $ref: '#/components/responses/Unauthorized'\n        '413':\n          description: too large\n          content:\n            application/json:\n              schema:\n                $ref: '#/components/schemas/Error'\n        '415':\n          description: other media type\n          content:\n            application/json:\n              schema:\n                $ref: '#/components/schemas/Error'\n        '5XX':\n          $ref: '#/components/responses/ServerError'\n"
    )
}

const OK_JSON: &str = "        '200':\n          description: ok\n          content:\n            application/json:\n              schema:\n                $ref: '#/components/schemas/Order'\n";
const NO_CONTENT: &str = "        '204':\n          description: done\n";

fn refused(spec: &str) -> SpecErrors {
    match std::panic::catch_unwind(|| generate_all(spec)) {
        Ok(Ok(_)) => panic!("the spec was accepted"),
        Ok(Err(errors)) => errors,
        Err(_) => panic!("the generator panicked"),
    }
}

#[track_caller]
fn assert_refused(spec: &str, location: &str, reason: &str) {
    let errors = refused(spec);
    let error = errors
        .at(location)
        .unwrap_or_else(|| panic!("nothing refused at {location}: {errors}"));
    assert!(error.message.contains(reason), "{error}");
}

#[track_caller]
fn assert_generates(spec: &str) {
    if let Err(error) = generate_all(spec) {
        panic!("refused: {error}");
    }
}

#[test]
fn a_designers_next_edits_generate() {
    let body = |media_type: &str, schema: &str| {
        format!(
            "      requestBody:\n        required: true\n        content:\n          {media_type}:\n            schema: {schema}\n"
        )
    };
    let edits = [
        // A path with a trailing `/`.
        operation("get", "", OK_JSON).replacen("/extra:", "/extra/:", 1),
        // Bodies in media types progenitor has no name for: by kind.
        operation("post", &body("text/csv", "{type: string}"), NO_CONTENT),
        operation("post", &body("application/zip", "{type: string, format: binary}"), NO_CONTENT),
        operation("patch", &body("application/merge-patch+json", "{$ref: '#/components/schemas/Order'}"), OK_JSON),
        // Read one order.
        operation(
            "get",
            "      parameters:\n        - {name: id, in: query, required: true, schema: {type: integer, format: int64, minimum: 1}}\n",
            OK_JSON,
        ),
        // Search with a bounded limit, an enum, a date-time and a repeated tag.
        operation(
            "get",
            "      parameters:\n        - {name: limit, in: query, schema: {type: integer, format: int32, minimum: 1, maximum: 100, default: 20}}\n        - {name: status, in: query, schema: {type: string, enum: [pending, shipped]}}\n        - {name: since, in: query, schema: {type: string, format: date-time}}\n        - {name: tag, in: query, explode: true, schema: {type: array, items: {type: string}}}\n        - {name: ids, in: query, explode: false, schema: {type: array, items: {type: integer}}}\n        - {name: X-Trace, in: header, schema: {type: string, format: uuid}}\n",
            "        '200':\n          description: ok\n          headers:\n            Link:\n              schema: {type: string}\n          content:\n            application/json:\n              schema:\n                type: object\n                required: [items]\n                properties:\n                  items: {type: array, items: {$ref: '#/components/schemas/Order'}}\n                  next: {type: string, nullable: true}\n",
        ),
        // Create with a JSON body, 201 and Location.
        operation(
            "post",
            "      requestBody:\n        required: true\n        content:\n          application/json:\n            schema: {$ref: '#/components/schemas/Order'}\n",
            "        '201':\n          description: created\n          headers:\n            Location: {required: true, schema: {type: string}}\n          content:\n            application/json:\n              schema:\n                $ref: '#/components/schemas/Order'\n",
        ),
        // Update with If-Match, and two success statuses.
        operation(
            "put",
            "      parameters:\n        - {name: If-Match, in: header, required: true, schema: {type: string}}\n      requestBody:\n        content:\n          application/json:\n            schema: {type: object, additionalProperties: false, properties: {quantity: {type: integer, minimum: 1}}}\n",
            "        '200':\n          description: replaced\n          content:\n            application/json:\n              schema: {$ref: '#/components/schemas/Order'}\n        '201':\n          description: created\n          content:\n            application/json:\n              schema: {$ref: '#/components/schemas/Order'}\n",
        ),
        // A map, and a primitive.
        operation(
            "get",
            "",
            "        '200':\n          description: counts\n          content:\n            application/json:\n              schema: {type: object, additionalProperties: {type: integer}}\n",
        ),
        operation(
            "get",
            "",
            "        '200':\n          description: a count\n          content:\n            application/json:\n              schema: {type: integer, format: int64}\n",
        ),
        // A CSV export and a raw upload.
        operation(
            "get",
            "",
            "        '200':\n          description: csv\n          content:\n            text/csv:\n              schema: {type: string}\n",
        ),
        operation(
            "put",
            "      requestBody:\n        required: true\n        content:\n          application/octet-stream:\n            schema: {type: string, format: binary}\n",
            NO_CONTENT,
        ),
        // A form with a list and an object, and a text body.
        operation(
            "post",
            "      requestBody:\n        required: true\n        content:\n          application/x-www-form-urlencoded:\n            schema: {type: object, properties: {tags: {type: array, items: {type: string}}, where: {$ref: '#/components/schemas/Order'}}}\n",
            NO_CONTENT,
        ),
        operation(
            "post",
            "      requestBody:\n        required: true\n        content:\n          application/x-www-form-urlencoded:\n            schema: {type: object, required: [email], properties: {email: {type: string, format: email}, age: {type: integer}}}\n",
            NO_CONTENT,
        ),
        operation(
            "post",
            "      requestBody:\n        required: true\n        content:\n          text/plain:\n            schema: {type: string}\n",
            NO_CONTENT,
        ),
        // A public operation, and one open to an API-key header.
        operation("get", "      security: []\n", OK_JSON),
        // Headers OpenAPI ignores, and a parameter that may be null.
        operation(
            "get",
            "      parameters:\n        - {name: Accept, in: header, schema: {type: string}}\n        - {name: c, in: query, schema: {type: string, nullable: true}}\n",
            OK_JSON,
        ),
        // A redirect, any media type, and JSON with a charset.
        operation(
            "get",
            "",
            "        '302':\n          description: moved\n          headers:\n            Location: {required: true, schema: {type: string}}\n",
        ),
        operation(
            "get",
            "",
            "        '200':\n          description: any\n          content:\n            '*/*':\n              schema: {type: string, format: binary}\n",
        ),
        operation(
            "post",
            "      requestBody:\n        required: true\n        content:\n          application/json; charset=utf-8:\n            schema: {$ref: '#/components/schemas/Order'}\n",
            "        '200':\n          description: ok\n          content:\n            application/json; charset=utf-8:\n              schema: {$ref: '#/components/schemas/Order'}\n",
        ),
        // allOf beside oneOf (nested in an allOf for dropshot's document).
        operation(
            "post",
            "      requestBody:\n        required: true\n        content:\n          application/json:\n            schema: {allOf: [{$ref: '#/components/schemas/Order'}], oneOf: [{type: object, required: [note]}, {type: object, required: [tags]}]}\n",
            NO_CONTENT,
        ),
        // Success statuses with different bodies (a variant each; the
        // client reads them as bytes), and a 200 beside a bodiless 204.
        operation(
            "get",
            "",
            "        '200':\n          description: a\n          content:\n            application/json:\n              schema: {type: string}\n        '201':\n          description: b\n          content:\n            application/json:\n              schema: {type: integer}\n        '204':\n          description: nothing\n",
        ),
        // A body as JSON or a form (one value), a response as JSON, a
        // vendor JSON type or XML (written as JSON, negotiated by Accept).
        operation(
            "post",
            "      requestBody:\n        required: true\n        content:\n          application/json:\n            schema: {$ref: '#/components/schemas/Order'}\n          application/xml:\n            schema: {$ref: '#/components/schemas/Order'}\n          application/x-www-form-urlencoded:\n            schema: {$ref: '#/components/schemas/Order'}\n",
            "        '200':\n          description: ok\n          content:\n            application/json:\n              schema: {$ref: '#/components/schemas/Order'}\n            application/vnd.order+json:\n              schema: {$ref: '#/components/schemas/Order'}\n            application/xml:\n              schema: {$ref: '#/components/schemas/Order'}\n            text/plain:\n              schema: {type: string}\n",
        ),
        // HEAD, OPTIONS and TRACE.
        operation("head", "", "        '200':\n          description: there\n"),
        operation(
            "options",
            "",
            "        '204':\n          description: allowed\n          headers:\n            Allow: {schema: {type: string}}\n",
        ),
        operation(
            "trace",
            "",
            "        '200':\n          description: echoed\n          content:\n            message/http:\n              schema: {type: string}\n",
        ),
        // Nothing but `default`.
        "  /extra:\n    get:\n      operationId: extra\n      responses:\n        default:\n          description: anything\n".to_string(),
    ];
    for edit in &edits {
        assert_generates(&with(edit, ""));
    }
    let api_key = with(
        &operation("get", "      security: [{apiKey: []}, {bearerAuth: []}]\n", OK_JSON),
        "",
    )
    .replacen(
        "  securitySchemes:\n",
        "  securitySchemes:\n    apiKey: {type: apiKey, in: header, name: X-API-Key}\n",
        1,
    );
    assert_generates(&api_key);
    // An API key that is the whole Authorization header (`Token <jwt>`).
    let authorization_key = with(&operation("get", "      security: [{token: []}]\n", OK_JSON), "").replacen(
        "  securitySchemes:\n",
        "  securitySchemes:\n    token: {type: apiKey, in: header, name: Authorization}\n",
        1,
    );
    assert_generates(&authorization_key);
    // allOf, oneOf and nullable in components.
    let schemas = "    Card:\n      type: object\n      required: [kind]\n      properties:\n        kind: {type: string, enum: [card]}\n    Bank:\n      type: object\n      required: [kind]\n      properties:\n        kind: {type: string, enum: [bank]}\n    Payment:\n      oneOf: [{$ref: '#/components/schemas/Card'}, {$ref: '#/components/schemas/Bank'}]\n    Rich:\n      allOf:\n        - $ref: '#/components/schemas/Order'\n        - type: object\n          properties:\n            note: {type: string, nullable: true}\n            payment: {$ref: '#/components/schemas/Payment'}\n";
    let rich = operation(
        "get",
        "",
        "        '200':\n          description: ok\n          content:\n            application/json:\n              schema: {$ref: '#/components/schemas/Rich'}\n",
    );
    assert_generates(&with(&rich, schemas));
}

/// Each construct the generator cannot map: where, and why.
#[test]
fn what_cannot_be_mapped_is_refused_with_its_location_and_reason() {
    let at = "paths./extra.get";
    let param = |p: &str| {
        with(
            &operation("get", &format!("      parameters:\n        - {p}\n"), OK_JSON),
            "",
        )
    };
    let body = |content: &str| {
        with(
            &operation(
                "post",
                &format!("      requestBody:\n        required: true\n        content:\n{content}"),
                NO_CONTENT,
            ),
            "",
        )
    };
    let response = |success: &str| with(&operation("get", "", success), "");
    let cases: Vec<(String, String, &str)> = vec![
        (
            with(&operation("get", "", OK_JSON).replacen("/extra:", "/extra//x:", 1), ""),
            "paths./extra//x".into(),
            "empty path segment",
        ),
        (
            param("{name: c, in: cookie, schema: {type: array, items: {type: string}}}"),
            format!("{at}.parameters.0.schema"),
            "a cookie parameter must be a scalar",
        ),
        (
            param("{name: c, in: query, style: pipeDelimited, schema: {type: string}}"),
            format!("{at}.parameters.0.style"),
            "form",
        ),
        (
            param("{name: c, in: query, schema: {type: string, const: x}}"),
            format!("{at}.parameters.0.schema.const"),
            "not an OpenAPI 3.0 schema keyword",
        ),
        (
            param("{name: c, in: query, schema: {$ref: 'other.yaml#/X'}}"),
            format!("{at}.parameters.0.schema.$ref"),
            "only references",
        ),
        (
            body("          multipart/form-data:\n            schema: {type: string}\n"),
            "paths./extra.post.requestBody.content.multipart/form-data.schema".into(),
            "a multipart body's schema must be an object with properties",
        ),
        (
            body("          image/*:\n            schema: {type: string, format: binary}\n"),
            "paths./extra.post.requestBody.content.image/*".into(),
            "not supported for a request body",
        ),
        (
            body("          application/x-www-form-urlencoded:\n            schema: {type: string}\n"),
            "paths./extra.post.requestBody.content.application/x-www-form-urlencoded.schema".into(),
            "a form body's schema must be an object",
        ),
        (
            body(
                "          application/x-www-form-urlencoded:\n            schema: {type: object, properties: {a: {type: array, items: {type: string}}}}\n            encoding: {a: {contentType: application/xml}}\n",
            ),
            "paths./extra.post.requestBody.content.application/x-www-form-urlencoded.encoding".into(),
            "not supported",
        ),
        (
            response(
                "        '200':\n          description: h\n          headers:\n            X-Map: {schema: {type: object}}\n",
            ),
            format!("{at}.responses.200.headers.X-Map.schema"),
            "must be a string, integer",
        ),
    ];
    for (spec, location, reason) in cases {
        assert_refused(&spec, &location, reason);
    }
    // Refused once, served now: JSON text parameters (a `content` one, a
    // value no style writes), a header list, a multipart body naming no
    // part, text with constraints (checked by the layer), media types of
    // values of their own (the body as bytes, each checked by its
    // schema), a success range (the handler's status), a `deepObject`
    // of any structure (bracket notation, read by its schema), in the
    // query and in a form.
    for served in [
        param("{name: c, in: query, style: deepObject, schema: {type: string}}"),
        param("{name: c, in: query, style: pipeDelimited, schema: {type: array, items: {type: string}}}"),
        body(
            "          application/x-www-form-urlencoded:\n            schema: {type: object, properties: {a: {type: array, items: {type: string}}}}\n            encoding: {a: {style: deepObject}}\n",
        ),
        param("{name: c, in: query, content: {application/json: {schema: {type: object}}}}"),
        param("{name: c, in: query, schema: {type: object, properties: {a: {type: object}}}}"),
        param("{name: X-Tags, in: header, schema: {type: array, items: {type: string}}}"),
        param("{name: c, in: query, schema: {type: array, items: {type: array, items: {type: string}}}}"),
        body("          multipart/form-data:\n            schema: {type: object}\n"),
        body("          text/csv:\n            schema: {type: string, maxLength: 10}\n"),
        body("          text/plain:\n            schema: {type: string, maxLength: 10}\n"),
        body(
            "          application/json:\n            schema: {type: object}\n          text/plain:\n            schema: {type: string}\n",
        ),
        response("        '2XX':\n          description: any success\n"),
        response(
            "        '200':\n          description: h\n          headers:\n            X-List: {schema: {type: array, items: {type: string}}}\n",
        ),
    ] {
        assert_generates(&served);
    }
}

#[test]
fn every_security_scheme_generates_and_unknown_ones_are_refused() {
    let spec = |security: &str, scheme: &str| {
        with(&operation("get", &format!("      security: {security}\n"), OK_JSON), "").replacen(
            "  securitySchemes:\n",
            &format!("  securitySchemes:\n    other: {scheme}\n"),
            1,
        )
    };
    for (security, scheme) in [
        ("[{other: []}]", "{type: apiKey, in: query, name: key}"),
        ("[{other: []}]", "{type: apiKey, in: cookie, name: session}"),
        ("[{other: []}]", "{type: http, scheme: Basic}"),
        (
            "[{other: [read, write]}]",
            "{type: oauth2, flows: {implicit: {authorizationUrl: 'https://x', scopes: {read: r, write: w}}}}",
        ),
        (
            "[{other: [openid]}]",
            "{type: openIdConnect, openIdConnectUrl: 'https://x/.well-known'}",
        ),
        // All at once, and optional.
        ("[{other: [], bearerAuth: []}]", "{type: http, scheme: basic}"),
        ("[{}, {other: []}]", "{type: http, scheme: basic}"),
    ] {
        assert_generates(&spec(security, scheme));
    }
    // Tolerated: another HTTP scheme is its `Authorization` header, read
    // whole (as an API key), and named as a warning (tests/corpus).
    assert_generates(&spec("[{other: []}]", "{type: http, scheme: digest}"));
    let at = "paths./extra.get.security";
    assert_refused(
        &spec("[{other: []}]", "{type: apiKey, in: body, name: key}"),
        "components.securitySchemes.other",
        "expected one of `query`, `header`, `cookie`",
    );
    assert_refused(
        &spec("[{missing: []}]", "{type: http, scheme: bearer}"),
        at,
        "not declared",
    );
    assert_refused(
        &spec("[{other: []}]", "{type: apiKey, in: header, name: Content-Type}"),
        "components.securitySchemes.other.name",
        "a name of its own",
    );
}

/// The generator maps what lint judges: an operation that leaves a status
/// of the layer's undocumented generates (the layer sends RFC 9457
/// problem details for it), and `cargo xtask lint` names the status.
#[test]
fn what_the_layer_sends_undocumented_generates_and_lint_names_it() {
    // A body op without 413 (the layer answers a body over the limit).
    let spec = with(
        &operation("post", "      requestBody:\n        content:\n          application/json:\n            schema: {type: object}\n", NO_CONTENT),
        "",
    )
    .replacen("        '413':\n          description: too large\n          content:\n            application/json:\n              schema:\n                $ref: '#/components/schemas/Error'\n", "", 1);
    assert_generates(&spec);
    assert_linted(&spec, "paths./extra.post.responses", "should document 413");
    let spec = with(
        &operation("get", "      parameters:\n        - {name: q, in: query, schema: {type: string}}\n", OK_JSON),
        "",
    )
    .replacen("        '400':\n          $ref: '#/components/responses/BadRequest'\n        '401':\n          $ref: '#/components/responses/Unauthorized'\n        '413'", "        '401':\n          $ref: '#/components/responses/Unauthorized'\n        '413'", 1);
    assert_generates(&spec);
    assert_linted(&spec, "paths./extra.get.responses", "should document 400");
}

#[track_caller]
fn assert_linted(spec: &str, location: &str, message: &str) {
    let doc: serde_json::Value = serde_norway::from_str(spec).unwrap();
    let findings = xtask::designer::lint::lint(&doc);
    assert!(
        findings
            .iter()
            .any(|f| f.location == location && f.message.contains(message) && f.severity == Severity::Error),
        "{findings:?}"
    );
}

/// A title is any text; the trait names taken from it are Rust's
/// (1Forge's "1Forge Finance APIs" made the generator panic).
#[test]
fn any_title_generates() {
    let spec = real_spec();
    let title = spec.lines().find(|l| l.starts_with("  title: ")).unwrap().to_string();
    for other in ["1Forge Finance APIs", "Zoo — für Tiere", "\"\"", "'!!!'"] {
        assert_generates(&spec.replacen(&title, &format!("  title: {other}"), 1));
    }
}
