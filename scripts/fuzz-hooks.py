# schemathesis hooks for scripts/fuzz-api: a tus upload's body (application/offset+octet-stream) is bytes, sent as
# schemathesis sends application/octet-stream.
import schemathesis

schemathesis.serializer.alias("application/offset+octet-stream", "application/octet-stream")
