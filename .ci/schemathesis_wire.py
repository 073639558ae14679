"""Schemathesis hooks for bodies that are not JSON, loaded by
.ci/schemathesis-swagger-petstore.toml and .ci/schemathesis-kitchen-sink.toml.

Two things Schemathesis 4 does with forms (application/x-www-form-
urlencoded) that OpenAPI 3.0 does not:

1. It hands the body to `requests`, which writes a list of objects as the
   objects' keys (`tags=id&tags=name`) and a nested object as its keys too.
   OpenAPI's Encoding Object says a form field that is an object, or a list
   of objects, travels as `application/json` (its default `contentType`),
   and a list as a pair per item (`style: form, explode: true`). The
   serializer below writes forms that way, as the generated client does
   (xtask/src/codegen/client_forms.rs) and the generated layer reads
   (crates/api-runtime/src/form.rs).

2. Its negative data includes values whose wire text is that of a valid
   value: a scalar where the schema wants a list (`photoUrls: "a"` is
   `photoUrls=a`, the text of `["a"]`), or, in XML, an empty string or
   null where it wants a list (`<tags></tags>`, the text of `[]`). No
   server can tell them apart, so accepting one is not accepting invalid
   data. `filter_failure` drops a "schema-violating request accepted"
   failure when the body, read as sent the way the generated layer reads
   it (forms: a list field's pairs as its items, a required list that is
   absent as empty; XML: by the schema's `xml` objects, as
   crates/api-runtime/src/xml.rs does; multipart: a file part's bytes
   are any binary string, as crates/api-runtime/src/multipart.rs
   reads them), satisfies the body's schema.

3. Its stateful check "created resource not found" takes a DELETE as
   removing the paths under it, not a path with text after the variable
   beside it (`/orders/{orderId}.json` beside `/orders/{orderId}`): a
   404 for a download after a scenario deleted the order is dropped when
   the server says the order itself is gone too.
   Every other failure stands.
"""

import json
import os
import re
import urllib.error
import urllib.request
from urllib.parse import parse_qsl, urlencode
from email.parser import BytesParser
from xml.etree import ElementTree

import jsonschema_rs
import schemathesis
from schemathesis.core.transforms import to_wire_text

FORM = "application/x-www-form-urlencoded"
MULTIPART = "multipart/form-data"



@schemathesis.serializer(FORM)
def openapi_form(ctx, value):
    """The body's bytes (Schemathesis sends them with the case's media type)."""
    if value is None or isinstance(value, bytes):
        return value
    if isinstance(value, str):
        return value.encode()
    if not isinstance(value, dict):
        # Out-of-spec bodies (a top-level list) still reach the server.
        return json.dumps(value).encode()
    pairs = []
    for name, field in value.items():
        for item in field if isinstance(field, list) else [field]:
            pairs.append((str(name), to_wire_text(item)))
    return urlencode(pairs).encode()


@schemathesis.hook
def filter_failure(ctx, failure, case, response):
    if type(failure).__name__ == "EnsureResourceAvailability":
        return not _deleted_with_its_resource(case, response)
    if type(failure).__name__ != "AcceptedNegativeData":
        return True
    read = {FORM: _read_form, "xml": _read_xml, MULTIPART: _read_multipart}.get(_encoding(case.media_type))
    if read is None:
        return True
    document = case.operation.schema.raw_schema
    body_spec = case.operation.definition.raw.get("requestBody", {})
    if body_spec.get("$ref", "").startswith("#/components/requestBodies/"):
        body_spec = document["components"]["requestBodies"][body_spec["$ref"].rsplit("/", 1)[1]]
    media = body_spec.get("content", {}).get(case.media_type)
    if media is None or "schema" not in media:
        return True
    body = response.request.body or b""
    if isinstance(body, bytes):
        body = body.decode("utf-8", "surrogateescape")
    root = {**media["schema"], "components": document.get("components", {})}
    try:
        sent = read(body, media["schema"], document, response.request.headers.get("Content-Type", ""))
    except (ValueError, ElementTree.ParseError):
        return True
    if not jsonschema_rs.Draft4Validator(root).is_valid(sent):
        return True
    # SCHEMATHESIS_WIRE_LOG=<file> lists what was dropped, for review.
    if os.environ.get("SCHEMATHESIS_WIRE_LOG"):
        with open(os.environ["SCHEMATHESIS_WIRE_LOG"], "a") as log:
            log.write(f"{case.operation.label} {case.media_type}: {body!r} reads as {json.dumps(sent)}\n")
    return False


