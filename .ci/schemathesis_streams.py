"""Schemathesis hooks for the 3.1 kitchen sink's streamed responses,
loaded by .ci/schemathesis-kitchen-sink-31.toml.

`GET /shapes/events?follow=true` is an endless stream: ticks for as
long as the reader stays. Schemathesis reads a response whole, so it
would wait forever; its requests go without `follow`, and the endless
stream is read (and left) by crates/kitchen-sink-31/tests/integration/
streams.rs instead.
"""

import schemathesis


@schemathesis.hook
def before_call(ctx, case, kwargs):
    if case.operation.path == "/shapes/events" and isinstance(case.query, dict):
        case.query.pop("follow", None)
        params = kwargs.get("params")
        if isinstance(params, dict):
            params.pop("follow", None)
