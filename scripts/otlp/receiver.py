#!/usr/bin/env python3
"""A small OTLP trace receiver for the system tests: OTLP/HTTP (protobuf) and OTLP/gRPC on loopback.

Built on the protocol's own definitions from PyPI (opentelemetry-proto, grpcio; `make otlp` installs them in
.models/otlp), not on the service's code. Each span it receives is written to --out as one JSON line: ids in hex,
name, kind, attributes, event names, status, the resource's service.name and the protocol it came by. Prints
"ready <http port> <grpc port>" once both listen.
"""
import argparse
import json
import sys
import threading
from concurrent import futures
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import grpc
from opentelemetry.proto.collector.trace.v1 import trace_service_pb2, trace_service_pb2_grpc

lock = threading.Lock()


def value(any_value):
    kind = any_value.WhichOneof("value")
    if kind == "array_value":
        return [value(item) for item in any_value.array_value.values]
    return getattr(any_value, kind) if kind else None


def record(request, protocol, out):
    lines = []
    for resource_spans in request.resource_spans:
        resource = {a.key: value(a.value) for a in resource_spans.resource.attributes}
        for scope_spans in resource_spans.scope_spans:
            for span in scope_spans.spans:
                lines.append(json.dumps({
                    "protocol": protocol,
                    "service": resource.get("service.name"),
                    "trace_id": span.trace_id.hex(),
                    "span_id": span.span_id.hex(),
                    "parent_span_id": span.parent_span_id.hex(),
                    "name": span.name,
                    "kind": span.kind,
                    "attributes": {a.key: value(a.value) for a in span.attributes},
                    "events": [event.name for event in span.events],
                    "status": span.status.code,
                }))
    with lock, open(out, "a") as file:
        for line in lines:
            file.write(line + "\n")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--http-port", type=int, required=True)
    parser.add_argument("--grpc-port", type=int, required=True)
    parser.add_argument("--out", required=True)
    arguments = parser.parse_args()

    class Traces(BaseHTTPRequestHandler):
        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            if self.path != "/v1/traces" or "protobuf" not in self.headers.get("Content-Type", ""):
                self.send_response(415 if self.path == "/v1/traces" else 404)
                self.end_headers()
                return
            request = trace_service_pb2.ExportTraceServiceRequest()
            request.ParseFromString(body)
            record(request, "http/protobuf", arguments.out)
            reply = trace_service_pb2.ExportTraceServiceResponse().SerializeToString()
            self.send_response(200)
            self.send_header("Content-Type", "application/x-protobuf")
            self.send_header("Content-Length", str(len(reply)))
            self.end_headers()
            self.wfile.write(reply)

        def log_message(self, *_):
            pass

    class Service(trace_service_pb2_grpc.TraceServiceServicer):
        def Export(self, request, context):
            record(request, "grpc", arguments.out)
            return trace_service_pb2.ExportTraceServiceResponse()

    server = grpc.server(futures.ThreadPoolExecutor(max_workers=4))
    trace_service_pb2_grpc.add_TraceServiceServicer_to_server(Service(), server)
    server.add_insecure_port(f"127.0.0.1:{arguments.grpc_port}")
    server.start()
    http = ThreadingHTTPServer(("127.0.0.1", arguments.http_port), Traces)
    print(f"ready {arguments.http_port} {arguments.grpc_port}", flush=True)
    try:
        http.serve_forever()
    finally:
        server.stop(0)


if __name__ == "__main__":
    sys.exit(main())
