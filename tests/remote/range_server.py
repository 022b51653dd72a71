#!/usr/bin/env python3
"""An HTTP server with Range support, a request log and a fault injector, for the remote-trace tests.

Serves the files of a folder: GET and HEAD with one range (`bytes=A-B`, `bytes=A-`), 206 with
Content-Range, or several (`bytes=A-B,C-D`), 206 multipart/byteranges (one request in the log, its bytes
the parts' data), an ETag and Last-Modified from the file's mtime and size, If-Match answered with 412;
PUT writes a file (a temporary beside it, renamed). Control requests, under /_ctl/:
  GET  /_ctl/log      the requests since the last reset, as JSON: [{method, path, range, status, bytes, if_match}]
  POST /_ctl/reset    forget the log and every fault
  POST /_ctl/fault    body {"kind": K, "count": N, "status": S, "ms": M}: the next N requests of files
                      (N = -1: all) get the fault K:
                        status  answer with status S (500, 503, 403, 404...)
                        cut     send the headers and half the body, then close the connection
                        short   a 206 whose body (and Content-Length) is shorter than the range
                        etag    answer with another ETag, If-Match ignored (changed, on a server that
                                does not check If-Match)
                        delay   wait M ms before answering (latency)
                        norange answer 200 with the whole object, as a server that ignores Range
                        nomulti answer a request of several ranges with the first range only (a 206
                                of one part, as servers that do not serve several do)
                        badmulti answer a request of several ranges with a multipart body whose last
                                part's Content-Range claims more bytes than the body holds
Over HTTPS with serve(..., tls=(CERT, KEY)) (tests/remote/tls_test.py).
Usage: range_server.py ROOT [PORT]; prints "port N" on its first line when ready.
"""
import email.utils
import json
import os
import re
import ssl
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

LOCK = threading.Lock()
LOG = []
FAULTS = []  # [{"kind", "count", ...}]