def _deleted_with_its_resource(case, response):
    """Whether a "created resource not found" 404 came from a path with text
    after its variable (`/orders/{orderId}.json`) whose resource
    (`/orders/{orderId}`) is gone too: a scenario that deleted the order in
    between. Schemathesis takes a DELETE as removing the paths under it
    only, not `/orders/144.json` beside `/orders/144`, and reports the
    404 that a deleted order must get. Asked of the server itself, with the
    request's own credentials."""
    match = re.fullmatch(r"(.*\{[^/{}]+\})([^/{}]+)", case.path)
    url = response.request.url or ""
    if match is None or not url.endswith(match.group(2)):
        return False
    resource = url[: -len(match.group(2))]
    headers = {k: v for k, v in response.request.headers.items() if k.lower() in ("authorization", "x-api-key")}
    try:
        urllib.request.urlopen(urllib.request.Request(resource, headers=headers), timeout=10)
    except urllib.error.HTTPError as e:
        gone = e.code == 404
    except OSError:
        return False
    else:
        gone = False
    if gone and os.environ.get("SCHEMATHESIS_WIRE_LOG"):
        with open(os.environ["SCHEMATHESIS_WIRE_LOG"], "a") as log:
            log.write(f"{case.operation.label}: 404 after {resource} was deleted\n")
    return gone


def _encoding(media_type):
    essence = (media_type or "").split(";")[0].strip().lower()
    if essence in ("application/xml", "text/xml") or (essence.startswith("application/") and essence.endswith("+xml")):
        return "xml"
    return essence


def _resolve(schema, document):
    for _ in range(16):
        reference = schema.get("$ref", "")
        if not reference.startswith("#/components/schemas/"):
            break
        schema = document["components"]["schemas"][reference.rsplit("/", 1)[1]]
    return schema


def _read_form(body, schema, document, _content_type):
    return _read_as_sent(body, _resolve(schema, document))


def _read_multipart(body, schema, document, content_type):
    """The text parts read by their properties' types; a file part (a
    property of `format: binary`, or a list of them) is bytes, any of
    which is a valid binary string: it stands as an empty one."""
    schema = _resolve(schema, document)
    properties = schema.get("properties", {})
    message = BytesParser().parsebytes(
        f"Content-Type: {content_type}\r\n\r\n".encode() + body.encode("utf-8", "surrogateescape")
    )
    sent = {}
    for part in message.get_payload() if message.is_multipart() else []:
        name = part.get_param("name", header="content-disposition")
        field = _resolve(properties.get(name, {}), document)
        items = _resolve(field.get("items", {}), document)
        if field.get("format") == "binary":
            sent[name] = ""
        elif field.get("type") == "array" and items.get("format") == "binary":
            sent.setdefault(name, []).append("")
        else:
            text = part.get_payload(decode=True).decode("utf-8", "replace")
            sent[name] = _reading(text, field)
    return sent


def _read_xml(body, schema, document, _content_type):
    return _xml_value(ElementTree.fromstring(body), schema, document)


def _xml_value(element, schema, document):
    schema = _resolve(schema, document)
    kind = schema.get("type") or ("object" if "properties" in schema else "array" if "items" in schema else None)
    children = list(element)
    if kind == "array":
        return [_xml_value(child, schema.get("items", {}), document) for child in children]
    if kind != "object":
        return _reading((element.text or "") if kind == "string" else (element.text or "").strip(), schema)
    value = {}
    for name, field in schema.get("properties", {}).items():
        resolved = _resolve(field, document)
        own = field.get("xml", {}).get("name")
        xml = {**resolved.get("xml", {}), **field.get("xml", {})}
        if xml.get("attribute"):
            if (own or name) in element.attrib:
                value[name] = _reading(element.attrib[own or name], resolved)
            continue
        if resolved.get("type") == "array" and not xml.get("wrapped"):
            items = resolved.get("items", {})
            names = {own, name, items.get("xml", {}).get("name"), _resolve(items, document).get("xml", {}).get("name")}
            found = [child for child in children if child.tag in names]
            if found:
                value[name] = [_xml_value(child, items, document) for child in found]
            continue
        names = {own, name} if resolved.get("type") == "array" else {own, name, resolved.get("xml", {}).get("name")}
        found = [child for child in children if child.tag in names]
        if found:
            value[name] = _xml_value(found[0], field, document)
    return value


def _read_as_sent(body, schema):
    """The form as the generated layer reads it: a list field's pairs as
    its items, and a required list that is absent as empty (a form cannot
    carry an empty list)."""
    properties = schema.get("properties", {})
    fields = {}
    for name, text in parse_qsl(body, keep_blank_values=True):
        fields.setdefault(name, []).append(text)
    sent = {}
    for name, texts in fields.items():
        field = properties.get(name, {})
        if field.get("type") == "array":
            sent[name] = [_reading(text, field.get("items", {})) for text in texts]
        elif len(texts) == 1:
            sent[name] = _reading(texts[0], field)
        else:
            sent[name] = texts
    for name in schema.get("required", []):
        if name not in sent and properties.get(name, {}).get("type") == "array":
            sent[name] = []
    return sent


def _reading(text, schema):
    """The text as the value its schema's type reads it as."""
    if schema.get("type") == "string":
        return text
    try:
        return json.loads(text)
    except ValueError:
        return text