def take_fault():
    with LOCK:
        for f in FAULTS:
            if f["count"] != 0:
                if f["count"] > 0:
                    f["count"] -= 1
                return dict(f)
    return None


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    root = "."
    # TCP_NODELAY, as servers set it on kept-alive connections (nginx's tcp_nodelay, on by default): an answer is
    # written in two sends (the headers, then the body), and with Nagle's algorithm the body's last segment waits
    # for the ACK of the headers, which a client that delays its ACKs (the latency proxy does) sends up to 40 ms
    # later: a stall of the test server's making, not of the client's requests
    disable_nagle_algorithm = True

    def log_message(self, fmt, *args):  # quiet: the log is /_ctl/log
        pass

    def record(self, status, nbytes, rng=None):
        with LOCK:
            LOG.append({"method": self.command, "path": self.path, "range": rng, "status": status, "bytes": nbytes,
                        "if_match": self.headers.get("If-Match")})

    def reply(self, status, body=b"", headers=()):
        self.send_response(status)
        for k, v in headers:
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def control(self):
        global LOG
        if self.path == "/_ctl/log":
            with LOCK:
                body = json.dumps(LOG).encode()
            return self.reply(200, body, [("Content-Type", "application/json")])
        n = int(self.headers.get("Content-Length", "0"))
        data = self.rfile.read(n) if n else b""
        with LOCK:
            if self.path == "/_ctl/reset":
                LOG = []
                FAULTS.clear()
            elif self.path == "/_ctl/fault":
                f = json.loads(data)
                f.setdefault("count", 1)
                FAULTS.append(f)
            else:
                return self.reply(404)
        return self.reply(204)

    def file_path(self):
        rel = self.path.split("?", 1)[0].lstrip("/")
        p = os.path.realpath(os.path.join(self.root, rel))
        if not p.startswith(os.path.realpath(self.root) + os.sep):
            return None
        return p

    def do_POST(self):
        if self.path.startswith("/_ctl/"):
            return self.control()
        self.reply(405)

    def do_PUT(self):
        p = self.file_path()
        n = int(self.headers.get("Content-Length", "0"))
        data = self.rfile.read(n)
        f = take_fault()
        if f and f["kind"] == "status":
            self.record(f["status"], 0)
            return self.reply(f["status"])
        tmp = p + ".tmp-upload"
        with open(tmp, "wb") as out:
            out.write(data)
        os.replace(tmp, p)
        self.record(201, n)
        self.reply(201)

    def do_HEAD(self):
        self.do_GET()

    def do_GET(self):
        if self.path.startswith("/_ctl/"):
            return self.control()
        f = take_fault()
        if f and f["kind"] == "delay":
            time.sleep(f["ms"] / 1000.0)
            f = None
        p = self.file_path()
        rng = self.headers.get("Range")
        if f and f["kind"] == "status":
            self.record(f["status"], 0, rng)
            return self.reply(f["status"], b"injected fault")
        if not p or not os.path.isfile(p):
            self.record(404, 0, rng)
            return self.reply(404, b"not found")
        st = os.stat(p)
        size = st.st_size
        etag = '"%x-%x"' % (st.st_mtime_ns, size)
        if f and f["kind"] == "etag":
            etag = '"changed-%x"' % st.st_mtime_ns
        common = [("ETag", etag), ("Last-Modified", email.utils.formatdate(st.st_mtime, usegmt=True)),
                  ("Accept-Ranges", "bytes")]
        im = self.headers.get("If-Match")
        if im is not None and not (f and f["kind"] == "etag") and im != "*" and im != etag:
            self.record(412, 0, rng)
            return self.reply(412, b"precondition failed", common)
        start, end, status = 0, size - 1, 200
        if rng and "," in rng and not (f and f["kind"] in ("norange", "nomulti", "short", "cut")):
            return self.multipart(p, rng, size, common, bad=bool(f and f["kind"] == "badmulti"))
        asked = rng
        if rng and "," in rng:
            rng = rng.split(",")[0]
        if rng and not (f and f["kind"] == "norange"):
            m = re.fullmatch(r"bytes=(\d+)-(\d*)", rng.strip())
            if not m:
                self.record(416, 0, rng)
                return self.reply(416, b"", common + [("Content-Range", "bytes */%d" % size)])
            start = int(m.group(1))
            end = int(m.group(2)) if m.group(2) else size - 1
            end = min(end, size - 1)
            if start >= size or start > end:
                self.record(416, 0, rng)
                return self.reply(416, b"", common + [("Content-Range", "bytes */%d" % size)])
            status = 206
        with open(p, "rb") as fh:
            fh.seek(start)
            body = fh.read(end - start + 1)
        headers = list(common)
        if status == 206:
            headers.append(("Content-Range", "bytes %d-%d/%d" % (start, end, size)))
        if f and f["kind"] == "short":
            body = body[: len(body) // 2]
        if f and f["kind"] == "cut":
            self.send_response(status)
            for k, v in headers:
                self.send_header(k, v)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(body[: len(body) // 2])
                self.wfile.flush()
            self.close_connection = True
            self.record(status, len(body) // 2, rng)
            return
        self.record(status, len(body), asked)
        self.reply(status, body, headers)


    def multipart(self, p, rng, size, common, bad=False):
        """Several ranges: 206 multipart/byteranges (RFC 9110 14.6), each part with its Content-Range."""
        parts = []
        for one in rng.strip()[len("bytes="):].split(","):
            m = re.fullmatch(r"(\d+)-(\d+)", one.strip())
            if not rng.startswith("bytes=") or not m or int(m.group(1)) > int(m.group(2)) or int(m.group(1)) >= size:
                self.record(416, 0, rng)
                return self.reply(416, b"", common + [("Content-Range", "bytes */%d" % size)])
            parts.append((int(m.group(1)), min(int(m.group(2)), size - 1)))
        boundary = "ntidx_test_boundary_3d6b6a4f"
        body, data = b"", 0
        with open(p, "rb") as fh:
            for i, (a, b) in enumerate(parts):
                fh.seek(a)
                claim = b + 1000000 if bad and i == len(parts) - 1 else b
                body += ("\r\n--%s\r\nContent-Type: application/octet-stream\r\nContent-Range: bytes %d-%d/%d\r\n\r\n"
                         % (boundary, a, claim, size)).encode() + fh.read(b - a + 1)
                data += b - a + 1
        body += ("\r\n--%s--\r\n" % boundary).encode()
        self.record(206, data, rng)
        self.reply(206, body, common + [("Content-Type", "multipart/byteranges; boundary=" + boundary)])


class Server(ThreadingHTTPServer):
    def handle_error(self, request, client_address):
        # clients that hang up, or refuse the certificate (the TLS tests): quiet
        if not isinstance(sys.exc_info()[1], (ConnectionError, BrokenPipeError, ssl.SSLError)):
            super().handle_error(request, client_address)


def serve(root, port=0, tls=None):
    """Start the server on 127.0.0.1 in a thread; returns it (server.server_port is its port). tls: (certificate
    chain file, key file) to serve HTTPS with them."""
    Handler.root = root
    srv = Server(("127.0.0.1", port), Handler)
    if tls:
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.load_cert_chain(tls[0], tls[1])
        # the handshake in the connection's own thread (on its first read), not in the accepting one: a client
        # that refuses the certificate holds up nobody else
        srv.socket = ctx.wrap_socket(srv.socket, server_side=True, do_handshake_on_connect=False)
    srv.daemon_threads = True
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    return srv


if __name__ == "__main__":
    srv = serve(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 0)
    print("port %d" % srv.server_port, flush=True)
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        pass
